/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/device_selection.h"
#include "core/gr_version.h"
#include "cuda/common/device.h"
#include "cuda/fir/fir_tuning.h"
#include <gnuradio/constants.h>
#include <gnuradio/gpufilter/device.h>
#include <atomic>
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
std::atomic<host_transfer> s_host_transfer{ host_transfer::dma_in_place };
std::atomic<filter_method> s_default_filter_method{ filter_method::automatic };
// On: chains of GPU blocks keep their samples in device memory (docs/architecture.md,
// "Device buffers"); off is for measurement, and the escape hatch.
std::atomic<bool> s_device_buffers{ true };
} // namespace

filter_method parse_filter_method(const std::string& name)
{
    switch (cuda::parse_fir_method(name)) { // throws, naming `method`
    case cuda::fir_method::direct:
        return filter_method::direct;
    case cuda::fir_method::fft:
        return filter_method::fft;
    default:
        return filter_method::automatic;
    }
}

void set_default_filter_method(filter_method method) { s_default_filter_method = method; }

filter_method get_default_filter_method() { return s_default_filter_method; }

void set_host_transfer(host_transfer mode) { s_host_transfer = mode; }

host_transfer get_host_transfer() { return s_host_transfer; }

void set_device_buffers(bool on) { s_device_buffers = on; }

bool get_device_buffers() { return s_device_buffers; }

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
