/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "device_diagnosis.h"

namespace gr {
namespace gpufilter {
namespace cuda {

std::string cuda_version_text(int version)
{
    return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

std::string why_no_device(const device_probe& probe)
{
    if (probe.error == 0 && probe.device_count > 0)
        return "";
    if (!probe.driver_loadable)
        return "no NVIDIA driver: libcuda.so.1 cannot be loaded (no NVIDIA GPU driver "
               "is installed, or it is not on the library path)";
    if (probe.error == cuda_error_insufficient_driver) {
        if (probe.driver_version > 0 && probe.driver_version < probe.runtime_version)
            return "the NVIDIA driver is too old: it supports CUDA " +
                   cuda_version_text(probe.driver_version) + ", this build needs CUDA " +
                   cuda_version_text(probe.runtime_version) + " (update the driver)";
        return "the NVIDIA driver cannot run this build's CUDA " +
               cuda_version_text(probe.runtime_version) +
               (probe.driver_version > 0
                    ? " (the driver supports CUDA " +
                          cuda_version_text(probe.driver_version) + ")"
                    : " (the driver reports no CUDA version)");
    }
    if (probe.error == cuda_error_no_device || probe.error == 0)
        return "no NVIDIA GPU: the driver" +
               (probe.driver_version > 0
                    ? " (CUDA " + cuda_version_text(probe.driver_version) + ")"
                    : std::string()) +
               " finds no CUDA device";
    return probe.error_name + ": " + probe.error_text;
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
