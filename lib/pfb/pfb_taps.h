/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_PFB_TAPS_H
#define INCLUDED_GPUFILTER_PFB_TAPS_H

// gr-filter's arithmetic of polyphase taps and rates, shared by the polyphase blocks
// and their CPU kernels.

#include <vector>

namespace gr {
namespace gpufilter {

//! Taps per arm, ceil(ntaps / nfilts).
template <class Tap>
unsigned taps_per_filter(unsigned nfilts, const std::vector<Tap>& taps)
{
    return static_cast<unsigned>((taps.size() + nfilts - 1) / nfilts);
}

//! gr-filter's split of prototype taps over nfilts branch filters (its taps()): arm i
//! holds taps i, i + nfilts, ..., zero-padded.
template <class Tap>
std::vector<std::vector<Tap>> polyphase_split(unsigned nfilts,
                                              const std::vector<Tap>& taps)
{
    const unsigned t = taps_per_filter(nfilts, taps);
    std::vector<std::vector<Tap>> out(nfilts, std::vector<Tap>(t, Tap{}));
    for (unsigned i = 0; i < nfilts; ++i)
        for (unsigned k = 0; k < t; ++k)
            if (i + k * nfilts < taps.size())
                out[i][k] = taps[i + k * nfilts];
    return out;
}

//! The channelizer's R = numchans / oversample_rate input samples a step, numchans
//! and oversample_rate checked (std::invalid_argument naming the one that is wrong).
unsigned channelizer_rate(unsigned numchans, float oversample_rate);
//! The channel map 0, 1, ..., n-1 (every channel in order, gr-filter's default).
std::vector<int> identity_map(unsigned n);
//! Least number of steps m with m*R a multiple of numchans: a work() call of whole
//! multiples of it starts on a stream_to_streams row, as gr-filter's output_multiple.
int channelizer_output_multiple(unsigned numchans, int rate_ratio);
//! gr-filter's output_multiple of a decimator with FFT branch filters (its FFT size
//! minus the branch taps plus one).
int fft_filter_output_multiple(unsigned decim, const std::vector<float>& taps);

//! gr-filter's pfb_synthesizer_ccf taps(): numchans lists (set_taps1), or with twox
//! 2*numchans lists, filter i the odd taps of branch i and numchans+i the even ones
//! (set_taps2), each ceil(ntaps/numchans) long.
std::vector<std::vector<float>>
synthesizer_split(unsigned numchans, const std::vector<float>& taps, bool twox);

} // namespace gpufilter
} // namespace gr

#endif
