/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_PARAMETER_CHECKS_H
#define INCLUDED_GPUFILTER_PARAMETER_CHECKS_H

// Every check of the blocks' make() arguments and setters, written once. Each throws
// std::invalid_argument naming the parameter and its value (Python: ValueError), or
// std::out_of_range for a channel that does not exist (IndexError), and returns its
// argument so it can be used in a constructor's initializer list. The NLMS rules live
// with the engine that applies them too (cuda/nlms/nlms_params.h).

#include <type_traits>
#include <complex>
#include <cstddef>
#include <string>
#include <vector>

namespace gr {
namespace gpufilter {

//! Most channels, arms, or a decimation or interpolation: GNU Radio counts ports, item
//! sizes and output multiples in ints, and taps per arm times this in memory.
constexpr unsigned max_count = 1u << 24;

//! A count (channels, arms, a decimation, a filter size): in [1, max_count].
unsigned checked_count(const char* name, unsigned value);
int checked_decimation(int decimation);
int checked_batch_size(int batch_size);
//! max_latency: seconds, >= 0 (0: no wait, as gr-filter; infinity: whole batches).
double checked_max_latency(double max_latency);
//! gr-filter's fft_filter threads: >= 1.
int checked_nthreads(int nthreads);
//! A finite number > 0 (`name`: the parameter, e.g. "channel_rate").
double checked_positive(const char* name, double value);
double checked_sampling_freq(double sampling_freq);
double checked_center_freq(double center_freq);
//! A demodulator's gain: finite.
float checked_gain(float gain);
//! complex_to_real's vector length: in [1, 2^20] (an item GNU Radio's buffers hold).
int checked_vlen(int vlen);
//! The de-emphasis time constant in seconds: finite, >= 0 (0: none).
double checked_tau(double tau);

/*!
 * Not empty, and every tap a finite number. gr-filter takes a NaN or infinite tap and
 * then makes every output after it NaN; a block here refuses it where it is given
 * (make() or set_taps()), naming the tap. `name` is the parameter ("taps").
 */
const std::vector<float>& checked_taps(const std::vector<float>& taps,
                                       const char* name = "taps");
const std::vector<std::complex<float>>&
checked_taps(const std::vector<std::complex<float>>& taps, const char* name = "taps");

//! hilbert_fc's ntaps, in [2, max_count]: returns the odd count gr-filter designs
//! (ntaps | 1, so that the delay ntaps/2 is whole).
unsigned checked_hilbert_ntaps(unsigned ntaps);

//! A polyphase block's channel count: in [1, max_count], and even for twox.
unsigned checked_numchans(unsigned numchans, bool twox = false);
//! R = numchans / oversample_rate, checked as gr-filter checks it: an integer in
//! [1, numchans] (std::invalid_argument naming oversample_rate).
int checked_rate_ratio(unsigned numchans, float oversample_rate);
//! pfb_decimator_ccf's output channel: in [0, decim).
unsigned checked_channel(unsigned channel, unsigned decim);
//! pfb_arb_resampler's rate: in [2^-24, 2^24] (see the .cc for why).
float checked_rate(float rate);
//! pfb_arb_resampler's phase: in [0, 2 pi).
float checked_phase(float ph);

/*!
 * A polyphase block's channel map: every entry in [0, bins) (`bound` says what bins
 * is, e.g. "numchans = 8"), and at least one entry per connected port (`ports`, 0
 * before the flowgraph is connected; `port_kind`, e.g. "outputs").
 */
const std::vector<int>& checked_channel_map(const std::vector<int>& map,
                                            int bins,
                                            const std::string& bound,
                                            std::size_t ports,
                                            const char* port_kind);
//! fm_demod_bank_vcf's channels: nchan checked first (the constructor's arguments are
//! checked in any order), then at least one channel, each < nchan (std::out_of_range).
const std::vector<unsigned>& checked_channels(const std::vector<unsigned>& channels,
                                              unsigned nchan);

//! gr-filter's type suffix of a block: input, output, taps ("ccf", "scc", ...).
template <class IN_T, class OUT_T, class TAP_T>
std::string type_suffix()
{
    auto letter = [](auto type) {
        using T = typename decltype(type)::type;
        return std::is_same_v<T, float> ? 'f' : std::is_same_v<T, short> ? 's' : 'c';
    };
    return { letter(std::common_type<IN_T>{}),
             letter(std::common_type<OUT_T>{}),
             letter(std::common_type<TAP_T>{}) };
}

} // namespace gpufilter
} // namespace gr

#endif
