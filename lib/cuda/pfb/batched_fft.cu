/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/cuda_check.h"
#include "batched_fft.h"
#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gpufilter {
namespace cuda {

batched_fft::batched_fft(int n, std::size_t max_rows) : d_n(n), d_max_rows(max_rows)
{
    if (n < 1 || max_rows == 0 || (max_rows & (max_rows - 1)) != 0)
        throw std::logic_error("batched_fft: bad size");
    if (n == 1)
        return; // a 1-point FFT is the identity
    std::size_t work_bytes = 0;
    for (std::size_t batch = 1; batch <= max_rows; batch *= 2) {
        fft_plan p = fft_plan::create();
        GPUFILTER_CHECK(cufftSetAutoAllocation(p.get(), 0));
        int len = n;
        std::size_t bytes = 0;
        GPUFILTER_CHECK(cufftMakePlanMany(p.get(),
                                          1,
                                          &len,
                                          nullptr,
                                          1,
                                          n,
                                          nullptr,
                                          1,
                                          n,
                                          CUFFT_C2C,
                                          static_cast<int>(batch),
                                          &bytes));
        work_bytes = std::max(work_bytes, bytes);
        d_plans.push_back(std::move(p));
    }
    if (work_bytes) {
        d_work = device_buffer<char>(work_bytes);
        for (const auto& p : d_plans)
            GPUFILTER_CHECK(cufftSetWorkArea(p.get(), d_work.get()));
    }
}

void batched_fft::inverse(const complex* src,
                          complex* dst,
                          std::size_t count,
                          cudaStream_t s)
{
    if (count == 0)
        return;
    if (count > d_max_rows)
        throw std::logic_error("batched_fft::inverse: too many rows");
    if (d_n == 1) {
        if (src != dst)
            GPUFILTER_CHECK(cudaMemcpyAsync(
                dst, src, count * sizeof(complex), cudaMemcpyDeviceToDevice, s));
        return;
    }
    std::size_t done = 0;
    for (std::size_t m = d_plans.size(); m-- > 0;) {
        const std::size_t batch = std::size_t(1) << m;
        if (!(count & batch))
            continue;
        const cufftHandle p = d_plans[m].get();
        GPUFILTER_CHECK(cufftSetStream(p, s));
        // Out-of-place C2C leaves its input as it was; cuFFT's signature is non-const.
        auto* in =
            reinterpret_cast<cufftComplex*>(const_cast<complex*>(src) + done * d_n);
        GPUFILTER_CHECK(cufftExecC2C(
            p, in, reinterpret_cast<cufftComplex*>(dst + done * d_n), CUFFT_INVERSE));
        done += batch;
    }
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
