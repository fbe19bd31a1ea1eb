/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/device_selection.h"
#include "cuda/nlms/nlms_host.h"
#include "cuda/nlms/nlms_params.h"
#include "nlms/cpu/nlms_cpu.h"
#include <gnuradio/gpufilter/nlms.h>
#include <algorithm>

namespace gr {
namespace gpufilter {

int nlms_batch(const float* x,
               const float* d,
               std::size_t nfilters,
               std::size_t nsamples,
               int ntaps,
               const std::vector<float>& mu,
               double eps,
               float* errors,
               float* final_taps,
               int device)
{
    cuda::checked_nlms_ntaps(ntaps, nlms_max_taps);
    const float e = cuda::checked_nlms_eps(eps);
    if (nfilters > static_cast<std::size_t>(1) << 30)
        throw std::invalid_argument("nfilters: too many filters");
    const int nf = static_cast<int>(nfilters);
    if (nf > 0)
        cuda::checked_nlms_mus(mu, nf); // before the GPU is touched
    static const auto logger = std::make_shared<gr::logger>("nlms_batch");
    const int dev = select_device(device, logger);
    if (nf == 0)
        return dev;
    if (dev != device_cpu) {
        cuda::nlms_batch_rows(
            dev, x, d, nfilters, nsamples, ntaps, mu, e, errors, final_taps);
        return dev;
    }
    nlms_cpu cpu(ntaps, nf, mu, e);
    cpu.process(x, d, errors, nsamples, 1, nsamples);
    for (int k = 0; k < nf; ++k) {
        const auto t = cpu.taps(k);
        std::copy(t.begin(), t.end(), final_taps + static_cast<std::size_t>(k) * ntaps);
    }
    return dev;
}

} // namespace gpufilter
} // namespace gr
