/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "common/device.h"
#include "gpu_test_env.h"
#include "pfb/pfb_tuning.h"
#include <initializer_list>
#include <cstdlib>
#include <string>
#include <utility>

namespace gr {
namespace gpufilter {
namespace test {

bool gpu_or_skip_reason(std::string* reason) { return cuda::device_count(reason) > 0; }

cuda::fir_kernel test_fir_kernel()
{
    static const cuda::fir_kernel s_kernel = [] {
        const char* v = std::getenv("GPUFILTER_FIR_KERNEL");
        return cuda::parse_fir_kernel(v ? v : "");
    }();
    return s_kernel;
}

namespace {
//! Sets `target` to the value named by environment variable `var`, where it is set
//! to one of `names` (other values leave it as it is).
template <class E>
bool force_from_env(const char* var,
                    std::initializer_list<std::pair<const char*, E>> names,
                    E& target)
{
    if (const char* v = std::getenv(var))
        for (const auto& [name, value] : names)
            if (std::string(v) == name)
                target = value;
    return true;
}
// GPUFILTER_PFB_PATH=two_pass|fused forces the polyphase filterbank's path likewise.
const bool pfb_path_forced = force_from_env(
    "GPUFILTER_PFB_PATH",
    { { "two_pass", cuda::pfb_path::two_pass }, { "fused", cuda::pfb_path::fused } },
    cuda::default_pfb_tuning().path);
// GPUFILTER_SYNTH_PATH=rows|one_pass forces the synthesizer's kernels likewise.
const bool synth_path_forced = force_from_env(
    "GPUFILTER_SYNTH_PATH",
    { { "rows", cuda::synth_path::rows }, { "one_pass", cuda::synth_path::one_pass } },
    cuda::default_pfb_tuning().synth);
} // namespace

} // namespace test
} // namespace gpufilter
} // namespace gr
