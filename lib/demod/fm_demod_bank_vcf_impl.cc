/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/parameter_checks.h"
#include "cuda/demod/deemphasis.h"
#include "cuda/demod/demod_stream.h"
#include "demod/fm_demod_bank_vcf_impl.h"
#include <gnuradio/gr_complex.h>
#include <gnuradio/io_signature.h>
#include <gnuradio/math.h>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {

namespace {

//! batch_size in vectors; 0: the vectors of default_batch_size samples.
int batch_vectors(int batch_size, unsigned nchan)
{
    if (batch_size == 0)
        return static_cast<int>(std::max<unsigned>(
            1u, static_cast<unsigned>(default_batch_size) / std::max(nchan, 1u)));
    return checked_batch_size(batch_size);
}

//! The chain per channel on the CPU: gr-analog's demodulator arithmetic
//! (conjugate product, gr::fast_atan2f), the FIR at the decimated instants
//! (gr-filter's window: x[j*D - k], zeros before the start) and gr-analog's
//! de-emphasis IIR (double state). State carries across calls; fixed buffers, no
//! allocation in work(). A restart zeroes the previous samples, the FIR history and
//! the phase and keeps the de-emphasis state, as GNU Radio's restart does to that
//! chain (fresh zeroed buffers; iir_filter_ffd keeps its own state).
class fm_demod_bank_cpu_kernel final : public cpu_kernel
{
public:
    fm_demod_bank_cpu_kernel(unsigned nchan,
                             const std::vector<unsigned>& channels,
                             unsigned decimation,
                             const std::vector<float>& taps,
                             float gain,
                             cuda::deemphasis deemph)
        : d_nchan(nchan),
          d_channels(channels),
          d_decim(decimation),
          d_taps(taps),
          d_gain(gain),
          d_deemph(deemph),
          d_hist(taps.size() - 1),
          d_prev(channels.size(), gr_complex(0, 0)),
          d_rows(channels.size() * (taps.size() - 1), 0.0f),
          d_work(taps.size() - 1 + chunk),
          d_state(2 * channels.size(), 0.0)
    {
    }

    std::size_t
    process(const void* const* windows, std::size_t nnew, void* const* out) override
    {
        const auto in = static_cast<const gr_complex*>(windows[0]);
        const auto y = static_cast<float*>(out[0]);
        const std::size_t nsel = d_channels.size();
        std::size_t produced = 0;
        for (std::size_t done = 0; done < nnew; done += chunk) {
            const std::size_t n = std::min(chunk, nnew - done);
            const std::size_t first = (d_decim - d_phase) % d_decim;
            const std::size_t outputs = n > first ? (n - first - 1) / d_decim + 1 : 0;
            for (std::size_t c = 0; c < nsel; ++c) {
                float* row = d_rows.data() + c * d_hist;
                std::copy(row, row + d_hist, d_work.begin());
                const std::size_t k = d_channels[c];
                gr_complex prev = d_prev[c];
                for (std::size_t t = 0; t < n; ++t) {
                    const gr_complex x = in[(done + t) * d_nchan + k];
                    const gr_complex p = x * std::conj(prev);
                    d_work[d_hist + t] = d_gain * gr::fast_atan2f(p.imag(), p.real());
                    prev = x;
                }
                d_prev[c] = prev;
                double xp = d_state[2 * c], yp = d_state[2 * c + 1];
                for (std::size_t j = 0; j < outputs; ++j) {
                    const float* newest = d_work.data() + d_hist + first + j * d_decim;
                    float acc = 0.0f;
                    for (std::size_t i = 0; i < d_taps.size(); ++i)
                        acc += d_taps[i] * newest[-static_cast<std::ptrdiff_t>(i)];
                    const double v =
                        d_deemph.b0 * acc + d_deemph.b1 * xp - d_deemph.a1 * yp;
                    y[(produced + j) * nsel + c] = static_cast<float>(v);
                    xp = acc;
                    yp = v;
                }
                d_state[2 * c] = xp;
                d_state[2 * c + 1] = yp;
                std::copy(d_work.begin() + n, d_work.begin() + n + d_hist, row);
            }
            produced += outputs;
            d_phase = (d_phase + n) % d_decim;
        }
        return produced;
    }

    void restart() override
    {
        std::fill(d_prev.begin(), d_prev.end(), gr_complex(0, 0));
        std::fill(d_rows.begin(), d_rows.end(), 0.0f);
        d_phase = 0;
    }

private:
    static constexpr std::size_t chunk = 4096;
    std::size_t d_nchan;
    std::vector<unsigned> d_channels;
    std::size_t d_decim;
    std::vector<float> d_taps;
    float d_gain;
    cuda::deemphasis d_deemph;
    std::size_t d_hist;
    std::size_t d_phase = 0;
    std::vector<gr_complex> d_prev;
    std::vector<float> d_rows; // per channel: the last d_hist demodulated samples
    std::vector<float> d_work; // one channel's history and chunk
    std::vector<double> d_state;
};

block_core::backends make_backends(unsigned nchan,
                                   const std::vector<unsigned>& channels,
                                   unsigned decimation,
                                   const std::vector<float>& taps,
                                   double channel_rate,
                                   double deviation,
                                   double tau)
{
    checked_taps(taps);
    checked_positive("channel_rate", channel_rate);
    checked_positive("deviation", deviation);
    checked_tau(tau);
    const auto gain = static_cast<float>(channel_rate / (2 * M_PI * deviation));
    const auto deemph = cuda::deemphasis::for_rate(channel_rate / decimation, tau);
    return { [=](int device,
                 std::size_t max_chunk) -> std::unique_ptr<cuda::host_stream> {
                return std::make_unique<cuda::fm_demod_bank_stream>(
                    device, nchan, channels, decimation, taps, gain, deemph, max_chunk);
            },
             [=]() -> std::unique_ptr<cpu_kernel> {
                 return std::make_unique<fm_demod_bank_cpu_kernel>(
                     nchan, channels, decimation, taps, gain, deemph);
             } };
}

} // namespace

fm_demod_bank_vcf::sptr fm_demod_bank_vcf::make(unsigned nchan,
                                                const std::vector<unsigned>& channels,
                                                unsigned decimation,
                                                const std::vector<float>& taps,
                                                double channel_rate,
                                                double deviation,
                                                double tau,
                                                int device,
                                                int batch_size,
                                                double max_latency)
{
    return gnuradio::make_block_sptr<fm_demod_bank_vcf_impl>(nchan,
                                                             channels,
                                                             decimation,
                                                             taps,
                                                             channel_rate,
                                                             deviation,
                                                             tau,
                                                             device,
                                                             batch_size,
                                                             max_latency);
}

fm_demod_bank_vcf_impl::fm_demod_bank_vcf_impl(unsigned nchan,
                                               const std::vector<unsigned>& channels,
                                               unsigned decimation,
                                               const std::vector<float>& taps,
                                               double channel_rate,
                                               double deviation,
                                               double tau,
                                               int device,
                                               int batch_size,
                                               double max_latency)
    : gr::sync_decimator(
          "gpu_fm_demod_bank_vcf",
          gr::io_signature::make(
              1, 1, sizeof(gr_complex) * checked_count("nchan", nchan)),
          gr::io_signature::make(
              1, 1, sizeof(float) * checked_channels(channels, nchan).size()),
          static_cast<int>(checked_count("decimation", decimation))),
      gpu_block<fm_demod_bank_vcf>(
          device,
          { 1, decimation },
          batch_vectors(batch_size, nchan),
          max_latency,
          make_backends(nchan, channels, decimation, taps, channel_rate, deviation, tau)),
      d_nchan(nchan),
      d_decim(decimation),
      d_channels(channels),
      d_taps(taps)
{
}

int fm_demod_bank_vcf_impl::work(int noutput_items,
                                 gr_vector_const_void_star& input_items,
                                 gr_vector_void_star& output_items)
{
    gr::thread::scoped_lock lock(d_setlock);
    return d_core.process(
        input_items, static_cast<std::size_t>(noutput_items) * d_decim, output_items);
}

} // namespace gpufilter
} // namespace gr
