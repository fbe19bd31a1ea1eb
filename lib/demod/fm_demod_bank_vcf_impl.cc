/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/parameter_checks.h"
#include "cuda/demod/deemphasis.h"
#include "cuda/demod/demod_controls.h"
#include "demod/cpu/fm_demod_bank_cpu_kernel.h"
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

computation<cuda::no_controls>
fm_demod_bank_computation(unsigned nchan,
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
    return { [=](int device, std::size_t max_chunk) {
                return cuda::make_fm_demod_bank_path(
                    device, max_chunk, nchan, channels, decimation, taps, gain, deemph);
            },
             [=] {
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
          fm_demod_bank_computation(
              nchan, channels, decimation, taps, channel_rate, deviation, tau)),
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
