/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/parameter_checks.h"
#include "pfb/pfb_taps.h"
#include <gnuradio/filter/fft_filter.h>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {

//! The channelizer's rate: one step per R input samples; checks numchans first.
unsigned channelizer_rate(unsigned numchans, float oversample_rate)
{
    return static_cast<unsigned>(
        checked_rate_ratio(checked_numchans(numchans), oversample_rate));
}

std::vector<int> identity_map(unsigned n)
{
    std::vector<int> map(n);
    for (unsigned i = 0; i < n; ++i)
        map[i] = static_cast<int>(i);
    return map;
}

int channelizer_output_multiple(unsigned numchans, int rate_ratio)
{
    int m = 1;
    while ((static_cast<long>(m) * rate_ratio) % numchans != 0)
        ++m;
    return m;
}

int fft_filter_output_multiple(unsigned decim, const std::vector<float>& taps)
{
    const gr::filter::kernel::fft_filter_ccf f(
        1, std::vector<float>(taps_per_filter(decim, taps), 0.0f));
    return static_cast<int>(f.filtersize() - f.ntaps() + 1);
}

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

} // namespace gpufilter
} // namespace gr
