/* SPDX-License-Identifier: GPL-3.0-or-later */
// The synthesis side's CPU kernels: interpolator and synthesizer.
#include "pfb/cpu/pfb_cpu_kernels.h"
#include "pfb/pfb_taps.h"
#include <algorithm>

namespace gr {
namespace gpufilter {

// ---- CPU interpolator: gr-filter's work() ----

pfb_interpolator_cpu_kernel::pfb_interpolator_cpu_kernel(unsigned interp,
                                                         const std::vector<float>& taps)
    : polyphase_filterbank(interp, taps)
{
}

std::size_t pfb_interpolator_cpu_kernel::process(const void* const* windows,
                                                 std::size_t nnew,
                                                 void* const* out)
{
    // The window holds T - 1 old inputs, as gr-filter's (history T).
    const auto* in = static_cast<const gr_complex*>(windows[0]);
    auto* y = static_cast<gr_complex*>(out[0]);
    for (std::size_t i = 0; i < nnew; ++i)
        for (unsigned j = 0; j < d_nfilts; ++j)
            *y++ = d_fir_filters[j].filter(&in[i]);
    return nnew * d_nfilts;
}

// ---- CPU synthesizer: gr-filter's work() ----

pfb_synthesizer_cpu_kernel::pfb_synthesizer_cpu_kernel(unsigned numchans,
                                                       const std::vector<float>& taps,
                                                       bool twox,
                                                       const std::vector<int>& port_map)
    : d_numchans(numchans),
      d_twox(twox ? 2 : 1),
      d_map(port_map),
      d_fft(static_cast<int>((twox ? 2 : 1) * numchans))
{
    set_taps(taps);
    std::fill_n(d_fft.get_inbuf(), d_twox * d_numchans, gr_complex(0));
}

void pfb_synthesizer_cpu_kernel::set_taps(const std::vector<float>& taps)
{
    const auto split = synthesizer_split(d_numchans, taps, d_twox == 2);
    d_filters.clear();
    for (const auto& t : split)
        d_filters.emplace_back(t); // new filters: zero state, as set_taps gives
}

void pfb_synthesizer_cpu_kernel::set_channel_map(const std::vector<int>& port_map)
{
    d_map = port_map;
    std::fill_n(d_fft.get_inbuf(), d_twox * d_numchans, gr_complex(0));
}

std::size_t pfb_synthesizer_cpu_kernel::process(const void* const* windows,
                                                std::size_t nnew,
                                                void* const* out)
{
    auto* y = static_cast<gr_complex*>(out[0]);
    gr_complex* bins = d_fft.get_inbuf();
    const gr_complex* yt = d_fft.get_outbuf();
    const unsigned M = d_numchans;
    for (std::size_t n = 0; n < nnew; ++n) {
        for (std::size_t p = 0; p < d_map.size(); ++p)
            bins[d_map[p]] = static_cast<const gr_complex*>(windows[p])[n];
        d_fft.execute();
        if (d_twox == 1) {
            for (unsigned i = 0; i < M; ++i)
                y[i] = d_filters[i].filter(yt[i]);
        } else {
            for (unsigned i = 0; i < M; ++i) {
                y[i] = d_filters[i].filter(yt[d_state * M + i]);
                y[i] += d_filters[M + i].filter(yt[(d_state ^ 1) * M + i]);
            }
            d_state ^= 1;
        }
        y += M;
    }
    return nnew * M;
}

} // namespace gpufilter
} // namespace gr
