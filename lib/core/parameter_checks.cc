/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/parameter_checks.h"
#include <gnuradio/math.h>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace gr {
namespace gpufilter {

namespace {

//! One tap as text for a message: "nan", "inf", or "(re, im)" for a complex tap.
std::string tap_text(float t) { return std::to_string(t); }
std::string tap_text(const std::complex<float>& t)
{
    return "(" + std::to_string(t.real()) + ", " + std::to_string(t.imag()) + ")";
}

bool tap_finite(float t) { return std::isfinite(t); }
bool tap_finite(const std::complex<float>& t)
{
    return std::isfinite(t.real()) && std::isfinite(t.imag());
}

template <class TAP_T>
const std::vector<TAP_T>& checked_tap_vector(const std::vector<TAP_T>& taps,
                                             const char* name)
{
    if (taps.empty())
        throw std::invalid_argument(std::string(name) + ": must not be empty");
    for (std::size_t k = 0; k < taps.size(); ++k)
        if (!tap_finite(taps[k]))
            throw std::invalid_argument(std::string(name) + ": tap " + std::to_string(k) +
                                        " is " + tap_text(taps[k]) + ", must be finite");
    return taps;
}

} // namespace

unsigned checked_count(const char* name, unsigned value)
{
    if (value < 1 || value > max_count)
        throw std::invalid_argument(std::string(name) + ": must be in [1, " +
                                    std::to_string(max_count) + "], got " +
                                    std::to_string(value));
    return value;
}

int checked_decimation(int decimation)
{
    if (decimation < 1)
        throw std::invalid_argument("decimation: must be >= 1, got " +
                                    std::to_string(decimation));
    return decimation;
}

int checked_batch_size(int batch_size)
{
    if (batch_size < 1)
        throw std::invalid_argument("batch_size: must be >= 1, got " +
                                    std::to_string(batch_size));
    return batch_size;
}

double checked_max_latency(double max_latency)
{
    if (std::isnan(max_latency) || max_latency < 0)
        throw std::invalid_argument(
            "max_latency: must be >= 0 seconds (0: compute whatever has arrived; inf: "
            "always whole batches), got " +
            std::to_string(max_latency));
    return max_latency;
}

int checked_nthreads(int nthreads)
{
    if (nthreads < 1)
        throw std::invalid_argument("nthreads: must be >= 1, got " +
                                    std::to_string(nthreads));
    return nthreads;
}

double checked_positive(const char* name, double value)
{
    if (!(value > 0.0) || !std::isfinite(value))
        throw std::invalid_argument(std::string(name) +
                                    ": must be a finite number > 0, got " +
                                    std::to_string(value));
    return value;
}

double checked_sampling_freq(double sampling_freq)
{
    return checked_positive("sampling_freq", sampling_freq);
}

double checked_center_freq(double center_freq)
{
    if (!std::isfinite(center_freq))
        throw std::invalid_argument("center_freq: must be finite, got " +
                                    std::to_string(center_freq));
    return center_freq;
}

float checked_gain(float gain)
{
    if (!std::isfinite(gain))
        throw std::invalid_argument("gain: must be a finite number, got " +
                                    std::to_string(gain));
    return gain;
}

int checked_vlen(int vlen)
{
    // An item of more than 2^20 complex samples (8 MiB) would not fit GNU Radio's
    // buffers (or its int item size) anyway: say so, naming the parameter.
    constexpr int max_vlen = 1 << 20;
    if (vlen < 1 || vlen > max_vlen)
        throw std::invalid_argument("vlen: must be in [1, " + std::to_string(max_vlen) +
                                    "], got " + std::to_string(vlen));
    return vlen;
}

double checked_tau(double tau)
{
    if (!(tau >= 0.0) || !std::isfinite(tau))
        throw std::invalid_argument("tau: must be a finite number >= 0, got " +
                                    std::to_string(tau));
    return tau;
}

const std::vector<float>& checked_taps(const std::vector<float>& taps, const char* name)
{
    return checked_tap_vector(taps, name);
}

const std::vector<std::complex<float>>&
checked_taps(const std::vector<std::complex<float>>& taps, const char* name)
{
    return checked_tap_vector(taps, name);
}

unsigned checked_hilbert_ntaps(unsigned ntaps)
{
    if (ntaps == 0)
        throw std::invalid_argument("ntaps: must be >= 1, got 0");
    if (ntaps > max_count) // a tap vector that no memory holds, not a filter
        throw std::invalid_argument("ntaps: must be <= " + std::to_string(max_count) +
                                    ", got " + std::to_string(ntaps));
    if (ntaps == 1) // firdes.hilbert(1) is [nan]
        throw std::invalid_argument("ntaps: must be >= 2 (gr-filter's one-tap Hilbert "
                                    "filter is NaN), got 1");
    return ntaps | 1;
}

unsigned checked_numchans(unsigned numchans, bool twox)
{
    checked_count("numchans", numchans);
    if (twox && numchans % 2 != 0)
        throw std::invalid_argument("numchans: must be even for twox, got " +
                                    std::to_string(numchans));
    return numchans;
}

int checked_rate_ratio(unsigned numchans, float oversample_rate)
{
    // gr-filter's test, and its d_rate_ratio; a relative 1e-5 too, as the engine
    // accepts (a float N/R for large N is further than 1e-5 from N/R).
    if (!(oversample_rate > 0.0f) || !std::isfinite(oversample_rate))
        throw std::invalid_argument("oversample_rate: must be > 0, got " +
                                    std::to_string(oversample_rate));
    const double srate = numchans / static_cast<double>(oversample_rate);
    const double off = std::fabs(srate - std::round(srate));
    const int r =
        static_cast<int>(std::rint(static_cast<float>(numchans) / oversample_rate));
    if ((off > 0.00001 && off > 0.00001 * std::round(srate)) || r < 1 ||
        r > static_cast<int>(numchans))
        throw std::invalid_argument(
            "oversample_rate: numchans/oversample_rate must be an integer in [1, "
            "numchans = " +
            std::to_string(numchans) + "], got oversample_rate " +
            std::to_string(oversample_rate));
    return r;
}

unsigned checked_channel(unsigned channel, unsigned decim)
{
    if (channel >= decim)
        throw std::invalid_argument(
            "channel: must be in [0, decim = " + std::to_string(decim) + "), got " +
            std::to_string(channel));
    return channel;
}

float checked_rate(float rate)
{
    // Rates outside [2^-24, 2^24] are refused. GNU Radio sizes the buffer before a
    // block to hold twice the inputs of one output (1 / rate), and the one after it
    // to hold twice the outputs of one input (gr-filter's output multiple, rate):
    // beyond 2^24 either is hundreds of MiB per block, and gr-filter's kernel counts
    // 1 / rate steps in a float accumulator whose output times would no longer be
    // exact.
    constexpr float min_rate = 1.0f / (1 << 24);
    constexpr float max_rate = 1 << 24;
    if (!(rate >= min_rate && rate <= max_rate)) {
        char got[32];
        std::snprintf(got, sizeof got, "%g", rate);
        throw std::invalid_argument(
            "rate: must be in [2^-24, 2^24] (5.96e-08 to 1.68e+07), got " +
            std::string(got));
    }
    return rate;
}

float checked_phase(float ph)
{
    if ((ph < 0) || (ph >= 2.0 * GR_M_PI))
        throw std::invalid_argument("ph: must be in [0, 2 pi), got " +
                                    std::to_string(ph));
    return ph;
}

const std::vector<int>& checked_channel_map(const std::vector<int>& map,
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

const std::vector<unsigned>& checked_channels(const std::vector<unsigned>& channels,
                                              unsigned nchan)
{
    checked_count("nchan", nchan);
    if (channels.empty())
        throw std::invalid_argument("channels: must name at least one channel");
    for (unsigned c : channels)
        if (c >= nchan)
            throw std::out_of_range("channels: " + std::to_string(c) +
                                    " is out of range for nchan " +
                                    std::to_string(nchan));
    return channels;
}

} // namespace gpufilter
} // namespace gr
