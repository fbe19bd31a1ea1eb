/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_FIR_KERNELS_CUH

// Device code of the direct-form FIR. Output k reads the virtual input
// [first + k*D, first + k*D + T) against the reversed taps.

#include "../common/device_math.cuh"
#include "../common/history_keep.cuh"

namespace gr {
namespace gpufilter {
namespace cuda {
namespace fir_kernels {

constexpr int threads = 256;   // threads per block of the tiled kernel
constexpr int tap_chunk = 256; // taps staged in shared memory per pass

//! Shared memory the tiled kernel needs for R outputs per thread (input staged in
//! its compute type: int16 samples are widened once, when they are staged).
template <class In, class Tap>
constexpr std::size_t tile_smem_bytes(int outputs_per_thread, int decimation)
{
    return tap_chunk * sizeof(Tap) +
           ((std::size_t(threads) * outputs_per_thread - 1) * decimation + tap_chunk) *
               sizeof(compute_t<In>);
}

/*!
 * Tiled direct form: a block computes threads*R consecutive outputs. For each chunk
 * of taps it stages those taps and the input span they touch in shared memory, so
 * every input sample is read from device memory once per block and chunk. Thread t
 * owns outputs t, t+threads, ..., which keeps a warp's shared reads contiguous for
 * D = 1. Each finished output goes through `epilogue` (no_epilogue, or a rotation),
 * so a frequency shift costs no second pass over the outputs.
 */
template <class In, class Tap, class Out, int R, class Epilogue>
__global__ void __launch_bounds__(threads)
    fir_tiled(history_then_input<In> src,
              long long first,
              int decimation,
              const Tap* __restrict__ taps_reversed,
              int ntaps,
              long long noutputs,
              Out* __restrict__ out,
              Epilogue epilogue,
              history_keep<In> keep)
{
    keep.copy();
    using X = compute_t<In>;
    extern __shared__ __align__(16) unsigned char smem[];
    Tap* s_taps = reinterpret_cast<Tap*>(smem);
    X* s_in = reinterpret_cast<X*>(smem + tap_chunk * sizeof(Tap));

    const long long k0 = static_cast<long long>(blockIdx.x) * threads * R;
    const long long block_first = first + k0 * decimation;
    const int span_without_taps = (threads * R - 1) * decimation;

    using Acc = accumulator_t<In, Out>;
    Acc acc[R];
#pragma unroll
    for (int r = 0; r < R; ++r)
        acc[r] = zero<Acc>();

    for (int c = 0; c < ntaps; c += tap_chunk) {
        const int chunk = min(tap_chunk, ntaps - c);
        __syncthreads(); // the previous chunk is no longer being read
        for (int i = threadIdx.x; i < chunk; i += threads)
            s_taps[i] = taps_reversed[c + i];
        const int span = span_without_taps + chunk;
        for (int i = threadIdx.x; i < span; i += threads)
            s_in[i] = to_compute(src[block_first + c + i]);
        __syncthreads();

        const X* x = s_in + threadIdx.x * decimation;
        for (int j = 0; j < chunk; ++j) {
            const Tap h = s_taps[j];
#pragma unroll
            for (int r = 0; r < R; ++r)
                mac(acc[r], x[r * threads * decimation + j], h);
        }
    }

#pragma unroll
    for (int r = 0; r < R; ++r) {
        const long long k = k0 + threadIdx.x + r * threads;
        if (k < noutputs)
            out[k] = epilogue(to_output<Out>(acc[r]), k);
    }
}

//! One output per thread straight from device memory: for decimations too large for
//! the tiled kernel's shared memory, where neighbouring outputs share few samples.
template <class In, class Tap, class Out, class Epilogue>
__global__ void fir_untiled(history_then_input<In> src,
                            long long first,
                            int decimation,
                            const Tap* __restrict__ taps_reversed,
                            int ntaps,
                            long long noutputs,
                            Out* __restrict__ out,
                            Epilogue epilogue,
                            history_keep<In> keep)
{
    keep.copy();
    const long long k = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (k >= noutputs)
        return;
    const long long base = first + k * decimation;
    using Acc = accumulator_t<In, Out>;
    Acc acc = zero<Acc>();
    for (int j = 0; j < ntaps; ++j)
        mac(acc, to_compute(src[base + j]), taps_reversed[j]);
    out[k] = epilogue(to_output<Out>(acc), k);
}

} // namespace fir_kernels
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
