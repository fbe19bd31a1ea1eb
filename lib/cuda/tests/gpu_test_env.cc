/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "common/device.h"
#include "gpu_test_env.h"
#include <initializer_list>
#include <cstdlib>
#include <string>
#include <utility>

namespace gr {
namespace gpufilter {
namespace test {

bool gpu_or_skip_reason(std::string* reason) { return cuda::device_count(reason) > 0; }

namespace {
//! The value named by environment variable `var` where it is one of `names`, else
//! `otherwise`.
template <class E>
E from_env(const char* var,
           std::initializer_list<std::pair<const char*, E>> names,
           E otherwise)
{
    if (const char* v = std::getenv(var))
        for (const auto& [name, value] : names)
            if (std::string(v) == name)
                return value;
    return otherwise;
}
} // namespace

cuda::fir_kernel test_fir_kernel()
{
    static const cuda::fir_kernel s_kernel = [] {
        const char* v = std::getenv("GPUFILTER_FIR_KERNEL");
        return cuda::parse_fir_kernel(v ? v : "");
    }();
    return s_kernel;
}

cuda::pfb_tuning test_pfb_tuning()
{
    static const cuda::pfb_path s_path = from_env(
        "GPUFILTER_PFB_PATH",
        { { "two_pass", cuda::pfb_path::two_pass }, { "fused", cuda::pfb_path::fused } },
        cuda::pfb_path::automatic);
    static const cuda::synth_path s_synth =
        from_env("GPUFILTER_SYNTH_PATH",
                 { { "rows", cuda::synth_path::rows },
                   { "one_pass", cuda::synth_path::one_pass } },
                 cuda::synth_path::automatic);
    cuda::pfb_tuning t = cuda::pfb_tuning_for_device();
    t.path = s_path;
    t.synth = s_synth;
    return t;
}

} // namespace test
} // namespace gpufilter
} // namespace gr
