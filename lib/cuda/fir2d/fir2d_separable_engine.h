/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR2D_SEPARABLE_ENGINE_H
#define INCLUDED_GPUFILTER_CUDA_FIR2D_SEPARABLE_ENGINE_H

#include "../common/resources.h"
#include "../common/sample_types.h"
#include "fir2d_algorithm.h"
#include "kernel_separation.h"
#include <cstddef>

namespace gr {
namespace gpufilter {
namespace cuda {

//! Which kernels fir2d_separable_engine runs (fir2d_separable_*kernels.cuh).
enum class separable_path {
    automatic, //!< the faster where fused applies (a measured rule), else two_pass
    two_pass,  //!< through intermediate planes in memory: any kernel size
    fused,     //!< both passes on shared-memory tiles: kh, kw <= 32
};

/*!
 * \brief The 2D FIR as r pairs of 1D passes, for a kernel of numerical rank r
 * (kernel_separation.h): kh + kw multiplies per output and term instead of kh * kw.
 *
 * Per output, with x the rows of the source:
 *   vertical    tmp_t[o][c] = sum_i column_t[i] * x(first + o - i, c), every input
 *               column c, all terms from one read of the input;
 *   horizontal  y[o][c] = sum_t coef_t * sum_j row_t[j] * tmp_t[o][c + col_offset - j]
 *               (tmp_t zero outside the input's columns).
 * Two paths compute it. two_pass writes the planes tmp_t to memory between two
 * kernels: per output, for sizeof(T) = s and r terms, the vertical pass reads s (its
 * kh-1 rows of apron come from L2) and writes r*s, the horizontal pass reads r*s and
 * writes s: (2 + 2r)*s bytes, against 2s for one pass. The planes are sized so that
 * a group of rows fits in L2 (max_plane_bytes), where the horizontal pass finds what
 * the vertical pass has just written. fused (kernels up to 32 x 32) computes both
 * passes on a tile of 16 x 64 outputs in shared memory: 2s bytes per output, plus
 * the tile's apron read again from L2.
 *
 * Accuracy: the terms reproduce the kernel within the separation's residual
 * (relative Frobenius norm); the float passes add rounding of the order of
 * sqrt(kh + kw) ulps of each term's sum. A NaN or Inf in the input reaches exactly
 * the outputs the kernel reaches (the taps' zero padding is skipped, not multiplied),
 * as NaN where an Inf meets terms of both signs.
 *
 * The device buffers (taps, planes) are made by the constructor, on the current
 * device; run() allocates nothing. Outputs follow fir2d_geometry.h exactly, for any
 * window within the limits, kernels of any size (taps are staged through shared
 * memory in chunks) and stacks of images (history for image 0 only).
 */
template <class T, class Tap>
class fir2d_separable_engine final : public fir2d_algorithm<T, Tap>
{
public:
    //! The intermediate planes' size unless told otherwise: within the L2 of current
    //! data-centre GPUs (50 MB on H100), so that the horizontal pass reads them there.
    static constexpr std::size_t default_plane_bytes = std::size_t(32) << 20;

    /*!
     * kh and kw are the lengths of the terms' vectors. max_plane_bytes bounds the
     * two-pass path's intermediate planes (all terms together; at least one row of
     * each term is kept whatever it says): larger windows run in groups of rows or
     * images. Throws std::invalid_argument for a separation without terms, terms of
     * different sizes, limits without an input row, or path fused for a kernel it
     * does not take.
     */
    fir2d_separable_engine(const kernel_separation<Tap>& s,
                           const fir2d_limits& lim,
                           separable_path path = separable_path::automatic,
                           std::size_t max_plane_bytes = default_plane_bytes);

    //! Throws std::invalid_argument where src or win exceed the limits.
    void run(const row_source<T>& src,
             const output_window& win,
             T* out,
             cudaStream_t stream) override;

    fir2d_method method() const override { return fir2d_method::separable; }

    int kernel_rows() const { return d_kh; }
    int kernel_cols() const { return d_kw; }
    int terms() const { return d_terms; }
    //! The path in use: two_pass or fused.
    separable_path path() const { return d_path; }
    //! Rows (of all images together) of one term's intermediate plane (two_pass).
    std::size_t plane_rows() const { return d_plane_items / d_lim.in_width; }

private:
    void run_fused(const row_source<T>& src,
                   const output_window& win,
                   T* out,
                   cudaStream_t stream) const;
    void launch_vertical(const row_source<T>& src,
                         int b0,
                         int images,
                         long long first,
                         int rows,
                         cudaStream_t stream) const;
    void launch_horizontal(const row_source<T>& src,
                           const output_window& win,
                           int b0,
                           int images,
                           long long r0,
                           int rows,
                           T* out,
                           cudaStream_t stream) const;

    int d_kh = 0;
    int d_kw = 0;
    int d_terms = 0;
    separable_path d_path = separable_path::two_pass;
    int d_r = 8;      // outputs per thread of the vertical pass (two_pass)
    int d_p = 8;      // outputs per thread of the horizontal pass (two_pass)
    int d_kh_pad = 0; // columns zero-padded to whole blocks of d_r taps
    int d_kw_pad = 0; // rows zero-padded to whole blocks of d_p taps
    std::size_t d_fused_shared = 0; // bytes of shared memory of a fused block
    fir2d_limits d_lim;
    std::size_t d_plane_items = 0;  // items of one term's plane
    device_buffer<float> d_columns; // d_terms x d_kh_pad
    device_buffer<float> d_rows;    // d_terms x d_kw_pad
    device_buffer<Tap> d_coefs;     // d_terms
    device_buffer<T> d_planes;      // d_terms x d_plane_items
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
