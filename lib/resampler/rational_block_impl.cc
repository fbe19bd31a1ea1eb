/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/parameter_checks.h"
#include "resampler/rational_block_impl.h"
#include "resampler/rational_resampler_impl.h"
#include <gnuradio/fft/window.h>
#include <gnuradio/filter/firdes.h>
#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {

namespace {

//! gr-filter's design_resampler_filter, float taps.
std::vector<float>
resampler_taps(unsigned interpolation, unsigned decimation, float fractional_bw)
{
    constexpr float beta = 7.0f, halfband = 0.5f;
    const float rate = float(interpolation) / float(decimation);
    float trans_width, mid_transition_band;
    if (rate >= 1.0f) {
        trans_width = halfband - fractional_bw;
        mid_transition_band = halfband - trans_width / 2.0f;
    } else {
        trans_width = rate * (halfband - fractional_bw);
        mid_transition_band = rate * halfband - trans_width / 2.0f;
    }
    return gr::filter::firdes::low_pass(interpolation,
                                        interpolation,
                                        mid_transition_band,
                                        trans_width,
                                        gr::fft::window::WIN_KAISER,
                                        beta);
}

template <class TAP_T>
std::vector<TAP_T> as_taps(const std::vector<float>& real)
{
    return std::vector<TAP_T>(real.begin(), real.end());
}

//! Inputs per transfer: batch_size counts input samples where the rate is <= 1 and
//! output samples above it, so that a high rate does not multiply the buffers.
int per_input_batch(int batch_size, unsigned interpolation, unsigned decimation)
{
    const unsigned up = (interpolation + decimation - 1) / decimation;
    return std::max(1, batch_size / static_cast<int>(std::max(1u, up)));
}

int saturated_int(std::uint64_t x)
{
    return static_cast<int>(std::min<std::uint64_t>(x, std::numeric_limits<int>::max()));
}

} // namespace

template <class TAP_T>
rational_design<TAP_T> design_rational(unsigned interpolation,
                                       unsigned decimation,
                                       const std::vector<TAP_T>& taps,
                                       float fractional_bw)
{
    checked_count("interpolation", interpolation);
    checked_count("decimation", decimation);
    if (!taps.empty()) {
        checked_taps(taps);
        return { interpolation, decimation, cuda::padded_to_arms(taps, interpolation) };
    }
    if (fractional_bw <= 0.0f)
        fractional_bw = 0.4f;
    if (!(fractional_bw < 0.5f))
        throw std::invalid_argument("fractional_bw: must be in (0, 0.5) to design the "
                                    "taps, got " +
                                    std::to_string(fractional_bw));
    const unsigned d = std::gcd(interpolation, decimation);
    interpolation /= d;
    decimation /= d;
    return { interpolation,
             decimation,
             cuda::padded_to_arms(
                 as_taps<TAP_T>(resampler_taps(interpolation, decimation, fractional_bw)),
                 interpolation) };
}

template <class Public, class IN_T, class OUT_T, class TAP_T>
rational_block_impl<Public, IN_T, OUT_T, TAP_T>::rational_block_impl(
    const rational_design<TAP_T>& design,
    unsigned vlen,
    int device,
    int batch_size,
    double max_latency)
    : gpu_block<Public, cuda::rational_controls<TAP_T>>(
          device,
          { design.interpolation, design.decimation },
          per_input_batch(
              checked_batch_size(batch_size), design.interpolation, design.decimation),
          max_latency,
          rational_computation<IN_T, OUT_T, TAP_T>(design.interpolation,
                                                   design.decimation,
                                                   design.taps,
                                                   cuda::rational_start::first_window,
                                                   vlen)),
      d_interpolation(design.interpolation),
      d_decimation(design.decimation),
      d_taps(design.taps)
{
    this->set_relative_rate(std::uint64_t{ d_interpolation },
                            std::uint64_t{ d_decimation });
    // Whole input samples a call: room for every output one sample can give.
    this->d_core.set_output_multiple(
        static_cast<int>((d_interpolation + d_decimation - 1) / d_decimation));
}

template <class Public, class IN_T, class OUT_T, class TAP_T>
std::size_t rational_block_impl<Public, IN_T, OUT_T, TAP_T>::lookahead() const
{
    // gr-filter's forecast asks for floor(2*D/I) samples past an output's window
    // start plus T-1 (its output's newest sample is the window's last): an output is
    // computed once that many samples follow its newest one, less one.
    const unsigned beyond = 2 * d_decimation / d_interpolation;
    return beyond > 1 ? beyond - 1 : 0;
}

template <class Public, class IN_T, class OUT_T, class TAP_T>
void rational_block_impl<Public, IN_T, OUT_T, TAP_T>::set_taps(
    const std::vector<TAP_T>& taps)
{
    checked_taps(taps);
    gr::thread::scoped_lock lock(this->d_setlock);
    // No new window: the computation keeps the samples before the new ones, and
    // moves the next output as gr-filter's does (rational_position::new_taps).
    d_taps = cuda::padded_to_arms(taps, d_interpolation);
    this->controls().set_taps(d_taps);
}

template <class Public, class IN_T, class OUT_T, class TAP_T>
void rational_block_impl<Public, IN_T, OUT_T, TAP_T>::forecast(
    int /*noutput_items*/, gr_vector_int& ninput_items_required)
{
    // Through the next output's newest sample (the computation holds the samples
    // before the new ones) and its lookahead: whenever that much is there, a call
    // makes progress (the output multiple leaves room for a whole sample's outputs),
    // and at the end of a stream the last output is gr-filter's. A whole batch while
    // upstream runs.
    const int needed = saturated_int(this->controls().inputs_for(0) + 1 + lookahead());
    const int wanted = std::max(needed, this->d_core.batch_input_items());
    std::fill(ninput_items_required.begin(), ninput_items_required.end(), wanted);
}

template <class Public, class IN_T, class OUT_T, class TAP_T>
int rational_block_impl<Public, IN_T, OUT_T, TAP_T>::general_work(
    int noutput_items,
    gr_vector_int& ninput_items,
    gr_vector_const_void_star& input_items,
    gr_vector_void_star& output_items)
{
    gr::thread::scoped_lock lock(this->d_setlock);
    // The samples gr-filter would still wait for stay in GNU Radio's buffer, so that
    // a stream ends where gr-filter's ends.
    const long avail = ninput_items[0] - static_cast<long>(lookahead());
    if (avail <= 0)
        return 0;
    const auto& c = this->controls();
    std::size_t n = std::min(c.inputs_for(static_cast<std::size_t>(noutput_items)),
                             static_cast<std::size_t>(avail));
    // Through the samples gr-filter steps over after the last output, never past the
    // input: their tags move on with them.
    n = std::min(c.next_input(n), static_cast<std::size_t>(avail));
    const int produced = this->d_core.process(input_items, n, output_items);
    if (produced < 0)
        return produced; // WORK_DONE: the GPU failed (logged)
    this->consume_each(static_cast<int>(n));
    return produced;
}

#define GPUFILTER_RATIONAL_BLOCK(IN_T, OUT_T, TAP_T)                           \
    template class rational_block_impl<rational_resampler<IN_T, OUT_T, TAP_T>, \
                                       IN_T,                                   \
                                       OUT_T,                                  \
                                       TAP_T>;
GPUFILTER_RATIONAL_BLOCK(gr_complex, gr_complex, gr_complex)
GPUFILTER_RATIONAL_BLOCK(gr_complex, gr_complex, float)
GPUFILTER_RATIONAL_BLOCK(float, gr_complex, gr_complex)
GPUFILTER_RATIONAL_BLOCK(float, float, float)
GPUFILTER_RATIONAL_BLOCK(float, std::int16_t, float)
GPUFILTER_RATIONAL_BLOCK(std::int16_t, gr_complex, gr_complex)
template class rational_block_impl<rational_resampler_vff, float, float, float>;

template rational_design<float>
design_rational<float>(unsigned, unsigned, const std::vector<float>&, float);
template rational_design<gr_complex>
design_rational<gr_complex>(unsigned, unsigned, const std::vector<gr_complex>&, float);

} // namespace gpufilter
} // namespace gr
