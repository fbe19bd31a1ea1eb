/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "common/device.h"
#include "gpu_test_env.h"

namespace gr {
namespace gpufilter {
namespace test {

bool gpu_or_skip_reason(std::string* reason) { return cuda::device_count(reason) > 0; }

} // namespace test
} // namespace gpufilter
} // namespace gr
