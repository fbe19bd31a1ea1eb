/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../stream/gpu_path.h"
#include "nlms_engine.h"
#include "nlms_host.h"

namespace gr {
namespace gpufilter {
namespace cuda {

gpu_path<nlms_controls> make_nlms_path(int device,
                                       std::size_t max_chunk,
                                       int ntaps,
                                       int nfilters,
                                       const std::vector<float>& mu,
                                       float eps)
{
    return make_gpu_path<nlms_controls, nlms_engine>(
        device, max_chunk, ntaps, nfilters, mu, eps);
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
