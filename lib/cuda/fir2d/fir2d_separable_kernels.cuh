/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR2D_SEPARABLE_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_FIR2D_SEPARABLE_KERNELS_CUH

// Device code of the separable 2D FIR (fir2d_separable_engine). Two paths:
//   two-pass  a 1D FIR down the columns (vertical pass, every term at once) into one
//             plane per term, then a 1D FIR along the rows of each plane, weighted by
//             the term's coefficient (horizontal pass); any kernel size;
//   fused     both passes on a tile in shared memory, for kernels up to fused_max
//             taps a side: the input is read once and nothing else goes to memory
//             (fir2d_separable_fused_kernels.cuh).
// Every pass keeps several outputs per thread in registers and slides a register
// window over its inputs: R outputs cost R loads per block of R taps, not one load
// per tap and output. Taps are zero-padded to whole blocks; the padding's products
// are skipped (not multiplied by zero), so that an Inf or NaN in the input reaches
// exactly the outputs the kernel reaches.

#include "../common/device_math.cuh"
#include <cuda_pipeline_primitives.h>
#include <type_traits>

namespace gr {
namespace gpufilter {
namespace cuda {
namespace fir2d_separable_kernels {

constexpr int threads = 128;
constexpr int column_chunk = 512; //!< vertical taps per shared-memory stage
constexpr int row_chunk = 512;    //!< horizontal taps per shared-memory stage
constexpr int fused_max = 32;     //!< the fused path's largest kh and kw
constexpr int fused_cols = 64;    //!< TW: outputs of a fused tile along a row
constexpr int fused_rows = 16;    //!< TH: outputs of a fused tile down a column
constexpr int block8 = 8;         //!< R and P of the fused path and of complex samples

//! Terms per vertical launch: each adds R accumulators per thread.
template <class T>
constexpr int max_group = sizeof(T) == 4 ? 4 : 2;

//! The rows of a row_source (fir2d_geometry.h), zero outside them.
template <class T>
struct rows_view {
    const T* history;
    long long history_rows;
    const T* input;
    long long rows;
    int width;
    long long image_stride;

    //! Row pos of image b, or nullptr where it is zero.
    __device__ __forceinline__ const T* row(int b, long long pos) const
    {
        if (pos >= 0)
            return pos < rows ? input + b * image_stride + pos * width : nullptr;
        if (b == 0 && pos >= -history_rows)
            return history + (pos + history_rows) * width;
        return nullptr;
    }

    //! x(pos, c) of image b; zero outside the rows and columns.
    __device__ __forceinline__ T operator()(int b, long long pos, int c) const
    {
        // Not through row(): the vertical pass's inner loop is ~15% faster this way.
        if (c < 0 || c >= width)
            return zero<T>();
        if (pos >= 0)
            return pos < rows ? input[b * image_stride + pos * width + c] : zero<T>();
        if (b == 0 && pos >= -history_rows)
            return history[(pos + history_rows) * width + c];
        return zero<T>();
    }
};

/*!
 * dst[i] = src[first + i] for i < n, zero where first + i is outside [0, width) or
 * src is nullptr; thread `lane` of `count` copies every count-th element. Asynchronous
 * (cp.async): a thread's copies are all in flight at once instead of one load's
 * latency after the other; the caller waits with __pipeline_wait_prior(0) and a
 * barrier.
 */
template <class T>
__device__ __forceinline__ void
stage_row(T* dst, const T* src, int first, int n, int width, int lane, int count)
{
    for (int i = lane; i < n; i += count) {
        const int c = first + i;
        if (src && c >= 0 && c < width)
            __pipeline_memcpy_async(dst + i, src + c, sizeof(T));
        else
            dst[i] = zero<T>();
    }
    __pipeline_commit();
}

//! Shared-memory index of row element i: one spare element per 128 bytes, so that
//! threads reading elements P apart (P a power of two) hit distinct banks.
template <class T>
__host__ __device__ __forceinline__ int padded(int i)
{
    return i + i / static_cast<int>(128 / sizeof(T));
}

/*!
 * acc[r] += sum_s taps(s) * w[r - s + B - 1] for r < B and s < n: one block of B
 * taps against a window of 2B-1 inputs, of which the first n taps are the kernel's
 * (n = B but in a kernel's last block; the rest is padding, skipped).
 */
template <int B, class T, class Taps>
__device__ __forceinline__ void
tap_block(T (&acc)[B], const T (&w)[2 * B - 1], Taps taps, int n = B)
{
#pragma unroll
    for (int s = 0; s < B; ++s) {
        if (s >= n)
            break;
        const float h = taps(s);
#pragma unroll
        for (int r = 0; r < B; ++r)
            mac(acc[r], w[r - s + B - 1], h);
    }
}

/*!
 * The blocks b = 0, B, 2B, .. < len of taps of which the first `real` are the
 * kernel's: advance(b) moves the window to block b, apply(b, n) applies its first n
 * taps. The whole blocks run in a loop of their own, without the test for padding
 * (which costs 15 to 20% of a long filter's time inside the loop).
 */
template <int B, class Advance, class Apply>
__device__ __forceinline__ void
for_tap_blocks(int len, int real, Advance advance, Apply apply)
{
    const int whole = min(len, max(real, 0)) / B * B;
    int b = 0;
    for (; b < whole; b += B) {
        advance(b);
        apply(b, B);
    }
    for (; b < len; b += B) {
        advance(b);
        apply(b, real - b);
    }
}

//! Moves the window on by one block: its lower B-1 inputs become the upper ones.
template <int B, class T>
__device__ __forceinline__ void shift_window(T (&w)[2 * B - 1])
{
#pragma unroll
    for (int k = 0; k < B - 1; ++k)
        w[k + B] = w[k];
}

/*!
 * Vertical pass of NT terms: tmp[t][bl][o][c] = sum_i columns[t][i] * x(first + o - i, c)
 * for image b0 + bl (bl = blockIdx.z), o in [0, rows), c in [0, width). Threads run
 * along c (coalesced); each computes R consecutive outputs o0 .. o0+R-1 of its
 * column. For the tap block g .. g+R-1 it holds the 2R-1 input rows
 * w[k] = x(first + o0 - g - (R-1) + k); the next block needs R new rows, the other
 * R-1 move up by R. Taps: NT x kh_pad (zero-padded), staged column_chunk at a time.
 */
template <class T, int R, int NT>
__global__ void __launch_bounds__(threads)
    vertical_pass(rows_view<T> x,
                  int b0,
                  long long first,
                  int rows,
                  const float* __restrict__ columns,
                  int kh,
                  int kh_pad,
                  T* __restrict__ tmp,
                  long long term_stride,
                  long long image_stride)
{
    static_assert(column_chunk % R == 0, "tap chunks hold whole tap blocks");
    __shared__ float s_taps[NT][column_chunk];
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    const int o0 = (blockIdx.y * blockDim.y + threadIdx.y) * R;
    const int b = b0 + blockIdx.z;
    const long long top = first + o0;
    const int tid = threadIdx.y * blockDim.x + threadIdx.x;
    const int nthreads = blockDim.x * blockDim.y;

    T acc[NT][R];
#pragma unroll
    for (int t = 0; t < NT; ++t)
#pragma unroll
        for (int r = 0; r < R; ++r)
            acc[t][r] = zero<T>();
    T w[2 * R - 1];

    // The rows of the whole block: where they all lie in the image's input (most
    // blocks), loads skip the row tests of x(), a third of the inner loop's
    // instructions for long kernels. Threads past the width read the last column.
    const long long block_top =
        first + static_cast<long long>(blockIdx.y) * blockDim.y * R;
    const bool inside = block_top - (kh_pad - 1) >= 0 &&
                        block_top + static_cast<long long>(blockDim.y) * R <= x.rows;
    const T* column = x.input + b * x.image_stride + min(c, x.width - 1);
    const auto run = [&](auto fast) {
        const auto load = [&](long long pos) {
            if constexpr (decltype(fast)::value)
                return column[pos * x.width];
            else
                return x(b, pos, c);
        };
#pragma unroll
        for (int k = 0; k < R - 1; ++k) // moved up by the first block's shift
            w[k] = load(top + 1 + k);
        for (int ch0 = 0; ch0 < kh_pad; ch0 += column_chunk) {
            const int len = min(column_chunk, kh_pad - ch0);
            __syncthreads(); // the previous chunk's taps are no longer read
            for (int i = tid; i < NT * len; i += nthreads)
                s_taps[i / len][i % len] = columns[(i / len) * kh_pad + ch0 + i % len];
            __syncthreads();
            const auto advance = [&](int i0) {
                const long long base = top - (ch0 + i0) - (R - 1);
                shift_window<R>(w);
#pragma unroll
                for (int k = 0; k < R; ++k)
                    w[k] = load(base + k);
            };
            const auto apply = [&](int i0, int n) {
#pragma unroll
                for (int t = 0; t < NT; ++t) // x(top + r - (g + s)) with tap g + s
                    tap_block<R>(
                        acc[t], w, [&](int s) { return s_taps[t][i0 + s]; }, n);
            };
            for_tap_blocks<R>(len, kh - ch0, advance, apply);
        }
    };
    if (inside) // the same for the whole block: its barriers stay together
        run(std::true_type{});
    else
        run(std::false_type{});
    if (c >= x.width)
        return;
    T* dst = tmp + blockIdx.z * image_stride + static_cast<long long>(o0) * x.width + c;
#pragma unroll
    for (int t = 0; t < NT; ++t)
#pragma unroll
        for (int r = 0; r < R; ++r)
            if (o0 + r < rows)
                dst[t * term_stride + static_cast<long long>(r) * x.width] = acc[t][r];
}

/*!
 * Horizontal pass: out[bl][o][c] = sum_t coefs[t] * sum_j row_taps[t][j] *
 * tmp[t][bl][o][c + col_offset - j] (tmp zero outside [0, in_width)) for
 * o in [0, rows) (blockIdx.y * blockDim.y + threadIdx.y), c in [0, out_width).
 * A row group of the block computes tile_len = blockDim.x * P consecutive outputs
 * from c0, thread x the P outputs from c0 + x*P. For a chunk of L taps from j0 it
 * stages tmp columns from c0 + col_offset - j0 - (L-1) (tile_len + L - 1 of them);
 * output c0 + i with tap j0 + jj reads tile element i + L - 1 - jj. The finished
 * outputs go through the tile again so that the stores are coalesced.
 * Shared memory: blockDim.y tiles of `stride` T, then `chunk` floats of taps.
 */
template <class T, class Tap, int P>
__global__ void __launch_bounds__(threads)
    horizontal_pass(const T* __restrict__ tmp,
                    long long term_stride,
                    long long tmp_image_stride,
                    int in_width,
                    int rows,
                    const float* __restrict__ row_taps,
                    int kw,
                    int kw_pad,
                    const Tap* __restrict__ coefs,
                    int terms,
                    int chunk,
                    int stride,
                    int col_offset,
                    int out_width,
                    T* __restrict__ out,
                    long long out_image_stride)
{
    extern __shared__ __align__(16) unsigned char smem[];
    T* tile = reinterpret_cast<T*>(smem) + threadIdx.y * stride;
    float* s_taps =
        reinterpret_cast<float*>(reinterpret_cast<T*>(smem) + blockDim.y * stride);

    const int tile_len = blockDim.x * P;
    const int c0 = blockIdx.x * tile_len;
    const int o = blockIdx.y * blockDim.y + threadIdx.y;
    const bool row_ok = o < rows;
    const int tid = threadIdx.y * blockDim.x + threadIdx.x;
    const int nthreads = blockDim.x * blockDim.y;
    const int lane0 = threadIdx.x * P;
    const T* src = tmp + blockIdx.z * tmp_image_stride +
                   static_cast<long long>(row_ok ? o : 0) * in_width;

    T total[P];
#pragma unroll
    for (int k = 0; k < P; ++k)
        total[k] = zero<T>();

    for (int t = 0; t < terms; ++t) {
        T acc[P];
#pragma unroll
        for (int k = 0; k < P; ++k)
            acc[k] = zero<T>();
        for (int j0 = 0; j0 < kw_pad; j0 += chunk) {
            const int len = min(chunk, kw_pad - j0);
            __syncthreads(); // the previous tile and taps are no longer read
            for (int i = tid; i < len; i += nthreads)
                s_taps[i] = row_taps[t * kw_pad + j0 + i];
            const int base = c0 + col_offset - j0 - (len - 1);
            const T* plane = row_ok ? src + t * term_stride : nullptr;
            for (int i = threadIdx.x; i < tile_len + len - 1; i += blockDim.x) {
                const int col = base + i;
                if (plane && col >= 0 && col < in_width)
                    __pipeline_memcpy_async(&tile[padded<T>(i)], plane + col, sizeof(T));
                else
                    tile[padded<T>(i)] = zero<T>();
            }
            __pipeline_commit();
            __pipeline_wait_prior(0);
            __syncthreads();
            // Tap block jb: w[m] = tile[lane0 + len - 1 - jb - (P-1) + m].
            T w[2 * P - 1];
#pragma unroll
            for (int m = 0; m < P - 1; ++m)
                w[m] = tile[padded<T>(lane0 + len + m)];
            for_tap_blocks<P>(
                len,
                kw - j0,
                [&](int jb) {
                    shift_window<P>(w);
#pragma unroll
                    for (int m = 0; m < P; ++m)
                        w[m] = tile[padded<T>(lane0 + len - jb - P + m)];
                },
                [&](int jb, int n) {
                    tap_block<P>(
                        acc, w, [&](int s) { return s_taps[jb + s]; }, n);
                });
        }
        const Tap coef = coefs[t];
#pragma unroll
        for (int k = 0; k < P; ++k)
            mac(total[k], acc[k], coef);
    }

    __syncthreads();
#pragma unroll
    for (int k = 0; k < P; ++k)
        tile[padded<T>(lane0 + k)] = total[k];
    __syncthreads();
    if (!row_ok)
        return;
    T* dst = out + blockIdx.z * out_image_stride + static_cast<long long>(o) * out_width;
    for (int i = threadIdx.x; i < tile_len && c0 + i < out_width; i += blockDim.x)
        dst[c0 + i] = tile[padded<T>(i)];
}

} // namespace fir2d_separable_kernels
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
