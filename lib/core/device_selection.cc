/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/device_selection.h"
#include "core/gr_version.h"
#include "cuda/common/device.h"
#include <gnuradio/constants.h>
#include <gnuradio/gpufilter/device.h>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {

namespace {
bool gpu_required()
{
    const char* v = std::getenv("GPUFILTER_REQUIRE_GPU");
    return v && std::string(v) == "1";
}
} // namespace

bool runtime_supports_device_buffers(const gr::logger_ptr& logger)
{
    static const std::string s_version = gr::version();
    static const bool s_supported = device_buffers_supported(s_version);
    if (!s_supported) {
        static std::once_flag s_warned;
        std::call_once(s_warned, [&] {
            logger->warn("GNU Radio {} runs custom buffers with known freezes (fixed in "
                         "3.10.2): GPU blocks move their samples through host buffers "
                         "instead of device memory. Results are the same.",
                         s_version);
        });
    }
    return s_supported;
}

int cuda_device_count() { return cuda::device_count(); }

std::string cuda_device_name(int device)
{
    const int count = cuda::device_count();
    if (device < 0 || device >= count)
        throw std::out_of_range("device: no CUDA device " + std::to_string(device) +
                                " (found " + std::to_string(count) + ")");
    return cuda::device_name(device);
}

std::size_t cuda_device_free_memory(int device)
{
    cuda_device_name(device); // the index check, with its message
    return cuda::device_free_memory(device);
}

int select_device(int requested, const gr::logger_ptr& logger)
{
    if (requested < device_cpu)
        throw std::out_of_range(
            "device: " + std::to_string(requested) +
            " is not a device index, device_auto (-1) or device_cpu (-2)");
    if (requested == device_cpu) {
        logger->warn("device_cpu requested: computing on the CPU (gr-filter's kernel), "
                     "not on a GPU");
        return device_cpu;
    }
    std::string why_none;
    const int count = cuda::device_count(&why_none);
    if (requested >= 0) {
        if (requested >= count)
            throw std::out_of_range(
                "device: no CUDA device " + std::to_string(requested) + " (found " +
                std::to_string(count) + (count ? ")" : ": " + why_none + ")"));
        return requested;
    }
    if (count > 0)
        return 0;
    if (gpu_required())
        throw std::runtime_error("GPUFILTER_REQUIRE_GPU=1 but no usable CUDA device: " +
                                 why_none);
    logger->warn("no usable CUDA device ({}); computing on the CPU instead, which is "
                 "much slower. Results are the same.",
                 why_none);
    return device_cpu;
}

} // namespace gpufilter
} // namespace gr
