/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "bench.h"
#include "common/cuda_check.h"
#include "common/device.h"

namespace bench {

device_info query_device()
{
    namespace cuda = gr::gpufilter::cuda;
    device_info d;
    d.count = cuda::device_count(&d.why_none);
    if (d.count == 0)
        return d;
    d.name = cuda::device_name(0);
    // CUDA 13 dropped the clock fields of cudaDeviceProp; the attributes remain.
    const auto attr = [](cudaDeviceAttr a) {
        int v = 0;
        GPUFILTER_CHECK(cudaDeviceGetAttribute(&v, a, 0));
        return static_cast<double>(v);
    };
    const double mem_clock_hz = attr(cudaDevAttrMemoryClockRate) * 1e3;
    const double bus_bits = attr(cudaDevAttrGlobalMemoryBusWidth);
    const double clock_hz = attr(cudaDevAttrClockRate) * 1e3;
    const double sms = attr(cudaDevAttrMultiProcessorCount);
    const int major = static_cast<int>(attr(cudaDevAttrComputeCapabilityMajor));
    const int minor = static_cast<int>(attr(cudaDevAttrComputeCapabilityMinor));
    // Double data rate: two transfers per memory clock.
    d.mem_bw = 2.0 * mem_clock_hz * bus_bits / 8.0;
    // FP32 lanes per SM: 64 on Volta/Turing and on sm_80 (A100), 128 from sm_86 on
    // (Ampere consumer, Ada, Hopper, Blackwell). One FMA = 2 FLOP per lane per clock.
    const double lanes = (major < 8 || (major == 8 && minor == 0)) ? 64 : 128;
    d.peak_fp32 = sms * lanes * 2.0 * clock_hz;
    return d;
}

} // namespace bench
