/* SPDX-License-Identifier: GPL-3.0-or-later */
// The synthesis side of the polyphase backends (pfb_backend.h): interpolator and
// synthesizer, GPU stream or gr-filter's own kernels.
#include "cuda/pfb/pfb_stream.h"
#include "pfb/pfb_backend.h"
#include <algorithm>

namespace gr {
namespace gpufilter {

namespace {

cuda::pfb_interpolator_stream& gpu_interpolator(block_core& core)
{
    return static_cast<cuda::pfb_interpolator_stream&>(*core.gpu());
}

cuda::pfb_synthesizer_stream& gpu_synthesizer(block_core& core)
{
    return static_cast<cuda::pfb_synthesizer_stream&>(*core.gpu());
}

} // namespace

std::vector<std::vector<float>>
synthesizer_split(unsigned numchans, const std::vector<float>& taps, bool twox)
{
    const unsigned t = taps_per_filter(numchans, taps);
    const auto tap = [&](unsigned i, unsigned j) {
        const std::size_t k = i + static_cast<std::size_t>(j) * numchans;
        return k < taps.size() ? taps[k] : 0.0f;
    };
    std::vector<std::vector<float>> out((twox ? 2 : 1) * numchans,
                                        std::vector<float>(t, 0.0f));
    for (unsigned i = 0; i < numchans; ++i)
        for (unsigned j = 0; j < t; ++j) {
            if (!twox)
                out[i][j] = tap(i, j);
            else if (j % 2)
                out[i][j] = tap(i, j);
            else
                out[numchans + i][j] = tap(i, j);
        }
    return out;
}

// ---- CPU interpolator: gr-filter's work() ----

cpu_pfb_interpolator::cpu_pfb_interpolator(unsigned interp,
                                           const std::vector<float>& taps)
    : polyphase_filterbank(interp, taps)
{
}

std::size_t cpu_pfb_interpolator::process(const void* const* windows,
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

cpu_pfb_synthesizer::cpu_pfb_synthesizer(unsigned numchans,
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

void cpu_pfb_synthesizer::set_taps(const std::vector<float>& taps)
{
    const auto split = synthesizer_split(d_numchans, taps, d_twox == 2);
    d_filters.clear();
    for (const auto& t : split)
        d_filters.emplace_back(t); // new filters: zero state, as set_taps gives
}

void cpu_pfb_synthesizer::set_channel_map(const std::vector<int>& port_map)
{
    d_map = port_map;
    std::fill_n(d_fft.get_inbuf(), d_twox * d_numchans, gr_complex(0));
}

std::size_t cpu_pfb_synthesizer::process(const void* const* windows,
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

// ---- backends ----

block_core::backends pfb_interpolator_backend::make(unsigned interp,
                                                    const std::vector<float>& taps)
{
    return { [=](int device, std::size_t max_chunk) {
                return std::make_unique<cuda::pfb_interpolator_stream>(
                    device, interp, taps, max_chunk);
            },
             [=] { return std::make_unique<cpu_pfb_interpolator>(interp, taps); } };
}

void pfb_interpolator_backend::set_taps(block_core& core, const std::vector<float>& taps)
{
    if (core.gpu())
        gpu_interpolator(core).set_taps(taps);
    else
        static_cast<cpu_pfb_interpolator&>(*core.cpu()).set_taps(taps);
}

block_core::backends pfb_synthesizer_backend::make(unsigned numchans,
                                                   const std::vector<float>& taps,
                                                   bool twox,
                                                   const std::vector<int>& port_map)
{
    return { [=](int device, std::size_t max_chunk) {
                return std::make_unique<cuda::pfb_synthesizer_stream>(
                    device, numchans, taps, twox, port_map, max_chunk);
            },
             [=] {
                 return std::make_unique<cpu_pfb_synthesizer>(
                     numchans, taps, twox, port_map);
             } };
}

void pfb_synthesizer_backend::set_taps(block_core& core, const std::vector<float>& taps)
{
    if (core.gpu())
        gpu_synthesizer(core).set_taps(taps);
    else
        static_cast<cpu_pfb_synthesizer&>(*core.cpu()).set_taps(taps);
}

void pfb_synthesizer_backend::set_channel_map(block_core& core,
                                              const std::vector<int>& port_map)
{
    if (core.gpu())
        gpu_synthesizer(core).set_channel_map(port_map);
    else
        static_cast<cpu_pfb_synthesizer&>(*core.cpu()).set_channel_map(port_map);
}

} // namespace gpufilter
} // namespace gr
