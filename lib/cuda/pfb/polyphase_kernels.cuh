/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_POLYPHASE_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_POLYPHASE_KERNELS_CUH

// Device code of polyphase_bank: the branch FIR pass of the two-pass path and the
// history it keeps (the fused FIR + FFT kernel: polyphase_fir_fft_kernels.cuh).

#include "../common/device_math.cuh"
#include "../common/history_keep.cuh"
#include "../common/sample_load.h"
#include "polyphase_shape.h"
#include <cuda_runtime.h>

namespace gr {
namespace gpufilter {
namespace cuda {
namespace pfb_kernels {

/*!
 * [history (complex, history_len) | input (S, input_len)] as one complex sequence,
 * the input converted by its load policy (to_complex); zeros outside both.
 */
template <class S>
struct source {
    const float2* history;
    long long history_len;
    const S* input;
    long long input_len;

    __device__ __forceinline__ float2 operator[](long long v) const
    {
        if (v < 0)
            return make_float2(0.0f, 0.0f);
        if (v < history_len)
            return history[v];
        v -= history_len;
        return v < input_len ? to_complex(input[v]) : make_float2(0.0f, 0.0f);
    }

    //! Whether v in [first, first + n) all lie in the new samples (as
    //! history_then_input::in_input): a kernel then reads them without the tests above.
    __device__ __forceinline__ bool in_input(long long first, long long n) const
    {
        return first >= history_len && first + n <= history_len + input_len;
    }
};

//! A sample as the bank keeps its history: complex float, whatever the input format.
struct complex_sample {
    template <class S>
    __device__ __forceinline__ float2 operator()(S s) const
    {
        return to_complex(s);
    }
};

using namespace pfb_shape;
static_assert(sizeof(float2) == 8, "smem_bytes counts 8-byte samples");

/*!
 * The branch FIR pass. Coordinates: u = v + base, v the index into src, base chosen
 * so that u = the stream's sample index modulo N. Write u = a*N + b ("row" a,
 * "column" b: stream_to_streams' stream b, item a). Step t of the launch ends at
 * u_t = v_first + base + t*R = a_t*N + b_t. Column j feeds branch f = (b_t - j) mod N,
 * and tap k of that branch reads row a_t - k - (j > b_t ? 1 : 0) of column j. Its
 * output goes to slot p = N - 1 - ((j + R) mod N) of row t: gr-filter's d_idxlut[j],
 * which depends on the column only.
 *
 * A block owns tile_columns(N) columns and block_steps(N) steps. Per chunk of taps it
 * stages the rows of its columns that the chunk reads, once, converted to complex,
 * coalesced along each row; every staged sample then serves all the steps and taps
 * that read it (about T*N/R of them). Taps are read through the read-only cache
 * (consecutive columns read consecutive branches: coalesced).
 *
 * A thread computes steps_per_thread consecutive steps of its column. With one row
 * per step (R == N: every channelizer at oversample rate 1, every decimator) those
 * steps share their branch and are one row apart: step i, tap k reads row
 * row0 + i + (kc - (k - k0)). A thread whose steps are all valid then slides a window
 * of steps_per_thread rows down the column: per tap one shared-memory load and one tap
 * load serve steps_per_thread multiply-adds (fir_blocked's register blocking).
 *
 * Output layout: rows[t*N + p], one row of N FFT inputs per step (what a fused
 * in-block FFT would hold in shared memory instead).
 */
template <class S, bool one_row_per_step>
__global__ void __launch_bounds__(threads)
    fir(source<S> src,
        int N,
        int R,
        int T,
        const float* __restrict__ branch_taps,
        long long v_first,
        int base,
        long long nsteps,
        float2* __restrict__ rows,
        history_keep<float2, S, complex_sample> keep)
{
    // The next call's history, where the call asked for it (n = 0: none), shared by
    // the threads of the whole two-dimensional grid.
    const int block_threads = blockDim.x * blockDim.y;
    keep.copy((blockIdx.y * gridDim.x + blockIdx.x) * block_threads +
                  threadIdx.y * blockDim.x + threadIdx.x,
              gridDim.x * gridDim.y * block_threads);
    extern __shared__ float2 tile[]; // [row][column], tile_columns wide
    const int F = blockDim.x;
    const int cc = threadIdx.x;
    const int j = blockIdx.x * F + cc;
    const bool column_ok = j < N;
    const long long by = blockDim.y;
    const long long step0 = static_cast<long long>(blockIdx.y) * by * steps_per_thread;
    const long long nblock = min(by * steps_per_thread, nsteps - step0);
    const long long u_first = v_first + base + step0 * R;
    const long long a_first = u_first / N;
    const long long a_last = (u_first + (nblock - 1) * R) / N;

    float2 acc[steps_per_thread];
    int row0[steps_per_thread]; // a_t - a_first - wrap: the tile row of tap k0 is
                                // row0 + kc - (k - k0)
    int branch[steps_per_thread];
    bool valid[steps_per_thread];
#pragma unroll
    for (int i = 0; i < steps_per_thread; ++i) {
        const long long t = threadIdx.y * steps_per_thread + i;
        valid[i] = column_ok && t < nblock;
        const long long u = u_first + t * R;
        const long long a = u / N;
        const int b = static_cast<int>(u - a * N);
        const int wrap = j > b ? 1 : 0;
        row0[i] = static_cast<int>(a - a_first) - wrap;
        branch[i] = b - j + wrap * N;
        acc[i] = make_float2(0.0f, 0.0f);
    }

    for (int k0 = 0; k0 < T; k0 += tap_chunk) {
        const int kc = min(tap_chunk, T - k0);
        const long long row_lo = a_first - k0 - kc;
        const int nrows = static_cast<int>(a_last - a_first) + kc + 1;
        const int col = blockIdx.x * F + cc;
        __syncthreads(); // the previous chunk's reads are done
        // Element e = r*F + cc; the stride F*blockDim.y keeps the column at cc.
        for (int e = threadIdx.y * F + cc; e < nrows * F; e += F * blockDim.y)
            tile[e] = col < N ? src[(row_lo + e / F) * N + col - base]
                              : make_float2(0.0f, 0.0f);
        __syncthreads();
        if (one_row_per_step && valid[steps_per_thread - 1]) {
            static_assert(steps_per_thread == 4, "the window below holds 4 rows");
            // valid[3] implies valid[0..2]: the steps are consecutive. w_i holds the
            // row of step i at the current tap; a tap later, step i + 1 reads the row
            // step i read, so the window shifts by one row per tap.
            const float* h = branch_taps + branch[0] + static_cast<long long>(k0) * N;
            const float2* x = tile + (row0[0] + kc) * F + cc;
            float2 w1 = x[F], w2 = x[2 * F], w3 = x[3 * F];
            float2 a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
            for (int kk = 0; kk < kc; ++kk) {
                const float hk = __ldg(h + static_cast<long long>(kk) * N);
                const float2 w0 = x[-kk * F];
                a0.x = fmaf(w0.x, hk, a0.x);
                a0.y = fmaf(w0.y, hk, a0.y);
                a1.x = fmaf(w1.x, hk, a1.x);
                a1.y = fmaf(w1.y, hk, a1.y);
                a2.x = fmaf(w2.x, hk, a2.x);
                a2.y = fmaf(w2.y, hk, a2.y);
                a3.x = fmaf(w3.x, hk, a3.x);
                a3.y = fmaf(w3.y, hk, a3.y);
                w3 = w2;
                w2 = w1;
                w1 = w0;
            }
            acc[0] = a0;
            acc[1] = a1;
            acc[2] = a2;
            acc[3] = a3;
            continue;
        }
#pragma unroll
        for (int i = 0; i < steps_per_thread; ++i) {
            if (!valid[i])
                continue;
            const float* h = branch_taps + branch[i] + static_cast<long long>(k0) * N;
            const float2* x = tile + (row0[i] + kc) * F + cc;
            float2 a = acc[i];
            for (int kk = 0; kk < kc; ++kk) {
                const float hk = __ldg(h + static_cast<long long>(kk) * N);
                const float2 xk = x[-kk * F];
                a.x = fmaf(xk.x, hk, a.x);
                a.y = fmaf(xk.y, hk, a.y);
            }
            acc[i] = a;
        }
    }

    if (!column_ok)
        return; // after the last __syncthreads
    const int p = N - 1 - (j + R) % N;
#pragma unroll
    for (int i = 0; i < steps_per_thread; ++i)
        if (valid[i])
            rows[(step0 + threadIdx.y * steps_per_thread + i) * N + p] = acc[i];
}

//! dst[i] = src[from + i], i < n: the history the next call reads.
template <class S>
__global__ void keep_history(source<S> src, long long from, float2* dst, long long n)
{
    const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] = src[from + i];
}

//! keep_history's launch on stream s (n = 0: none): a window of a view, zeros before
//! the stream, as set_taps trims or pads a kept history. A call's own history is
//! history_keep.cuh's launch_history_keep (or the filter kernel's keep.copy()).
template <class S>
void launch_history_window(
    source<S> src, long long from, float2* dst, long long n, cudaStream_t s)
{
    if (n == 0)
        return;
    constexpr int block = 256;
    keep_history<<<blocks_for(n, block), block, 0, s>>>(src, from, dst, n);
    GPUFILTER_CHECK_LAUNCH();
}

} // namespace pfb_kernels
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
