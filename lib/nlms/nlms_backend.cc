/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cuda/nlms/nlms_shape.h"
#include "cuda/nlms/nlms_stream.h"
#include "nlms/nlms_backend.h"
#include <gnuradio/gpufilter/nlms.h>

namespace gr {
namespace gpufilter {

static_assert(nlms_max_taps == cuda::nlms_max_taps,
              "the public NLMS tap limit is the GPU kernel's");

namespace {
cuda::nlms_stream& gpu_of(block_core& core)
{
    return static_cast<cuda::nlms_stream&>(*core.gpu()); // made by make()
}
nlms_cpu& cpu_of(block_core& core)
{
    return static_cast<cpu_nlms_kernel&>(*core.cpu()).nlms();
}
} // namespace

block_core::backends nlms_backend::make(int ntaps, int nfilters, float mu, float eps)
{
    return { [=](int device, std::size_t max_chunk) {
                return std::make_unique<cuda::nlms_stream>(
                    device, ntaps, nfilters, std::vector<float>{ mu }, eps, max_chunk);
            },
             [=] {
                 return std::make_unique<cpu_nlms_kernel>(ntaps, nfilters, mu, eps);
             } };
}

void nlms_backend::set_mu(block_core& core, float mu)
{
    if (core.gpu())
        gpu_of(core).set_mu({ mu });
    else
        cpu_of(core).set_mu({ mu });
}

void nlms_backend::set_taps(block_core& core, int k, const std::vector<float>& taps)
{
    if (core.gpu())
        gpu_of(core).set_taps(k, taps);
    else
        cpu_of(core).set_taps(k, taps);
}

std::vector<float> nlms_backend::taps(block_core& core, int k)
{
    return core.gpu() ? gpu_of(core).taps(k) : cpu_of(core).taps(k);
}

void nlms_backend::reset(block_core& core)
{
    if (core.gpu())
        gpu_of(core).reset();
    else
        cpu_of(core).reset();
}

} // namespace gpufilter
} // namespace gr
