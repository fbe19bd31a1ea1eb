/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_PARAMETER_CHECKS_H
#define INCLUDED_GPUFILTER_PARAMETER_CHECKS_H

// Checks of make() arguments shared by the blocks. Each throws std::invalid_argument
// naming the parameter and its value (Python: ValueError), and returns its argument
// so it can be used in a constructor's initializer list.

#include <type_traits>
#include <cmath>
#include <complex>
#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace gpufilter {

//! One tap as text for a message: "nan", "inf", or "(re, im)" for a complex tap.
inline std::string tap_text(float t) { return std::to_string(t); }
template <class T>
std::string tap_text(const std::complex<T>& t)
{
    return "(" + std::to_string(t.real()) + ", " + std::to_string(t.imag()) + ")";
}

inline bool tap_finite(float t) { return std::isfinite(t); }
template <class T>
bool tap_finite(const std::complex<T>& t)
{
    return std::isfinite(t.real()) && std::isfinite(t.imag());
}

/*!
 * Not empty, and every tap a finite number. gr-filter takes a NaN or infinite tap and
 * then makes every output after it NaN; a block here refuses it where it is given
 * (make() or set_taps()), naming the tap. `name` is the parameter ("taps").
 */
template <class TAP_T>
const std::vector<TAP_T>& checked_taps(const std::vector<TAP_T>& taps,
                                       const char* name = "taps")
{
    if (taps.empty())
        throw std::invalid_argument(std::string(name) + ": must not be empty");
    for (std::size_t k = 0; k < taps.size(); ++k)
        if (!tap_finite(taps[k]))
            throw std::invalid_argument(std::string(name) + ": tap " + std::to_string(k) +
                                        " is " + tap_text(taps[k]) + ", must be finite");
    return taps;
}

inline double checked_center_freq(double center_freq)
{
    if (!std::isfinite(center_freq))
        throw std::invalid_argument("center_freq: must be finite, got " +
                                    std::to_string(center_freq));
    return center_freq;
}

/*!
 * A polyphase block's channel map: every entry in [0, bins) (`bound` says what bins
 * is, e.g. "numchans = 8"), and at least one entry per connected port (`ports`, 0
 * before the flowgraph is connected; `port_kind`, e.g. "outputs").
 */
inline const std::vector<int>& checked_channel_map(const std::vector<int>& map,
                                                   int bins,
                                                   const std::string& bound,
                                                   std::size_t ports,
                                                   const char* port_kind)
{
    for (std::size_t k = 0; k < map.size(); ++k)
        if (map[k] < 0 || map[k] >= bins)
            throw std::invalid_argument("channel_map: entry " + std::to_string(k) +
                                        " is " + std::to_string(map[k]) +
                                        ", must be in [0, " + bound + ")");
    if (map.size() < ports)
        throw std::invalid_argument("channel_map: " + std::to_string(map.size()) +
                                    " entries for " + std::to_string(ports) +
                                    " connected " + port_kind);
    return map;
}

//! Most channels, arms, or a decimation or interpolation: GNU Radio counts ports, item
//! sizes and output multiples in ints, and taps per arm times this in memory.
constexpr unsigned max_count = 1u << 24;

//! A count (channels, arms, a decimation): in [1, max_count].
inline unsigned checked_count(const char* name, unsigned value)
{
    if (value < 1 || value > max_count)
        throw std::invalid_argument(std::string(name) + ": must be in [1, " +
                                    std::to_string(max_count) + "], got " +
                                    std::to_string(value));
    return value;
}

inline int checked_decimation(int decimation)
{
    if (decimation < 1)
        throw std::invalid_argument("decimation: must be >= 1, got " +
                                    std::to_string(decimation));
    return decimation;
}

inline int checked_batch_size(int batch_size)
{
    if (batch_size < 1)
        throw std::invalid_argument("batch_size: must be >= 1, got " +
                                    std::to_string(batch_size));
    return batch_size;
}

//! max_latency: seconds, >= 0 (0: no wait, as gr-filter; infinity: whole batches).
inline double checked_max_latency(double max_latency)
{
    if (std::isnan(max_latency) || max_latency < 0)
        throw std::invalid_argument(
            "max_latency: must be >= 0 seconds (0: compute whatever has arrived; inf: "
            "always whole batches), got " +
            std::to_string(max_latency));
    return max_latency;
}

inline double checked_sampling_freq(double sampling_freq)
{
    if (!(sampling_freq > 0.0) || !std::isfinite(sampling_freq))
        throw std::invalid_argument("sampling_freq: must be a finite number > 0, got " +
                                    std::to_string(sampling_freq));
    return sampling_freq;
}

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

//! A gain that is finite (std::invalid_argument naming gain otherwise).
inline float checked_gain(float gain)
{
    if (!std::isfinite(gain))
        throw std::invalid_argument("gain: must be a finite number, got " +
                                    std::to_string(gain));
    return gain;
}

inline int checked_vlen(int vlen)
{
    // An item of more than 2^20 complex samples (8 MiB) would not fit GNU Radio's
    // buffers (or its int item size) anyway: say so, naming the parameter.
    constexpr int max_vlen = 1 << 20;
    if (vlen < 1 || vlen > max_vlen)
        throw std::invalid_argument("vlen: must be in [1, " + std::to_string(max_vlen) +
                                    "], got " + std::to_string(vlen));
    return vlen;
}

} // namespace gpufilter
} // namespace gr

#endif
