/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "common/device.h"
#include "fir/fir_tuning.h"
#include "gpu_test_env.h"
#include "pfb/pfb_tuning.h"
#include <cstdlib>
#include <string>

namespace gr {
namespace gpufilter {
namespace test {

bool gpu_or_skip_reason(std::string* reason) { return cuda::device_count(reason) > 0; }

namespace {
// GPUFILTER_FIR_KERNEL=tiled|untiled|blocked|deinterleaved forces one direct-form
// kernel for every engine a test binary makes: ctest runs the engine tests once per
// kernel this way (lib/cuda/tests/CMakeLists.txt). Test builds only.
const bool kernel_forced = [] {
    if (const char* v = std::getenv("GPUFILTER_FIR_KERNEL"))
        cuda::default_fir_tuning().kernel = cuda::parse_fir_kernel(v);
    return true;
}();
// GPUFILTER_PFB_PATH=two_pass|fused forces the polyphase filterbank's path likewise.
const bool pfb_path_forced = [] {
    if (const char* v = std::getenv("GPUFILTER_PFB_PATH")) {
        const std::string p = v;
        if (p == "two_pass")
            cuda::default_pfb_tuning().path = cuda::pfb_path::two_pass;
        else if (p == "fused")
            cuda::default_pfb_tuning().path = cuda::pfb_path::fused;
    }
    return true;
}();
// GPUFILTER_SYNTH_PATH=rows|one_pass forces the synthesizer's kernels likewise.
const bool synth_path_forced = [] {
    if (const char* v = std::getenv("GPUFILTER_SYNTH_PATH")) {
        const std::string p = v;
        if (p == "rows")
            cuda::default_pfb_tuning().synth = cuda::synth_path::rows;
        else if (p == "one_pass")
            cuda::default_pfb_tuning().synth = cuda::synth_path::one_pass;
    }
    return true;
}();
} // namespace

} // namespace test
} // namespace gpufilter
} // namespace gr
