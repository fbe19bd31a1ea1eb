/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "resampler/cpu/rational_cpu_kernel.h"
#include <gnuradio/gr_complex.h>
#include <algorithm>
#include <cstdint>
#include <stdexcept>

namespace gr {
namespace gpufilter {

template <class In, class Out, class Tap>
rational_cpu_kernel<In, Out, Tap>::rational_cpu_kernel(unsigned interpolation,
                                                       unsigned decimation,
                                                       const std::vector<Tap>& taps,
                                                       cuda::rational_start start,
                                                       unsigned vlen)
    : d_vlen(vlen), d_start(start)
{
    d_position.interpolation = interpolation;
    d_position.decimation = decimation;
    for (unsigned p = 0; p < interpolation; ++p)
        d_arms.push_back(std::make_unique<gr::filter::kernel::fir_filter<In, Out, Tap>>(
            std::vector<Tap>{ Tap{} }));
    set_taps(taps);
    d_position.restart(d_start, d_taps_per_arm);
}

template <class In, class Out, class Tap>
void rational_cpu_kernel<In, Out, Tap>::restart()
{
    std::fill(d_history.begin(), d_history.end(), In{});
    d_position.restart(d_start, d_taps_per_arm);
}

template <class In, class Out, class Tap>
void rational_cpu_kernel<In, Out, Tap>::set_taps(const std::vector<Tap>& taps)
{
    // gr-filter's split: taps zero-padded to whole arms, tap i to arm i mod I.
    const std::size_t arms = d_arms.size();
    const unsigned old_taps_per_arm = d_taps_per_arm;
    d_taps_per_arm = static_cast<unsigned>((taps.size() + arms - 1) / arms);
    if (old_taps_per_arm)
        d_position.new_taps(d_start, old_taps_per_arm, d_taps_per_arm);
    std::vector<std::vector<Tap>> split(arms, std::vector<Tap>(d_taps_per_arm, Tap{}));
    for (std::size_t i = 0; i < taps.size(); ++i)
        split[i % arms][i / arms] = taps[i];
    for (std::size_t p = 0; p < arms; ++p)
        d_arms[p]->set_taps(split[p]);
    if (d_start != cuda::rational_start::first_window)
        return; // GNU Radio's window holds the history
    // The kept history: its newest samples stay, zeros before them.
    const std::size_t keep = std::size_t{ d_taps_per_arm - 1 } * d_vlen;
    if (d_history.size() >= keep)
        d_history.erase(d_history.begin(), d_history.end() - keep);
    else
        d_history.insert(d_history.begin(), keep - d_history.size(), In{});
}

namespace {
/*!
 * Zeros before a lane's first sample: gr-filter's fir_filter::filter() reads from its
 * input pointer aligned down to volk's alignment (at most 64 bytes), weighting what
 * lies there by zero taps. Those items must be finite numbers, as they are in GNU
 * Radio's buffers; the heap before a vector can hold anything, a NaN among it.
 */
template <class In>
constexpr std::size_t lane_lead = 64 / sizeof(In);
} // namespace

template <class In, class Out, class Tap>
const In* rational_cpu_kernel<In, Out, Tap>::lane_window(const In* window,
                                                         std::size_t items,
                                                         unsigned lane)
{
    // [kept history | window] (first_window), or the window alone, as one run of one
    // lane's samples.
    const std::size_t kept = d_history.size() / d_vlen;
    if (d_vlen == 1 && kept == 0)
        return window;
    constexpr std::size_t lead = lane_lead<In>;
    d_lane.resize(lead + kept + items); // the lead is never written: zeros
    In* lane_start = d_lane.data() + lead;
    for (std::size_t i = 0; i < kept; ++i)
        lane_start[i] = d_history[i * d_vlen + lane];
    for (std::size_t i = 0; i < items; ++i)
        lane_start[kept + i] = window[i * d_vlen + lane];
    return lane_start;
}

template <class In, class Out, class Tap>
void rational_cpu_kernel<In, Out, Tap>::keep_history(const In* window, std::size_t nnew)
{
    // The newest d_history.size() samples of [kept history | nnew new items].
    const std::size_t kept = d_history.size(), fresh = nnew * d_vlen;
    if (fresh >= kept) {
        std::copy(window + fresh - kept, window + fresh, d_history.begin());
    } else {
        std::copy(d_history.begin() + fresh, d_history.end(), d_history.begin());
        std::copy(window, window + fresh, d_history.end() - fresh);
    }
}

template <class In, class Out, class Tap>
void rational_cpu_kernel<In, Out, Tap>::set_rotation(const cuda::rotation&)
{
    throw std::logic_error("set_rotation: the rational resampler does not rotate");
}

template <class In, class Out, class Tap>
void rational_cpu_kernel<In, Out, Tap>::resample(const In* in,
                                                 std::size_t count,
                                                 Out* out,
                                                 std::size_t stride) const
{
    const std::uint64_t I = d_position.interpolation, D = d_position.decimation;
    for (std::size_t k = 0; k < count; ++k) {
        const std::uint64_t t = d_position.next + k * D;
        out[k * stride] = d_arms[t % I]->filter(in + t / I);
    }
}

template <class In, class Out, class Tap>
std::size_t rational_cpu_kernel<In, Out, Tap>::process(const void* const* windows,
                                                       std::size_t nnew,
                                                       void* const* out)
{
    const auto window = static_cast<const In*>(windows[0]);
    const auto y = static_cast<Out*>(out[0]);
    const std::size_t count = d_position.output_count(nnew);
    // GNU Radio's window holds T-1 items before the new ones (zero_history) or none.
    const bool own = d_start == cuda::rational_start::first_window;
    const std::size_t items = (own ? 0 : d_taps_per_arm - 1) + nnew;
    for (unsigned l = 0; l < d_vlen; ++l)
        resample(lane_window(window, items, l), count, y + l, d_vlen);
    if (own)
        keep_history(window, nnew);
    d_position.advance(nnew);
    return count;
}

template class rational_cpu_kernel<gr_complex, gr_complex, gr_complex>;
template class rational_cpu_kernel<gr_complex, gr_complex, float>;
template class rational_cpu_kernel<float, gr_complex, gr_complex>;
template class rational_cpu_kernel<float, float, float>;
template class rational_cpu_kernel<float, std::int16_t, float>;
template class rational_cpu_kernel<std::int16_t, gr_complex, gr_complex>;

} // namespace gpufilter
} // namespace gr
