/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/resources.h"
#include "../stream/gpu_path.h"
#include "nlms_engine.h"
#include "nlms_host.h"
#include <algorithm>
#include <memory>

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

void nlms_batch_rows(int device,
                     const float* x,
                     const float* d,
                     std::size_t nfilters,
                     std::size_t nsamples,
                     int ntaps,
                     const std::vector<float>& mu,
                     float eps,
                     float* e,
                     float* taps_out,
                     std::size_t max_bytes)
{
    if (nfilters == 0)
        return;
    const auto all_mu = checked_nlms_mus(mu, static_cast<int>(nfilters));
    use_device(device);
    // A group of filters per launch (as many as fill the GPU and whose state, taps
    // and history, fits in half of max_bytes), and chunks of samples for the other
    // half, of a length that is a multiple of 4 (16-byte row starts on the device).
    const std::size_t state_bytes = 2 * sizeof(float) * static_cast<std::size_t>(ntaps);
    const std::size_t group = std::max<std::size_t>(
        1, std::min<std::size_t>({ nfilters, 4096, max_bytes / 2 / state_bytes }));
    const std::size_t row_bytes = 3 * sizeof(float) * group; // x, d, e per sample
    std::size_t chunk = std::max<std::size_t>(max_bytes / 2 / row_bytes, 1024);
    chunk = std::min(chunk, (nsamples + 3) / 4 * 4);
    chunk = std::max<std::size_t>(chunk / 4 * 4, 4);
    device_buffer<float> dx(group * chunk), dd(group * chunk), de(group * chunk);
    stream s;
    for (std::size_t f0 = 0; f0 < nfilters; f0 += group) {
        const std::size_t g = std::min(group, nfilters - f0);
        nlms_engine engine(
            ntaps,
            static_cast<int>(g),
            std::vector<float>(all_mu.begin() + f0, all_mu.begin() + f0 + g),
            eps);
        for (std::size_t s0 = 0; s0 < nsamples; s0 += chunk) {
            const std::size_t n = std::min(chunk, nsamples - s0);
            const std::size_t host_pitch = nsamples * sizeof(float);
            const std::size_t dev_pitch = chunk * sizeof(float);
            const std::size_t width = n * sizeof(float);
            const std::size_t first = f0 * nsamples + s0;
            GPUFILTER_CHECK(cudaMemcpy2DAsync(dx.get(),
                                              dev_pitch,
                                              x + first,
                                              host_pitch,
                                              width,
                                              g,
                                              cudaMemcpyHostToDevice,
                                              s));
            GPUFILTER_CHECK(cudaMemcpy2DAsync(dd.get(),
                                              dev_pitch,
                                              d + first,
                                              host_pitch,
                                              width,
                                              g,
                                              cudaMemcpyHostToDevice,
                                              s));
            engine.process_rows(dx.get(), dd.get(), de.get(), chunk, n, s);
            GPUFILTER_CHECK(cudaMemcpy2DAsync(e + first,
                                              host_pitch,
                                              de.get(),
                                              dev_pitch,
                                              width,
                                              g,
                                              cudaMemcpyDeviceToHost,
                                              s));
            s.synchronize(); // pageable host memory: each copy must end in turn
        }
        const auto t = engine.all_taps(s);
        std::copy(t.begin(), t.end(), taps_out + f0 * ntaps);
    }
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
