/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_DEVICE_DIAGNOSIS_H
#define INCLUDED_GPUFILTER_CUDA_DEVICE_DIAGNOSIS_H

// Why there is no usable CUDA device, in words a user can act on. cudaGetDeviceCount
// answers cudaErrorInsufficientDriver both when the driver is older than the runtime
// and when there is no driver at all (libcuda absent), so the answer alone would send
// users without a GPU to update a driver they do not have. No CUDA headers here: the
// rules are a pure function, tested without a GPU or a driver.

#include <string>

namespace gr {
namespace gpufilter {
namespace cuda {

//! What the CUDA runtime and the dynamic loader said (device.cc fills it in).
struct device_probe {
    bool driver_loadable = false; //!< dlopen("libcuda.so.1") succeeded
    int error = 0;                //!< cudaGetDeviceCount's cudaError_t (0: success)
    std::string error_name;       //!< cudaGetErrorName(error)
    std::string error_text;       //!< cudaGetErrorString(error)
    int device_count = 0;         //!< cudaGetDeviceCount's count when error is 0
    int driver_version = 0;       //!< cudaDriverGetVersion (1000 major + 10 minor)
    int runtime_version = 0;      //!< cudaRuntimeGetVersion
};

//! cudaError_t values this needs (checked against the CUDA headers in device.cc).
constexpr int cuda_error_insufficient_driver = 35;
constexpr int cuda_error_no_device = 100;

//! "12.4" for CUDA's 12040.
std::string cuda_version_text(int version);

//! Why no device is usable ("" when one is): no driver, a driver older than the
//! runtime (with both versions), a driver that finds no GPU, or CUDA's own error.
std::string why_no_device(const device_probe& probe);

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
