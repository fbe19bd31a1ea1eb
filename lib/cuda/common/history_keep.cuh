/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_HISTORY_KEEP_CUH
#define INCLUDED_GPUFILTER_CUDA_HISTORY_KEEP_CUH

// The history a stream's next call reads, copied by the threads of this call's filter
// kernel rather than by a launch of its own. A call from a live stream is small, and
// what it costs is mostly its operations on the GPU (each launch about 4 us on an
// H100), not its arithmetic: one launch fewer a call.

#include "cuda_check.h"
#include "device_math.cuh"
#include <cstddef>
#include <limits>
#include <stdexcept>

namespace gr {
namespace gpufilter {
namespace cuda {

//! A sample kept as it is (the FIR engines keep their input type).
struct same_sample {
    template <class S>
    __host__ __device__ S operator()(S s) const
    {
        return s;
    }
};

/*!
 * The last n samples of a call's [history | input] into dst, the history buffer the
 * next call reads (the engines keep two, so the kernel reads one while it fills the
 * other): dst[i] = old[i] for i < old_count, then convert(input[i - old_count]).
 * The two ranges are found on the host (history_keep_for), so the copy is a loop of
 * plain loads: the filter kernels that run it sit at their register limits.
 * n = 0: nothing to copy.
 */
template <class T, class In = T, class Convert = same_sample>
struct history_keep {
    const T* old;
    int old_count;
    const In* input;
    T* dst;
    int n;

#ifdef __CUDACC__
    //! Run by every thread of a one-dimensional grid, where none has returned early:
    //! the grid's threads share the samples.
    __device__ __forceinline__ void copy() const
    {
        copy(blockIdx.x * blockDim.x + threadIdx.x, gridDim.x * blockDim.x);
    }
    //! The same for a grid of any shape: `thread` numbers the grid's `threads`
    //! threads from 0.
    __device__ __forceinline__ void copy(int thread, int threads) const
    {
        for (int i = thread; i < n; i += threads)
            dst[i] = i < old_count ? old[i] : Convert{}(input[i - old_count]);
    }
#endif
};

/*!
 * The copy of the last history_len samples of [history (history_len) | input (n)]
 * into dst: the history's tail where the input is shorter than that, then the input.
 */
template <class T, class In, class Convert = same_sample>
history_keep<T, In, Convert> history_keep_for(
    const T* history, std::size_t history_len, const In* input, std::size_t n, T* dst)
{
    if (history_len > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        throw std::length_error("history_keep: a history of more than 2^31 samples");
    const std::size_t old_count = n < history_len ? history_len - n : 0;
    // Sample i of the copy is input sample n - history_len + i past the old ones.
    return { old_count ? history + n : history,
             static_cast<int>(old_count),
             input + (n + old_count - history_len),
             dst,
             static_cast<int>(history_len) };
}

#ifdef __CUDACC__
template <class T, class In, class Convert>
__global__ void copy_kept_history(history_keep<T, In, Convert> keep)
{
    keep.copy();
}

//! The same copy as a launch of its own, for a call whose filter kernel does not run
//! it (no outputs, or a path whose kernels do not take it).
template <class T, class In, class Convert>
void launch_history_keep(const history_keep<T, In, Convert>& keep, cudaStream_t stream)
{
    if (keep.n == 0)
        return;
    constexpr int block = 256;
    copy_kept_history<<<blocks_for(keep.n, block), block, 0, stream>>>(keep);
    GPUFILTER_CHECK_LAUNCH();
}
#endif

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
