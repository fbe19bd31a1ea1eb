/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/cuda_check.h"
#include "../common/device_math.cuh"
#include "complex_to_real_engine.h"
#include "complex_to_real_kernels.cuh"
#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {
unsigned checked_vlen(unsigned vlen)
{
    if (vlen == 0)
        throw std::invalid_argument("vlen: must be >= 1, got 0");
    return vlen;
}
} // namespace

complex_to_real_engine::complex_to_real_engine(unsigned vlen)
    : d_vlen(checked_vlen(vlen)),
      d_ports{ { vlen * sizeof(complex) }, { vlen * sizeof(float) } }
{
}

std::size_t complex_to_real_engine::process(const void* const* in,
                                            std::size_t n,
                                            void* const* out,
                                            cudaStream_t s)
{
    if (n == 0)
        return 0;
    const long long total = static_cast<long long>(n) * d_vlen;
    const int threads = 256;
    complex_to_real_kernels::
        real_part<<<std::min(blocks_for(total, threads), 8192u), threads, 0, s>>>(
            static_cast<const float2*>(in[0]), static_cast<float*>(out[0]), total);
    GPUFILTER_CHECK_LAUNCH();
    return n;
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
