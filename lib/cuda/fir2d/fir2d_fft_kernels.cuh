/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR2D_FFT_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_FIR2D_FFT_KERNELS_CUH

// Device code of the 2D FIR by FFT (fir2d_fft_engine): the passes around cuFFT's
// transforms, and for tiles of 256 or 512 rows the fused column pass. Names:
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
// 6 reads and 6 writes of 8 bytes per tile sample. With tiles of 256 or 512 rows the
// column FFTs, the product and the column inverse are one read and one write
// (column_pass): 4 reads and 4 writes. For a 4096 x 4096 real image and a 25 x 25
// kernel (512 x 512 tiles, two real tiles per complex one: 0.64 tile samples per
// output) that is about 50 bytes moved per output, input and output included; 0.30
// ms on an H200, 2.8 TB/s.

#include "../common/device_math.cuh"
#include <cstddef>

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

// The fused column pass (column_pass): tiles of 256 or 512 rows, 16 columns per
// block (a 128-byte row segment per load), 16 threads per column.
constexpr int col_block = 16;
constexpr int col_threads = 256;

//! Shared memory of column_pass<fr>: fr twiddles and 16 x fr/16 x 16 exchanged
//! samples.
inline std::size_t column_pass_bytes(int fr)
{
    return std::size_t(fr) * (1 + col_block) * sizeof(float2);
}

__device__ __forceinline__ float2 cmul(float2 a, float2 b)
{
    return make_float2(fmaf(a.x, b.x, -a.y * b.y), fmaf(a.x, b.y, a.y * b.x));
}

constexpr int reverse_bits(int i, int bits)
{
    int r = 0;
    for (int b = 0; b < bits; ++b)
        r |= ((i >> b) & 1) << (bits - 1 - b);
    return r;
}

constexpr int log2_of(int n) { return n <= 1 ? 0 : 1 + log2_of(n / 2); }

//! tw[m] = exp(-2 pi i m / fr), or its conjugate.
template <bool inverse>
__device__ __forceinline__ float2 twiddle(const float2* tw, int m)
{
    const float2 w = tw[m];
    return make_float2(w.x, inverse ? -w.y : w.y);
}

//! In-register N-point DFT of v (exp(-2 pi i nk / N), or + with `inverse`), in
//! natural order, radix 2; tw: the fr-point twiddles (N divides fr). Every index is
//! a constant once unrolled, so v stays in registers.
template <int N, int FR, bool inverse>
__device__ __forceinline__ void dft(float2 (&v)[N], const float2* tw)
{
    constexpr int bits = log2_of(N);
#pragma unroll
    for (int i = 0; i < N; ++i) {
        const int j = reverse_bits(i, bits);
        if (j > i) {
            const float2 t = v[i];
            v[i] = v[j];
            v[j] = t;
        }
    }
#pragma unroll
    for (int half = 1; half < N; half *= 2) {
#pragma unroll
        for (int j = 0; j < N / 2; ++j) {
            const int k = j & (half - 1);
            const int i0 = ((j - k) << 1) + k;
            const float2 a = v[i0];
            const float2 b =
                k == 0 ? v[i0 + half]
                       : cmul(twiddle<inverse>(tw, k * (FR / (2 * half))), v[i0 + half]);
            v[i0] = make_float2(a.x + b.x, a.y + b.y);
            v[i0 + half] = make_float2(a.x - b.x, a.y - b.y);
        }
    }
}

/*!
 * The column half of the 2D convolution, in one pass over tiles of FR rows (their
 * rows already transformed): for each of `batch` slots, the FFT along each column,
 * the product with the kernel's spectrum and the inverse FFT, as (FR/16) x 16
 * (four-step: DFTs in registers, one exchange through shared memory each way). This
 * replaces cuFFT's two column passes and the product's pass. Thread (c, t) of a
 * block: column c of the block's 16, t its part of the column: rows 16 n1 + t, and
 * in the middle the frequencies k1 = t + 16 j (j < FR/256) of the first step. Grid:
 * x the groups of 16 columns, y the slots (a loop past 65535).
 */
template <int FR>
__global__ void __launch_bounds__(col_threads, FR == 256 ? 2 : 1)
    column_pass(float2* __restrict__ tiles,
                const float2* __restrict__ kernel,
                int fc,
                long long tile,
                long long batch)
{
    constexpr int N1 = FR / 16; // the first step's DFT size; the second's is 16
    constexpr int J = N1 / 16;  // first-step frequencies per thread in the second
    static_assert(FR % 256 == 0, "16 threads per column, 16-point second step");
    extern __shared__ float2 shared[];
    float2* tw = shared;                                               // FR twiddles
    auto ex = reinterpret_cast<float2(*)[N1][col_block]>(shared + FR); // [16][N1][16]
    for (int m = threadIdx.x; m < FR; m += col_threads) {
        float sn, cs;
        sincospif(-2.0f * m / FR, &sn, &cs);
        tw[m] = make_float2(cs, sn);
    }
    __syncthreads();
    const int c = threadIdx.x % col_block;
    const int t = threadIdx.x / col_block;
    const int col = blockIdx.x * col_block + c;
    const bool live = col < fc;
    for (long long s = blockIdx.y; s < batch; s += gridDim.y) {
        float2* x = tiles + s * tile + col;
        {
            float2 v[N1];
#pragma unroll
            for (int n1 = 0; n1 < N1; ++n1)
                v[n1] = live ? x[static_cast<long long>(16 * n1 + t) * fc]
                             : make_float2(0.0f, 0.0f);
            dft<N1, FR, false>(v, tw);
            __syncthreads(); // the previous slot's reads of ex
#pragma unroll
            for (int k1 = 0; k1 < N1; ++k1)
                ex[t][k1][c] = k1 == 0 ? v[0] : cmul(v[k1], twiddle<false>(tw, t * k1));
        }
        __syncthreads();
#pragma unroll
        for (int j = 0; j < J; ++j) {
            const int k1 = t + 16 * j;
            float2 u[16];
#pragma unroll
            for (int n2 = 0; n2 < 16; ++n2)
                u[n2] = ex[n2][k1][c];
            dft<16, FR, false>(u, tw); // u[k2] = X[k1 + N1 k2]
#pragma unroll
            for (int k2 = 0; k2 < 16; ++k2)
                u[k2] =
                    cmul(u[k2],
                         live ? kernel[static_cast<long long>(k1 + N1 * k2) * fc + col]
                              : make_float2(0.0f, 0.0f));
            // The inverse in the mirror order: over k2 (giving m2), twist, exchange,
            // over k1 (giving m1): z[16 m1 + m2] at thread m2, where its rows came
            // from. Each thread reads and writes only its own k1 here.
            dft<16, FR, true>(u, tw);
#pragma unroll
            for (int m2 = 0; m2 < 16; ++m2)
                ex[m2][k1][c] = m2 == 0 ? u[0] : cmul(u[m2], twiddle<true>(tw, m2 * k1));
        }
        __syncthreads();
        float2 v[N1];
#pragma unroll
        for (int k1 = 0; k1 < N1; ++k1)
            v[k1] = ex[t][k1][c];
        dft<N1, FR, true>(v, tw);
        if (live) {
#pragma unroll
            for (int m1 = 0; m1 < N1; ++m1)
                x[static_cast<long long>(16 * m1 + t) * fc] = v[m1];
        }
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
