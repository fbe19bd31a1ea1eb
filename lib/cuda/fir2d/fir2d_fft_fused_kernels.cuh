/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR2D_FFT_FUSED_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_FIR2D_FFT_FUSED_KERNELS_CUH

// The 2D FIR's fused FFT passes (fir2d_fft_engine), on the project's block FFT
// (block_fft.cuh); names and tile geometry as in fir2d_fft_kernels.cuh. Tiles of 256
// or 512 rows take one pass along the columns (FFT, product with the kernel's
// spectrum, inverse FFT); where the tile's columns are a power of two from
// min_row_size to max_row_size the row FFTs are kernels of their own too: the forward
// one gathers its samples straight from the source, the inverse one writes the
// cropped outputs. A tile sample then crosses device memory in three passes (written;
// read and written; read, kept rows only) instead of six, or four with cuFFT's rows.
// For a 4096 x 4096 real image and a 51 x 51 kernel (512 x 512 tiles) that is about
// 28 bytes moved per output, input and output included: 0.275 ms on an H200, 1.7 TB/s
// (36% of its HBM's). The block FFT's shared-memory stages and their barriers bound
// it, not device memory.

#include "../common/block_fft.cuh"
#include "fir2d_fft_kernels.cuh"
#include <type_traits>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {
namespace cuda {
namespace fir2d_fft_kernels {

constexpr int max_col_block = 16; // columns per block at most: 128-byte row segments
constexpr int min_row_size = 32;  // the row passes' sizes
constexpr int max_row_size = 4096;

//! Threads of column_pass<fr, cb>: one radix-16 butterfly each. Blocks per
//! multiprocessor the registers are set for: 80 registers a thread up to 256 threads,
//! 128 at 512 (fewer spill).
__host__ __device__ constexpr int column_threads(int fr, int cb) { return cb * fr / 16; }
__host__ __device__ constexpr int column_min_blocks(int fr, int cb)
{
    return column_threads(fr, cb) <= 256 ? 768 / column_threads(fr, cb) : 1;
}
//! Shared memory of column_pass<fr, cb>: its cb columns staged (rows padded to cb + 1
//! for the banks), or in the block FFT's layout (cb * padded_size(fr), no more).
inline std::size_t column_pass_bytes(int fr, int cb)
{
    return std::size_t(fr) * (cb + 1) * sizeof(float2);
}

//! Rows per block of the row passes over tiles of fc columns: 256 threads, one
//! radix-16 butterfly each.
__host__ __device__ constexpr int row_batch(int fc) { return 4096 / fc; }
__host__ __device__ constexpr int row_threads(int fc) { return row_batch(fc) * fc / 16; }
//! 80 registers a thread: the least that does not spill.
constexpr int row_min_blocks = 3;
inline std::size_t row_pass_bytes(int fc)
{
    return std::size_t(row_batch(fc)) * block_fft::padded_size(fc) * sizeof(float2);
}

//! f(std::integral_constant<int, FC>{}) for a power of two fc in [min_row_size,
//! max_row_size].
template <class F>
void with_row_size(int fc, F&& f)
{
    switch (fc) {
    case 32:
        return f(std::integral_constant<int, 32>{});
    case 64:
        return f(std::integral_constant<int, 64>{});
    case 128:
        return f(std::integral_constant<int, 128>{});
    case 256:
        return f(std::integral_constant<int, 256>{});
    case 512:
        return f(std::integral_constant<int, 512>{});
    case 1024:
        return f(std::integral_constant<int, 1024>{});
    case 2048:
        return f(std::integral_constant<int, 2048>{});
    case 4096:
        return f(std::integral_constant<int, 4096>{});
    default:
        throw std::logic_error("2D FFT FIR: no row kernel for " + std::to_string(fc) +
                               " columns");
    }
}

/*!
 * The column half of the 2D convolution over tiles of FR rows whose rows are already
 * transformed: for each of `batch` slots, the FFT of each column, the product with
 * the kernel's spectrum and the inverse FFT. A block takes CB columns (8 or 16): it
 * stages them in shared memory (coalesced row segments), runs their forward
 * transforms, multiplies and transforms back (block_fft::convolve, as the 1D fused
 * FIR does), and writes the columns back through the staging layout. `spectrum`:
 * column-major, FR points per column, zero columns up to a multiple of max_col_block.
 * Grid: x the groups of CB columns, y the slots (a loop past 65535).
 */
template <int FR, int CB>
__global__ void __launch_bounds__(column_threads(FR, CB), column_min_blocks(FR, CB))
    column_pass(float2* __restrict__ tiles,
                const float2* __restrict__ spectrum,
                const float2* __restrict__ twiddles,
                int fc,
                long long tile,
                long long batch)
{
    namespace bf = block_fft;
    constexpr int T = column_threads(FR, CB);
    constexpr int stride = CB + 1; // a staged row, padded
    extern __shared__ float2 buf[];
    const float2* tw_fwd = twiddles;
    const float2* tw_inv = twiddles + block_fft_plan{ FR, true }.twiddle_count();
    // Point n of column g, staged: row n of the block's columns at n * stride.
    auto staged = [&](int i) -> float2& { return buf[(i % FR) * stride + i / FR]; };

    const int col0 = blockIdx.x * CB;
    const float2* h = spectrum + static_cast<long long>(col0) * FR;
    for (long long s = blockIdx.y; s < batch; s += gridDim.y) {
        float2* x = tiles + s * tile + col0;
        for (int e = threadIdx.x; e < FR * CB; e += T) {
            const int n = e / CB, g = e % CB;
            buf[n * stride + g] = col0 + g < fc ? x[static_cast<long long>(n) * fc + g]
                                                : make_float2(0.0f, 0.0f);
        }
        __syncthreads();
        // The columns' transforms read and write the staging layout in buf itself.
        bf::convolve<FR, T, CB, bf::io::in_buf, bf::io::in_buf>(
            buf,
            [&](int i) { return staged(i); },
            [&](int j, int r) { return __ldg(h + j + r * (FR / 16)); },
            [&](int i, float2 y) { staged(i) = bf::conj(y); },
            tw_fwd,
            tw_inv);
        for (int e = threadIdx.x; e < FR * CB; e += T) {
            const int n = e / CB, g = e % CB;
            if (col0 + g < fc)
                x[static_cast<long long>(n) * fc + g] = buf[n * stride + g];
        }
        __syncthreads(); // before the next slot's staging
    }
}

/*!
 * Gathers and transforms rows of slots u0 .. u0 + batch - 1 (as gather_tiles, then
 * the forward FFT of each row, plan {FC, true}): block x takes rows
 * row_batch(FC) * x ...; stage 0 reads the source, the last stage writes the slot.
 */
template <int FC, class D>
__global__ void __launch_bounds__(row_threads(FC), row_min_blocks)
    rows_forward(rows_view<D> src,
                 long long first,
                 int col_offset,
                 tile_layout lay,
                 long long u0,
                 long long batch,
                 const float2* __restrict__ twiddles,
                 float2* __restrict__ tiles)
{
    namespace bf = block_fft;
    constexpr bool real = sizeof(D) == sizeof(float);
    constexpr int RB = row_batch(FC), T = row_threads(FC);
    constexpr int S = block_fft_plan{ FC, true }.stages();
    extern __shared__ float2 buf[];
    const int r0 = blockIdx.x * RB;
    for (long long local = blockIdx.y; local < batch; local += gridDim.y) {
        const long long u = u0 + local;
        const tile_origin a(lay, real ? 2 * u : u);
        const tile_origin b(lay, real ? 2 * u + 1 : lay.total);
        const long long row_a = first + a.tr * lay.lr - (lay.kh - 1) + r0;
        const long long col_a = col_offset + a.tc * lay.lc - (lay.kw - 1);
        const long long row_b = first + b.tr * lay.lr - (lay.kh - 1) + r0;
        const long long col_b = col_offset + b.tc * lay.lc - (lay.kw - 1);
        // Staged first (a plain loop): the stage's load hook, unrolled over its
        // points, would hold every source index in registers at once.
        for (int i = threadIdx.x; i < RB * FC; i += T) {
            const int r = i / FC, c = i % FC;
            if constexpr (real)
                buf[bf::slot(i)] = make_float2(tile_sample(src, a, row_a + r, col_a + c),
                                               tile_sample(src, b, row_b + r, col_b + c));
            else
                buf[bf::slot(i)] = tile_sample(src, a, row_a + r, col_a + c);
        }
        __syncthreads();
        bf::run_stages<FC, true, T, 0, S - 1, RB>(buf, twiddles);
        using last = bf::stage<FC, true, S - 1, T, RB>;
        typename last::values v;
        last::compute(
            v, [&](int i) { return buf[bf::slot(i)]; }, twiddles);
        float2* x = tiles + local * lay.tile + static_cast<long long>(r0) * FC;
        last::store(v, [&](int i, float2 y) { x[i] = y; });
        __syncthreads(); // before the next slot's stage 0 writes
    }
}

//! Where a tile's kept rows go: crop_tiles' rules, for one tile.
template <class D>
struct crop_target {
    D* y;           // the output of the tile's first kept row in this block, column 0
    long long c0;   // the tile's first output column
    long long rows; // output rows left from the block's first kept row (<= 0: none)

    __device__ __forceinline__ crop_target(const tile_origin& o,
                                           const tile_layout& lay,
                                           int q0,
                                           long long out_rows,
                                           long long image_stride,
                                           int width,
                                           D* out)
    {
        const long long o0 = o.tr * lay.lr + q0;
        c0 = o.tc * lay.lc;
        rows = o.b < 0 ? 0 : out_rows - o0;
        y = out + (o.b < 0 ? 0 : o.b * image_stride + o0 * width);
    }
};

/*!
 * The inverse row FFTs of the kept rows kh-1 ... of the slots holding tiles g0 ..
 * g0 + count - 1, each written straight to its outputs as crop_tiles does: block x
 * takes kept rows row_batch(FC) * x ... (the inverse as conj(forward(conj(.)))).
 */
template <int FC, class D>
__global__ void __launch_bounds__(row_threads(FC), row_min_blocks)
    rows_inverse(const float2* __restrict__ tiles,
                 tile_layout lay,
                 long long g0,
                 long long count,
                 int width,
                 int col_offset,
                 int full_cols,
                 long long out_rows,
                 long long image_stride,
                 const float2* __restrict__ twiddles,
                 D* __restrict__ out)
{
    namespace bf = block_fft;
    constexpr bool real = sizeof(D) == sizeof(float);
    constexpr int RB = row_batch(FC), T = row_threads(FC);
    constexpr int S = block_fft_plan{ FC, true }.stages();
    extern __shared__ float2 buf[];
    const int q0 = blockIdx.x * RB;
    const int rows_here = min(RB, lay.lr - q0);
    const long long slots = real ? (count + 1) / 2 : count;
    auto put = [&](const crop_target<D>& t, int r, int p, D v) {
        const long long c = t.c0 + p;
        if (r >= t.rows || c >= width)
            return;
        const long long m = c + col_offset;
        t.y[static_cast<long long>(r) * width + c] =
            m >= 0 && m < full_cols ? v : zero<D>();
    };
    for (long long local = blockIdx.y; local < slots; local += gridDim.y) {
        const float2* x =
            tiles + local * lay.tile + static_cast<long long>(lay.kh - 1 + q0) * FC;
        {
            using st = bf::stage<FC, true, 0, T, RB>;
            typename st::values v;
            st::compute(
                v,
                [&](int i) {
                    return i / FC < rows_here ? bf::conj(x[i]) : make_float2(0.0f, 0.0f);
                },
                twiddles);
            st::store(v, [&](int i, float2 y) { buf[bf::slot(i)] = y; });
            __syncthreads();
        }
        bf::run_stages<FC, true, T, 1, S, RB>(buf, twiddles);
        const long long ga = g0 + (real ? 2 * local : local);
        const crop_target<D> ta(
            tile_origin(lay, ga), lay, q0, out_rows, image_stride, width, out);
        const crop_target<D> tb(
            tile_origin(lay, real && 2 * local + 1 < count ? ga + 1 : lay.total),
            lay,
            q0,
            out_rows,
            image_stride,
            width,
            out);
        // Cropped from shared memory (a plain loop), for the registers as above.
        for (int i = threadIdx.x; i < rows_here * FC; i += T) {
            const int r = i / FC, p = i % FC - (lay.kw - 1);
            if (p < 0)
                continue;
            const float2 y = bf::conj(buf[bf::slot(i)]);
            if constexpr (real) {
                put(ta, r, p, y.x);
                put(tb, r, p, y.y);
            } else {
                put(ta, r, p, y);
            }
        }
        __syncthreads(); // before the next slot's stage 0 writes
    }
}

} // namespace fir2d_fft_kernels
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
