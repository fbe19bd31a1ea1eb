/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR2D_FFT_ENGINE_H
#define INCLUDED_GPUFILTER_CUDA_FIR2D_FFT_ENGINE_H

#include "../common/resources.h"
#include "../common/sample_types.h"
#include "fir2d_algorithm.h"
#include <cstddef>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

//! The smallest n' >= max(n, 1) whose only prime factors are 2, 3, 5 and 7: the
//! sizes cuFFT transforms fastest (others take Bluestein's slower path).
long fir2d_fft_nice_size(long n);

//! An FFT tile: Fr rows x Fc columns.
struct fir2d_fft_tile_shape {
    int rows = 0;
    int cols = 0;
};

/*!
 * \brief The tile shape for a kh x kw kernel and windows of at most out_rows x
 * out_cols outputs over `images` images (2D overlap-save: a tile gives
 * (Fr - kh + 1) x (Fc - kw + 1) outputs). Each side is a nice size from
 * max(kernel side, 2) (16 rows at least where the window allows) up to the one that
 * holds the whole window's side; the pick has the least modelled memory traffic
 *
 *     slots * (Fr * Fc + 4096) * (4 + 4 * (passes(Fr) + passes(Fc)))
 *
 * slots: the complex tiles transformed (tiles along rows x along columns x images,
 * halved when two real tiles share one complex tile: `packed`); per tile sample the
 * gather writes once, the product reads and writes, the crop reads about once, and
 * each cuFFT pass over one dimension reads and writes it in the forward and the
 * inverse transform; 4096 samples stand for a tile's fixed cost. passes(n): 1 for
 * powers of two up to 4096, 1.85 for other sizes; tiles of 256 or 512 rows take the
 * fused column pass instead (column FFT, product and inverse in one pass:
 * passes(Fr) = 0). Measured on an H200 (CUDA 13.0, 4096 x 4096 real image, two real
 * tiles per complex one): 33-35 ps per complex tile sample at 256^2 ... 4096^2 with
 * cuFFT's 2D transforms, 44 at 128^2, 44-63 at nice sizes such as 1050^2, 2100^2,
 * 2800 x 4860 and 4860^2. Tiles of 256 or 512 rows by a power of two from 32 to 4096
 * columns take the fused passes along both sides (block FFT), costed instead as
 *
 *     slots * ((Fr * Fc + 4096) * a + Lr * Fc * b)
 *
 * (a, b) = (4.2, 2.8) at 256 rows, (3.7, 3.6) at 512: the forward rows and the column
 * pass per tile sample, the inverse rows and the outputs per kept row's sample
 * (fitted on an H200, 4096^2 real and complex images, kernels 15 to 201, within 13%:
 * 21-25 ps per complex tile sample at 256 x 256 ... 512 x 1024, where cuFFT's rows
 * and a fused column pass took 26-28).
 * Ties go to the smaller tile.
 */
fir2d_fft_tile_shape fir2d_fft_tiles(int kernel_rows,
                                     int kernel_cols,
                                     long out_rows,
                                     long out_cols,
                                     long images,
                                     bool packed);

//! What the tests (and a benchmark) may force; the defaults are the engine's rules.
struct fir2d_fft_tuning {
    int tile_rows = 0; //!< Fr; 0: fir2d_fft_tiles. Otherwise >= max(kh, 2).
    int tile_cols = 0; //!< Fc; 0: fir2d_fft_tiles. Otherwise >= max(kw, 2).
    int max_batch = 0; //!< complex tiles per cuFFT launch at most; 0: by bytes only
    std::size_t max_tile_bytes = std::size_t(512) << 20; //!< the tile buffer's cap
    //! With the fused column pass, cuFFT's row transforms even where the block FFT's
    //! row passes apply (tiles of a power of two from 32 to 4096 columns).
    bool cufft_rows = false;
    //! Columns per block of the fused column pass: 8 or 16; 0: the engine's choice.
    int column_block = 0;
};

/*!
 * \brief 2D FIR by FFT: 2D overlap-save, tiles of Fr x Fc over rows and columns.
 *
 * Tile (tr, tc) of an image holds source rows first + tr*Lr - (kh-1) + r and
 * columns col_offset + tc*Lc - (kw-1) + s (r < Fr, s < Fc; Lr = Fr - kh + 1,
 * Lc = Fc - kw + 1) and yields outputs tr*Lr ... + Lr-1 x tc*Lc ... + Lc-1: its
 * circular convolution with the kernel is the linear one from row kh-1 and column
 * kw-1 on. Each run gathers the tiles of all images, transforms them in batches of
 * 2D C2C FFTs, multiplies them by the kernel's spectrum (computed once, here, with
 * the 1/(Fr*Fc) of the inverse folded in), inverts and crops. Tiles of 256 or 512
 * rows take one fused pass along the columns (FFT, product, inverse FFT in shared
 * memory, the project's block FFT) and, at a power of two from 32 to 4096 columns,
 * fused passes along the rows too (the forward gathering from the source, the
 * inverse writing the outputs; else cuFFT's 1D transforms): three passes over the
 * tiles instead of six (fir2d_fft_fused_kernels.cuh). Real samples go two tiles to a
 * complex one (tile a + j tile b): the kernel is real, so the real and imaginary parts of
 * the result are the two convolutions, and C2C at powers of two ran about twice as fast
 * per real sample as cuFFT's R2C/C2R of whole rows. Rounding is norm-wise (~1e-7 of ||k||
 * ||x|| per output, whatever the output's own size), unlike the direct form's.
 *
 * The constructor makes every buffer and cuFFT plan (one per batch count, sharing one
 * work area); run() allocates and plans nothing. One object holds one set of tiles:
 * runs on it are ordered (one stream at a time).
 */
template <class T, class Tap>
class fir2d_fft_engine final : public fir2d_algorithm<T, Tap>
{
    static_assert(is_complex_v<T> || !is_complex_v<Tap>,
                  "complex taps need complex samples");

public:
    //! On the current device. Throws std::invalid_argument for an empty or malformed
    //! kernel, limits below 1 row / 1 column / 1 image, or a tuning it cannot use.
    fir2d_fft_engine(const kernel2d<Tap>& k,
                     const fir2d_limits& lim,
                     const fir2d_fft_tuning& tuning = {});

    //! Throws std::invalid_argument where src or win pass the limits (input width,
    //! output rows, images).
    void run(const row_source<T>& src,
             const output_window& win,
             T* out,
             cudaStream_t s) override;
    fir2d_method method() const override { return fir2d_method::fft; }

    int tile_rows() const { return d_fr; }              //!< Fr
    int tile_cols() const { return d_fc; }              //!< Fc
    int max_batch() const { return d_batches.front(); } //!< complex tiles per launch
    bool fused_columns() const { return d_fused; }      //!< the fused column pass
    bool fused_rows() const { return d_block_rows; }    //!< and the fused row passes
    int column_block() const { return d_column_block; } //!< the column pass's columns

private:
    void make_plans(long long batch);
    void compute_spectrum(const kernel2d<Tap>& k);
    void upload_twiddles();
    int pick_plan(long long remaining) const;

    static constexpr bool packed = !is_complex_v<T>; // two real tiles per complex one
    int d_kh, d_kw;
    fir2d_limits d_lim;
    int d_fr = 0;                      // Fr: rows per tile
    int d_fc = 0;                      // Fc: columns per tile
    std::vector<long long> d_batches;  // batch counts, largest first, down to 1
    bool d_fused = false;              // the column pass fused
    bool d_block_rows = false;         // and the row passes too (else cuFFT's)
    int d_column_block = 0;            // columns per block of the column pass
    std::vector<fft_plan> d_plans;     // per batch count: 2D C2C, or 1D over the rows
    device_buffer<complex> d_twiddles; // the fused passes' (fir2d_fft_kernels.cuh)
    device_buffer<complex> d_spectrum_cols; // the fused column pass's spectrum layout
    device_buffer<char> d_fft_work;         // cuFFT's work area, shared by all plans
    device_buffer<complex> d_tiles;         // d_batches[0] tiles of Fr * Fc
    device_buffer<complex> d_spectrum;      // Fr * Fc: FFT(kernel) / (Fr * Fc)
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
