/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR2D_DIRECT_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_FIR2D_DIRECT_KERNELS_CUH

// The direct 2D FIR (device code): output_window's sum (fir2d_geometry.h) over one
// piece of the kernel (at most max_piece_rows x max_piece_cols taps; the engine adds
// the pieces of a larger kernel).
//
// A block stages a tile of input rows, with the apron the kernel needs, in shared
// memory (Goorts's shared-memory tiles), then each thread computes R consecutive
// outputs of RY rows from registers. Per tile row it slides a window of 2R samples
// along the row (R new samples per group of R taps, as float4) and applies the group
// to every one of its RY outputs rows that this tile row feeds: R*R multiply-adds per
// row, the samples loaded once for all of them. A kernel row's taps are stored
// reversed and zero-padded to a multiple of R, so the groups need no bounds checks.
//
// Small kernels are bound by memory, not arithmetic: the tile is loaded as 16-byte
// words (when rows are 16-byte aligned), several loads in flight per thread, the
// taps' loads overlapping the tile's, and each thread stores its R outputs as float4s.
// Several rows a thread also cut the apron rows loaded per output row.

#include "../common/device_math.cuh"
#include "fir2d_geometry.h"
#include <type_traits>
#include <cstddef>

namespace gr {
namespace gpufilter {
namespace cuda {
namespace fir2d_direct {

constexpr int threads_x = 32; // threads along a row: each R outputs
constexpr int threads_y = 8;  // threads down the tile: each RY output rows
constexpr int threads = threads_x * threads_y;
constexpr int max_piece_rows = 16;
constexpr int max_piece_cols = 64;

//! Output rows of a block whose threads compute RY rows each.
template <int RY>
__host__ __device__ constexpr int block_rows()
{
    return threads_y * RY;
}

//! A row_source with device-typed pointers.
template <class T>
struct device_rows {
    const T* history;
    long history_rows;
    const T* input;
    long rows;
    int width;
    std::size_t image_stride;
};

//! One piece of the kernel: taps (i, j) of rows row0.., columns col0.. of the whole
//! kernel, in device memory as [piece row][padded column], reversed along a row.
struct piece_shape {
    int rows;
    int cols;        // taps of a row
    int padded_cols; // a multiple of R
};

template <class T>
__device__ __forceinline__ const T*
row_pointer(const device_rows<T>& src, int image, long pos)
{
    if (pos >= 0 && pos < src.rows)
        return src.input + image * src.image_stride + pos * src.width;
    if (image == 0 && pos < 0 && pos >= -src.history_rows)
        return src.history + (pos + src.history_rows) * src.width;
    return nullptr;
}

//! Shared-memory items per tile row, a multiple of 16 bytes (float4 loads).
template <class T, int R>
__host__ __device__ constexpr int tile_pitch(int padded)
{
    return (threads_x * R + padded + per16<T>() - 1) / per16<T>() * per16<T>();
}

template <class T, class Tap, int R, int RY>
__host__ __device__ constexpr std::size_t smem_bytes(const piece_shape& p)
{
    return static_cast<std::size_t>(block_rows<RY>() + p.rows - 1) *
               tile_pitch<T, R>(p.padded_cols) * sizeof(T) +
           static_cast<std::size_t>(p.rows) * p.padded_cols * sizeof(Tap);
}

//! Loads in flight per thread while the tile is staged.
constexpr int batch = 8;

/*!
 * Stages tile rows 0 .. tile_rows-1 (stream positions pos0.. of `image`), columns
 * col_start .. col_start + tile_cols - 1, into `tile`. V items per load: per16<T>()
 * (rows 16-byte aligned, width a multiple of V) or 1.
 */
template <int V, class T>
__device__ __forceinline__ void stage(T* tile,
                                      int pitch,
                                      const device_rows<T>& src,
                                      int image,
                                      long pos0,
                                      int tile_rows,
                                      long col_start,
                                      int tile_cols,
                                      int width)
{
    using word = typename std::conditional<V == 1, T, float4>::type;
    // Words start at an aligned column: the first `shift` items fall before the tile.
    const int shift = static_cast<int>(((col_start % V) + V) % V);
    const long first_col = col_start - shift;
    const int words = (shift + tile_cols + V - 1) / V;
    const int total = tile_rows * words;
    for (int n0 = threadIdx.y * threads_x + threadIdx.x; n0 < total;
         n0 += batch * threads) {
        word w[batch];
        int r[batch], q[batch];
#pragma unroll
        for (int b = 0; b < batch; ++b) {
            const int n = n0 + b * threads;
            r[b] = n / words;
            q[b] = n - r[b] * words;
            const long col = first_col + static_cast<long>(q[b]) * V;
            const T* row = n < total ? row_pointer(src, image, pos0 + r[b]) : nullptr;
            if (row && col >= 0 && col < width)
                w[b] = *reinterpret_cast<const word*>(row + col);
            else
                w[b] = word{};
        }
#pragma unroll
        for (int b = 0; b < batch; ++b) {
            if (n0 + b * threads < total) {
                const T* items = reinterpret_cast<const T*>(&w[b]);
                T* dst = tile + static_cast<std::size_t>(r[b]) * pitch;
#pragma unroll
                for (int e = 0; e < V; ++e) {
                    const int t = q[b] * V + e - shift;
                    if (t >= 0 && t < pitch)
                        dst[t] = items[e];
                }
            }
        }
    }
}

//! Whether the kernel runs with its registers capped for 3 blocks an SM: the
//! four-row blocks of real x real and complex x complex (measured faster, more warps
//! hiding the tile's loads); complex x real ran slower capped.
template <class T, class Tap, int RY>
__host__ __device__ constexpr bool capped()
{
    return RY == 4 && std::is_same<T, Tap>::value;
}

/*!
 * Adds tile row u's samples (x: this thread's first) times the taps of kernel row
 * i = y + rows - 1 - u to output row y, for each y with such a kernel row (guarded:
 * some have none).
 */
template <bool guarded, int R, int RY, class T, class Tap>
__device__ __forceinline__ void
tile_row(T (&acc)[RY][R], const T* x, const Tap* h, const piece_shape& piece, int u)
{
    const int i0 = piece.rows - 1 - u; // kernel row of output row 0
    T xw[2 * R];
    load_aligned<R>(*reinterpret_cast<T(*)[R]>(xw), x);
    for (int g = 0; g < piece.padded_cols; g += R) {
        load_aligned<R>(*reinterpret_cast<T(*)[R]>(xw + R), x + g + R);
#pragma unroll
        for (int y = 0; y < RY; ++y) {
            const int i = i0 + y;
            if (!guarded || (i >= 0 && i < piece.rows)) {
                Tap hg[R];
                load_aligned<R>(hg, h + i * piece.padded_cols + g);
#pragma unroll
                for (int s = 0; s < R; ++s)
#pragma unroll
                    for (int r = 0; r < R; ++r)
                        mac(acc[y][r], xw[r + s], hg[s]);
            }
        }
#pragma unroll
        for (int r = 0; r < R; ++r)
            xw[r] = xw[r + R];
    }
}

/*!
 * Grid: x over output columns (threads_x * R each), y over output rows
 * (block_rows<RY>() each), z over images. `first` and `col_offset` already include
 * the piece's place in the kernel (first - row0, col_offset - col0); accumulate: add
 * to out (every piece after the first). vector_in: every input row 16-byte aligned
 * and the width a multiple of per16<T>(); vector_out: the same of the output rows.
 */
template <class T, class Tap, int R, int RY>
__device__ __forceinline__ void piece_body(device_rows<T> src,
                                           int images,
                                           long first,
                                           long out_rows,
                                           int out_width,
                                           int col_offset,
                                           std::size_t out_image_stride,
                                           piece_shape piece,
                                           const Tap* __restrict__ taps,
                                           T* __restrict__ out,
                                           bool accumulate,
                                           bool vector_in,
                                           bool vector_out)
{
    extern __shared__ float4 smem_words[];
    const int pitch = tile_pitch<T, R>(piece.padded_cols);
    const int tile_rows = block_rows<RY>() + piece.rows - 1;
    T* tile = reinterpret_cast<T*>(smem_words);
    Tap* h = reinterpret_cast<Tap*>(tile + static_cast<std::size_t>(tile_rows) * pitch);

    // The taps (at most 4 a thread) come to registers now, to shared memory once the
    // first tile's loads are on their way: their latency overlaps.
    const int tid = threadIdx.y * threads_x + threadIdx.x;
    const int tap_count = piece.rows * piece.padded_cols;
    static_assert(max_piece_rows * max_piece_cols <= 4 * threads, "4 taps a thread");
    Tap tap_regs[4];
#pragma unroll
    for (int q = 0; q < 4; ++q)
        if (tid + q * threads < tap_count)
            tap_regs[q] = taps[tid + q * threads];

    const long o0 = static_cast<long>(blockIdx.y) * block_rows<RY>();
    const long c0 = static_cast<long>(blockIdx.x) * threads_x * R;
    // Tile column t holds input column col_start + t; tile row r holds stream
    // position first + o0 - (rows - 1) + r.
    const long col_start = c0 + col_offset - (piece.cols - 1);
    const int tile_cols = threads_x * R + piece.padded_cols;

    for (int image = blockIdx.z; image < images; image += gridDim.z) {
        __syncthreads(); // the previous image's tile is read
        const long pos0 = first + o0 - (piece.rows - 1);
        if (vector_in)
            stage<per16<T>()>(tile,
                              pitch,
                              src,
                              image,
                              pos0,
                              tile_rows,
                              col_start,
                              tile_cols,
                              src.width);
        else
            stage<1>(tile,
                     pitch,
                     src,
                     image,
                     pos0,
                     tile_rows,
                     col_start,
                     tile_cols,
                     src.width);
        if (image == static_cast<int>(blockIdx.z))
#pragma unroll
            for (int q = 0; q < 4; ++q)
                if (tid + q * threads < tap_count)
                    h[tid + q * threads] = tap_regs[q];
        __syncthreads();

        T acc[RY][R];
#pragma unroll
        for (int y = 0; y < RY; ++y)
#pragma unroll
            for (int r = 0; r < R; ++r)
                acc[y][r] = zero<T>();
        // Output row y of this thread takes tile row u (from its first) with kernel
        // row i = y + rows - 1 - u: every y for the middle rows of the tile, which
        // then need no checks.
        for (int u = 0; u < RY + piece.rows - 1; ++u) {
            const T* x = tile + static_cast<std::size_t>(threadIdx.y * RY + u) * pitch +
                         threadIdx.x * R;
            if (u >= RY - 1 && u < piece.rows)
                tile_row<false>(acc, x, h, piece, u);
            else
                tile_row<true>(acc, x, h, piece, u);
        }

        const long c = c0 + threadIdx.x * R;
#pragma unroll
        for (int y = 0; y < RY; ++y) {
            const long o = o0 + threadIdx.y * RY + y;
            if (o >= out_rows)
                break;
            T* dst = out + image * out_image_stride + o * out_width + c;
            if (vector_out && c + R <= out_width) {
                if (accumulate) {
                    T old[R];
                    load_aligned<R>(old, dst);
#pragma unroll
                    for (int r = 0; r < R; ++r)
                        acc[y][r] = add(acc[y][r], old[r]);
                }
                float4* d = reinterpret_cast<float4*>(dst);
                const float4* a = reinterpret_cast<const float4*>(acc[y]);
#pragma unroll
                for (int q = 0; q < static_cast<int>(R * sizeof(T) / 16); ++q)
                    d[q] = a[q];
            } else {
#pragma unroll
                for (int r = 0; r < R; ++r)
                    if (c + r < out_width)
                        dst[r] = accumulate ? add(acc[y][r], dst[r]) : acc[y][r];
            }
        }
    }
}

#define GPUFILTER_FIR2D_DIRECT_PARAMS                                         \
    device_rows<T> src, int images, long first, long out_rows, int out_width, \
        int col_offset, std::size_t out_image_stride, piece_shape piece,      \
        const Tap *__restrict__ taps, T *__restrict__ out, bool accumulate,   \
        bool vector_in, bool vector_out
#define GPUFILTER_FIR2D_DIRECT_ARGS                                                     \
    src, images, first, out_rows, out_width, col_offset, out_image_stride, piece, taps, \
        out, accumulate, vector_in, vector_out

//! piece_body as a kernel, the compiler's choice of registers...
template <class T, class Tap, int R, int RY>
__global__ void __launch_bounds__(threads) direct_piece(GPUFILTER_FIR2D_DIRECT_PARAMS)
{
    piece_body<T, Tap, R, RY>(GPUFILTER_FIR2D_DIRECT_ARGS);
}

//! ...or capped for 3 blocks an SM (see capped()).
template <class T, class Tap, int R, int RY>
__global__ void __launch_bounds__(threads, 3)
    direct_piece_capped(GPUFILTER_FIR2D_DIRECT_PARAMS)
{
    piece_body<T, Tap, R, RY>(GPUFILTER_FIR2D_DIRECT_ARGS);
}

#undef GPUFILTER_FIR2D_DIRECT_PARAMS
#undef GPUFILTER_FIR2D_DIRECT_ARGS

//! The kernel for a blocking (the two above have the same signature).
template <class T, class Tap, int R, int RY>
constexpr auto direct_kernel()
{
    if constexpr (capped<T, Tap, RY>())
        return &direct_piece_capped<T, Tap, R, RY>;
    else
        return &direct_piece<T, Tap, R, RY>;
}

} // namespace fir2d_direct
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
