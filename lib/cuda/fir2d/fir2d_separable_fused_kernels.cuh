/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR2D_SEPARABLE_FUSED_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_FIR2D_SEPARABLE_FUSED_KERNELS_CUH

// The fused path of the separable 2D FIR (fir2d_separable_engine): both passes of a
// tile of outputs in shared memory, for kernels up to fused_max taps a side. Shares
// the windows and the padding rules of fir2d_separable_kernels.cuh.

#include "fir2d_separable_kernels.cuh"

namespace gr {
namespace gpufilter {
namespace cuda {
namespace fir2d_separable_kernels {

//! Elements between rows of the fused path's intermediate tile: rows so skewed that
//! the threads of a warp (threads / fused_cols * block8 rows of 8) hit distinct banks.
template <class T>
__host__ __device__ constexpr int fused_v_stride(int kw_pad)
{
    constexpr int bank_elems = 128 / sizeof(T); // elements per bank row
    constexpr int skew = sizeof(T) == 4 ? 2 : 4;
    const int n = padded<T>(fused_cols + kw_pad - 1) + 1;
    return (n + bank_elems - skew - 1) / bank_elems * bank_elems + skew;
}

/*!
 * Both passes on one tile of TH x TW outputs (o0 = blockIdx.y * TH, c0 = blockIdx.x
 * * TW) of image b0 + blockIdx.z, for kernels of up to fused_max taps a side:
 *   X  (TH + kh_pad - 1) x (TW + kw_pad - 1) inputs, X[p][q] = x(first + o0 -
 *      (kh_pad-1) + p, c0 + col_offset - (kw_pad-1) + q), read from memory once;
 *   V  per term, TH x (TW + kw_pad - 1): V[r][q] = sum_i column[i] X[r + kh_pad-1 -
 * i][q], by work items of 8 rows of one column q (threads along q); y  y[r][c] += coef *
 * sum_j row[j] V[r][c + kw_pad-1 - j], thread (r, x) holding the 8 outputs c = 8x .. 8x+7
 * of row r. The outputs go to memory through V, coalesced. Shared memory: X (x_stride per
 * row), V (fused_v_stride per row), then the taps (columns, then rows).
 */
template <class T, class Tap>
__global__ void __launch_bounds__(threads) fused_pass(rows_view<T> x,
                                                      int b0,
                                                      long long first,
                                                      int rows,
                                                      const float* __restrict__ columns,
                                                      int kh,
                                                      int kh_pad,
                                                      const float* __restrict__ row_taps,
                                                      int kw,
                                                      int kw_pad,
                                                      const Tap* __restrict__ coefs,
                                                      int terms,
                                                      int col_offset,
                                                      int out_width,
                                                      T* __restrict__ out,
                                                      long long out_image_stride)
{
    constexpr int B = block8, TW = fused_cols, TH = fused_rows;
    static_assert(TW / B * TH == threads, "one thread per 8 outputs of the tile");
    extern __shared__ __align__(16) unsigned char smem[];
    const int xrows = TH + kh_pad - 1, xcols = TW + kw_pad - 1;
    const int x_stride = xcols, v_stride = fused_v_stride<T>(kw_pad);
    T* X = reinterpret_cast<T*>(smem);
    T* V = X + xrows * x_stride;
    float* s_col = reinterpret_cast<float*>(V + TH * v_stride);
    float* s_row = s_col + terms * kh_pad;

    const int c0 = blockIdx.x * TW, o0 = blockIdx.y * TH, b = b0 + blockIdx.z;
    const int tid = threadIdx.x;
    const long long pos0 = first + o0 - (kh_pad - 1);
    const int col0 = c0 + col_offset - (kw_pad - 1);
    for (int p = tid / 32; p < xrows; p += threads / 32) // a warp per row
        stage_row(
            X + p * x_stride, x.row(b, pos0 + p), col0, xcols, x.width, tid % 32, 32);
    for (int i = tid; i < terms * kh_pad; i += threads)
        s_col[i] = columns[i];
    for (int i = tid; i < terms * kw_pad; i += threads)
        s_row[i] = row_taps[i];
    __pipeline_wait_prior(0);
    __syncthreads();

    const int hr = tid / (TW / B), hx = tid % (TW / B); // this thread's outputs
    T total[B];
#pragma unroll
    for (int k = 0; k < B; ++k)
        total[k] = zero<T>();
    for (int t = 0; t < terms; ++t) {
        const float* col = s_col + t * kh_pad;
        for (int item = tid; item < xcols * (TH / B); item += threads) {
            const int q = item % xcols, r0 = item / xcols * B;
            // Tap block g: w[k] = X[r0 + kh_pad-1 - g - (B-1) + k][q].
            T acc[B], w[2 * B - 1];
#pragma unroll
            for (int r = 0; r < B; ++r)
                acc[r] = zero<T>();
#pragma unroll
            for (int k = 0; k < B - 1; ++k)
                w[k] = X[(r0 + kh_pad + k) * x_stride + q];
            for_tap_blocks<B>(
                kh_pad,
                kh,
                [&](int g) {
                    shift_window<B>(w);
#pragma unroll
                    for (int k = 0; k < B; ++k)
                        w[k] = X[(r0 + kh_pad - g - B + k) * x_stride + q];
                },
                [&](int g, int n) {
                    tap_block<B>(
                        acc, w, [&](int s) { return col[g + s]; }, n);
                });
#pragma unroll
            for (int r = 0; r < B; ++r)
                V[(r0 + r) * v_stride + padded<T>(q)] = acc[r];
        }
        __syncthreads();

        const float* row = s_row + t * kw_pad;
        const T* v = V + hr * v_stride;
        T acc[B], w[2 * B - 1];
#pragma unroll
        for (int k = 0; k < B; ++k)
            acc[k] = zero<T>();
            // Tap block jb: w[m] = V[hr][8 hx + kw_pad-1 - jb - (B-1) + m].
#pragma unroll
        for (int m = 0; m < B - 1; ++m)
            w[m] = v[padded<T>(hx * B + kw_pad + m)];
        for_tap_blocks<B>(
            kw_pad,
            kw,
            [&](int jb) {
                shift_window<B>(w);
#pragma unroll
                for (int m = 0; m < B; ++m)
                    w[m] = v[padded<T>(hx * B + kw_pad - jb - B + m)];
            },
            [&](int jb, int n) {
                tap_block<B>(
                    acc, w, [&](int s) { return row[jb + s]; }, n);
            });
        const Tap coef = coefs[t];
#pragma unroll
        for (int k = 0; k < B; ++k)
            mac(total[k], acc[k], coef);
        __syncthreads(); // V is rewritten by the next term, or by the outputs
    }

#pragma unroll
    for (int k = 0; k < B; ++k)
        V[hr * v_stride + padded<T>(hx * B + k)] = total[k];
    __syncthreads();
    T* dst = out + blockIdx.z * out_image_stride;
    for (int i = tid; i < TH * TW; i += threads) {
        const int r = i / TW, c = i % TW;
        if (o0 + r < rows && c0 + c < out_width)
            dst[static_cast<long long>(o0 + r) * out_width + c0 + c] =
                V[r * v_stride + padded<T>(c)];
    }
}

} // namespace fir2d_separable_kernels
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
