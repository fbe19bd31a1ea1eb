/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <gnuradio/gpufilter/filter_method.h>
#include <atomic>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {

namespace {
std::atomic<filter_method> s_default_filter_method{ filter_method::automatic };
} // namespace

filter_method parse_filter_method(const std::string& name)
{
    if (name == "auto" || name == "automatic")
        return filter_method::automatic;
    if (name == "direct")
        return filter_method::direct;
    if (name == "fft")
        return filter_method::fft;
    if (name == "separable")
        return filter_method::separable;
    throw std::invalid_argument("method: must be \"auto\", \"direct\", \"fft\" or "
                                "\"separable\", got \"" +
                                name + "\"");
}

void set_default_filter_method(filter_method method) { s_default_filter_method = method; }

filter_method get_default_filter_method() { return s_default_filter_method; }

} // namespace gpufilter
} // namespace gr
