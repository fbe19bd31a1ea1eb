/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "fir_tuning.h"
#include <stdexcept>

namespace gr {
namespace gpufilter {
namespace cuda {

fir_tuning& default_fir_tuning()
{
    static fir_tuning defaults;
    return defaults;
}

fir_method parse_fir_method(const std::string& name)
{
    if (name == "auto" || name == "automatic")
        return fir_method::automatic;
    if (name == "direct")
        return fir_method::direct;
    if (name == "fft")
        return fir_method::fft;
    throw std::invalid_argument(
        "method: must be \"auto\", \"direct\" or \"fft\", got \"" + name + "\"");
}

const char* fir_method_name(fir_method m)
{
    switch (m) {
    case fir_method::direct:
        return "direct";
    case fir_method::fft:
        return "fft";
    default:
        return "auto";
    }
}

fir_kernel parse_fir_kernel(const std::string& name)
{
    if (name.empty() || name == "auto")
        return fir_kernel::automatic;
    if (name == "tiled")
        return fir_kernel::tiled;
    if (name == "untiled")
        return fir_kernel::untiled;
    if (name == "blocked")
        return fir_kernel::blocked;
    if (name == "deinterleaved")
        return fir_kernel::deinterleaved;
    throw std::invalid_argument("kernel: must be \"tiled\", \"untiled\", \"blocked\" or "
                                "\"deinterleaved\", got \"" +
                                name + "\"");
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
