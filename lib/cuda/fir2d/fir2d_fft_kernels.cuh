/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR2D_FFT_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_FIR2D_FFT_KERNELS_CUH

// Device code of the 2D FIR by FFT (fir2d_fft_engine): the passes around cuFFT's
// transforms (the fused ones are in fir2d_fft_fused_kernels.cuh). Names:
//   kh, kw  kernel rows and columns      Fr, Fc  tile rows and columns
//   Lr = Fr - (kh-1), Lc = Fc - (kw-1): outputs per tile along rows and columns
//   g       a tile of the run: image g / per_image, then (tr, tc) row-major over the
//           image's tiles_r x tiles_c grid
//   slot    a complex tile in memory (Fr * Fc float2): tile g, or with real samples
//           (packed) tiles 2u (real part) and 2u + 1 (imaginary part) in slot u
// Tile (tr, tc) holds source position first + tr*Lr - (kh-1) + r, column
// col_offset + tc*Lc - (kw-1) + s at (r, s). Its circular convolution with the kernel
// (zero-padded to Fr x Fc) at (r, s) is the linear one wherever r >= kh-1 and
// s >= kw-1 (no index wraps); output (tr*Lr + q, tc*Lc + p) is at (kh-1 + q, kw-1 + p).
//
// Memory passes per tile sample: gather writes it (reading each source sample about
// (Fr*Fc)/(Lr*Lc) times, mostly from L2); the forward 2D FFT reads and writes it once
// per dimension (powers of two up to 4096: one shared-memory pass each); the product
// reads and writes it; the inverse as the forward; the crop reads the kept Lr x Lc:
// 6 reads and 6 writes of 8 bytes per tile sample. Tiles of 256 or 512 rows take the
// fused passes instead (fir2d_fft_fused_kernels.cuh).

#include "../common/device_math.cuh"

namespace gr {
namespace gpufilter {
namespace cuda {
namespace fir2d_fft_kernels {

// Blocks of 32 columns x 8 rows: a warp reads or writes 32 consecutive samples of
// one row; narrow tiles waste some lanes, but no thread divides per sample.
constexpr int block_cols = 32;
constexpr int block_rows = 8;
constexpr int threads = 256; // the product's 1D blocks

//! row_source (fir2d_geometry.h) in device types.
template <class D>
struct rows_view {
    const D* history;
    long long history_rows;
    const D* input;
    long long rows;
    int width;
    long long image_stride;

    //! x(pos, col) of image b: history only before image 0, as the source defines it.
    __device__ __forceinline__ D at(long long b, long long pos, long long col) const
    {
        if (col < 0 || col >= width)
            return zero<D>();
        if (pos >= 0 && pos < rows)
            return input[b * image_stride + pos * width + col];
        if (b == 0 && pos < 0 && pos >= -history_rows)
            return history[(pos + history_rows) * width + col];
        return zero<D>();
    }
};

struct tile_layout {
    int fr, fc;          // Fr, Fc
    long long tile;      // samples per slot, fr * fc
    int kh, kw;          // kernel rows and columns
    int lr, lc;          // Lr, Lc
    long long tiles_c;   // tiles per image along the columns
    long long per_image; // tiles per image: tiles_r * tiles_c
    long long total;     // tiles of the run
};

//! Where tile g's samples come from; b < 0 for g past the run (zeros).
struct tile_origin {
    long long b, tr, tc;

    __device__ __forceinline__ tile_origin(const tile_layout& lay, long long g)
    {
        if (g >= lay.total) {
            b = -1;
            tr = tc = 0;
            return;
        }
        b = g / lay.per_image;
        const long long rem = g - b * lay.per_image;
        tr = rem / lay.tiles_c;
        tc = rem - tr * lay.tiles_c;
    }
};

// Launches are 3D: x the columns of a tile (32 per block), y its rows (8 per block,
// each thread looping over rows_per_thread of them), z the slots or tiles of the
// batch (a loop past 65535). A thread finds its tile once (64-bit divisions) for all
// the rows it handles.
constexpr int rows_per_thread = 8;
constexpr unsigned max_grid = 65535;

template <class D>
__device__ __forceinline__ D
tile_sample(const rows_view<D>& src, const tile_origin& o, long long row, long long col)
{
    return o.b < 0 ? zero<D>() : src.at(o.b, row, col);
}

/*!
 * Fills slots u0 .. u0 + batch - 1 (the whole batch of the plan; tiles g >= total
 * with zeros, so that the transforms past the run's end see finite data).
 */
template <class D>
__global__ void __launch_bounds__(block_cols* block_rows)
    gather_tiles(rows_view<D> src,
                 long long first,
                 int col_offset,
                 tile_layout lay,
                 long long u0,
                 long long batch,
                 float2* __restrict__ tiles)
{
    constexpr bool real = sizeof(D) == sizeof(float);
    const int s = blockIdx.x * block_cols + threadIdx.x;
    if (s >= lay.fc)
        return;
    for (long long local = blockIdx.z; local < batch; local += gridDim.z) {
        const long long u = u0 + local;
        const tile_origin a(lay, real ? 2 * u : u);
        const long long row_a = first + a.tr * lay.lr - (lay.kh - 1);
        const long long col_a = col_offset + a.tc * lay.lc - (lay.kw - 1) + s;
        float2* tile = tiles + local * lay.tile + s;
        if constexpr (real) {
            const tile_origin b(lay, 2 * u + 1);
            const long long row_b = first + b.tr * lay.lr - (lay.kh - 1);
            const long long col_b = col_offset + b.tc * lay.lc - (lay.kw - 1) + s;
            for (int r = blockIdx.y * block_rows + threadIdx.y; r < lay.fr;
                 r += gridDim.y * block_rows)
                tile[static_cast<long long>(r) * lay.fc] =
                    make_float2(tile_sample(src, a, row_a + r, col_a),
                                tile_sample(src, b, row_b + r, col_b));
        } else {
            for (int r = blockIdx.y * block_rows + threadIdx.y; r < lay.fr;
                 r += gridDim.y * block_rows)
                tile[static_cast<long long>(r) * lay.fc] =
                    tile_sample(src, a, row_a + r, col_a);
        }
    }
}

/*!
 * spectra[s * bins + f] *= kernel[f] for the `batch` slots of a launch (bins: Fr*Fc).
 * The kernel's spectrum already holds 1/(Fr*Fc), so cuFFT's unscaled inverse gives
 * the convolution itself; it is read by every slot and stays in L2.
 */
__global__ void __launch_bounds__(threads)
    multiply_spectrum(float2* __restrict__ spectra,
                      const float2* __restrict__ kernel,
                      long long bins,
                      long long batch)
{
    const long long f = static_cast<long long>(blockIdx.x) * threads + threadIdx.x;
    if (f >= bins)
        return;
    const float2 h = kernel[f];
    for (long long s = blockIdx.y; s < batch; s += gridDim.y) {
        float2* x = spectra + s * bins + f;
        const float2 a = *x;
        *x = make_float2(fmaf(a.x, h.x, -a.y * h.y), fmaf(a.x, h.y, a.y * h.x));
    }
}

/*!
 * Writes the outputs of tiles g0 .. g0 + count - 1 (g0 the first tile of the
 * batch's first slot): output (o, c) of image b from tile sample (kh-1 + q,
 * kw-1 + p); column m = c + col_offset outside [0, full_cols) (full_cols = width +
 * kw - 1, the full convolution's columns) is exactly zero. Rows and columns past the
 * window (the unused ends of an image's last tiles) are not written.
 */
template <class D>
__global__ void __launch_bounds__(block_cols* block_rows)
    crop_tiles(const float2* __restrict__ tiles,
               tile_layout lay,
               long long g0,
               long long count,
               int width,
               int col_offset,
               int full_cols,
               long long out_rows,
               long long image_stride,
               D* __restrict__ out)
{
    constexpr bool real = sizeof(D) == sizeof(float);
    const int p = blockIdx.x * block_cols + threadIdx.x;
    if (p >= lay.lc)
        return;
    const long long at = (lay.kh - 1LL) * lay.fc + (lay.kw - 1) + p;
    for (long long local = blockIdx.z; local < count; local += gridDim.z) {
        const tile_origin o(lay, g0 + local);
        const long long c = o.tc * lay.lc + p;
        if (c >= width)
            continue;
        const long long m = c + col_offset;
        const bool inside = m >= 0 && m < full_cols;
        const long long o0 = o.tr * lay.lr; // the tile's first output row
        const int rows =
            out_rows - o0 < lay.lr ? static_cast<int>(out_rows - o0) : lay.lr;
        const float2* tile = tiles + (real ? local / 2 : local) * lay.tile + at;
        const bool imag = real && (local & 1);
        D* y = out + o.b * image_stride + o0 * width + c;
        for (int q = blockIdx.y * block_rows + threadIdx.y; q < rows;
             q += gridDim.y * block_rows) {
            D v = zero<D>();
            if (inside) {
                const float2 t = tile[static_cast<long long>(q) * lay.fc];
                if constexpr (real)
                    v = imag ? t.y : t.x;
                else
                    v = t;
            }
            y[static_cast<long long>(q) * width] = v;
        }
    }
}

} // namespace fir2d_fft_kernels
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
