/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/device.h"
#include "../common/kernel_attributes.h"
#include "nlms_engine.h"
#include "nlms_kernels.cuh"
#include "nlms_shape.h"
#include <string>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {
//! The tuning's shape for ntaps, once both are known good (before the GPU).
nlms_shape checked_shape(const nlms_tuning& tuning, int ntaps, int nfilters)
{
    check_nlms_tuning(tuning);
    nlms_shape_for(tuning, ntaps); // ntaps checked before the GPU is asked
    return nlms_shape_for(tuning, ntaps, nfilters, current_device_multiprocessors());
}

template <int K, bool Short = false>
void launch_k(const nlms_shape& shape,
              int nfilters,
              const nlms_kernels::args& a,
              cudaStream_t s)
{
    auto kernel = nlms_kernels::nlms_kernel<K, Short>;
    // Above the 48 KiB default a kernel must opt in (filters of more than about
    // 2400 taps, with the padded copy of the window).
    if (shape.shared_bytes > 48 * 1024)
        allow_dynamic_shared_memory(kernel, shape.shared_bytes);
    kernel<<<nfilters, shape.threads, shape.shared_bytes, s>>>(a);
    GPUFILTER_CHECK_LAUNCH();
}
} // namespace

nlms_engine::nlms_engine(int ntaps,
                         int nfilters,
                         const std::vector<float>& mu,
                         float eps,
                         const nlms_tuning& tuning)
    : d_ntaps(checked_nlms_ntaps(ntaps, nlms_max_taps)),
      d_nfilters(checked_nlms_nfilters(nfilters)),
      d_eps(checked_nlms_eps(eps)),
      d_shape(checked_shape(tuning, d_ntaps, d_nfilters)),
      d_ports{ { nfilters * sizeof(float), nfilters * sizeof(float) },
               { nfilters * sizeof(float) } },
      d_mu_host(checked_nlms_mus(mu, nfilters)),
      d_mu(nfilters),
      d_taps(static_cast<std::size_t>(nfilters) * ntaps),
      d_history(static_cast<std::size_t>(nfilters) * d_shape.history)
{
    GPUFILTER_CHECK(
        cudaMemcpy(d_mu.get(), d_mu_host.data(), d_mu.bytes(), cudaMemcpyHostToDevice));
    GPUFILTER_CHECK(cudaMemset(d_taps.get(), 0, d_taps.bytes()));
    GPUFILTER_CHECK(cudaMemset(d_history.get(), 0, d_history.bytes()));
    wait_for_default_stream(); // process() runs on a stream that does not wait for it
}

void nlms_engine::launch(const float* x,
                         const float* d,
                         float* e,
                         long long filter_stride,
                         long long sample_stride,
                         std::size_t n,
                         cudaStream_t s)
{
    if (n == 0)
        return;
    const nlms_shape& shape = d_shape;
    const nlms_kernels::args a{ x,
                                d,
                                e,
                                filter_stride,
                                sample_stride,
                                static_cast<long long>(n),
                                d_ntaps,
                                shape.tile,
                                shape.history,
                                d_taps.get(),
                                d_history.get(),
                                d_mu.get(),
                                d_eps };
    switch (shape.taps_per_thread) {
    case 4: // every filter of at most nlms_block taps (nlms_shape_for)
        if (d_ntaps <= nlms_block)
            launch_k<4, true>(shape, d_nfilters, a, s);
        else
            launch_k<4>(shape, d_nfilters, a, s);
        break;
    case 8:
        launch_k<8>(shape, d_nfilters, a, s);
        break;
    default:
        launch_k<16>(shape, d_nfilters, a, s);
        break;
    }
}

std::size_t nlms_engine::process(const void* const* in,
                                 std::size_t n,
                                 void* const* out,
                                 cudaStream_t s)
{
    launch(static_cast<const float*>(in[0]),
           static_cast<const float*>(in[1]),
           static_cast<float*>(out[0]),
           1,
           d_nfilters,
           n,
           s);
    return n;
}

void nlms_engine::process_rows(const float* x,
                               const float* d,
                               float* e,
                               std::size_t row,
                               std::size_t n,
                               cudaStream_t s)
{
    launch(x, d, e, static_cast<long long>(row), 1, n, s);
}

void nlms_engine::set_mu(const std::vector<float>& mu, cudaStream_t s)
{
    auto checked = checked_nlms_mus(mu, d_nfilters);
    // The previous copy may still read d_mu_host: wait before replacing it.
    GPUFILTER_CHECK(cudaStreamSynchronize(s));
    d_mu_host = std::move(checked);
    GPUFILTER_CHECK(cudaMemcpyAsync(
        d_mu.get(), d_mu_host.data(), d_mu.bytes(), cudaMemcpyHostToDevice, s));
    GPUFILTER_CHECK(cudaStreamSynchronize(s));
}

void nlms_engine::check_filter(int k) const { checked_nlms_filter(k, d_nfilters); }

void nlms_engine::set_taps(int k, const std::vector<float>& taps, cudaStream_t s)
{
    check_filter(k);
    checked_nlms_taps(taps, d_ntaps);
    GPUFILTER_CHECK(cudaMemcpyAsync(d_taps.get() + static_cast<std::size_t>(k) * d_ntaps,
                                    taps.data(),
                                    taps.size() * sizeof(float),
                                    cudaMemcpyHostToDevice,
                                    s));
    GPUFILTER_CHECK(cudaStreamSynchronize(s)); // taps is the caller's
}

std::vector<float> nlms_engine::taps(int k, cudaStream_t s) const
{
    check_filter(k);
    std::vector<float> out(d_ntaps);
    GPUFILTER_CHECK(cudaMemcpyAsync(out.data(),
                                    d_taps.get() + static_cast<std::size_t>(k) * d_ntaps,
                                    out.size() * sizeof(float),
                                    cudaMemcpyDeviceToHost,
                                    s));
    GPUFILTER_CHECK(cudaStreamSynchronize(s));
    return out;
}

std::vector<float> nlms_engine::all_taps(cudaStream_t s) const
{
    std::vector<float> out(d_taps.size());
    copy_all_taps(out.data(), s);
    return out;
}

void nlms_engine::copy_all_taps(float* out, cudaStream_t s) const
{
    GPUFILTER_CHECK(
        cudaMemcpyAsync(out, d_taps.get(), d_taps.bytes(), cudaMemcpyDeviceToHost, s));
    GPUFILTER_CHECK(cudaStreamSynchronize(s));
}

void nlms_engine::reset(cudaStream_t s)
{
    GPUFILTER_CHECK(cudaMemsetAsync(d_taps.get(), 0, d_taps.bytes(), s));
    GPUFILTER_CHECK(cudaMemsetAsync(d_history.get(), 0, d_history.bytes(), s));
    GPUFILTER_CHECK(cudaStreamSynchronize(s));
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
