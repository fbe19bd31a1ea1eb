/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_TESTS_GPU_TEST_ENV_H
#define INCLUDED_GPUFILTER_TESTS_GPU_TEST_ENV_H

#include "fir/fir_tuning.h"
#include "pfb/pfb_tuning.h"
#include <gtest/gtest.h>

namespace gr {
namespace gpufilter {
namespace test {

//! True when a CUDA device is usable. Without one, a GPU test skips with CUDA's
//! reason, or fails when GPUFILTER_REQUIRE_GPU=1 (the GPU host sets it).
bool gpu_or_skip_reason(std::string* reason);

//! The direct-form kernel the FIR engine tests force: GPUFILTER_FIR_KERNEL=tiled|
//! untiled|blocked|deinterleaved, read once (ctest runs the engine tests once per
//! kernel this way, lib/cuda/tests/CMakeLists.txt); automatic where it is not set.
//! Throws std::invalid_argument for another value.
cuda::fir_kernel test_fir_kernel();

//! The tuning the tests give the FIR engines they make: the current device's, with
//! test_fir_kernel() forced.
template <class In, class Tap>
cuda::fir_tuning test_fir_tuning()
{
    cuda::fir_tuning t = cuda::fir_tuning_for_device<In, Tap>();
    t.kernel = test_fir_kernel();
    return t;
}

//! The tuning the tests give the polyphase engines they make: the current device's,
//! with GPUFILTER_PFB_PATH=two_pass|fused and GPUFILTER_SYNTH_PATH=rows|one_pass
//! forced where they are set (read once; other values are ignored), so that the
//! whole suite runs on one path.
cuda::pfb_tuning test_pfb_tuning();

} // namespace test
} // namespace gpufilter
} // namespace gr

#define GPUFILTER_REQUIRE_DEVICE_OR_SKIP()                                            \
    do {                                                                              \
        std::string gpufilter_reason;                                                 \
        if (!::gr::gpufilter::test::gpu_or_skip_reason(&gpufilter_reason)) {          \
            if (const char* r = std::getenv("GPUFILTER_REQUIRE_GPU"); r && *r == '1') \
                FAIL() << "GPUFILTER_REQUIRE_GPU=1 but no GPU: " << gpufilter_reason; \
            GTEST_SKIP() << "no CUDA device: " << gpufilter_reason;                   \
        }                                                                             \
    } while (0)

#endif
