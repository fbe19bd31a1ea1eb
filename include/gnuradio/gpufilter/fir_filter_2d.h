/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_FIR_FILTER_2D_H
#define INCLUDED_GPUFILTER_FIR_FILTER_2D_H

#include <gnuradio/gpufilter/api.h>
#include <gnuradio/gpufilter/device.h>
#include <gnuradio/gpufilter/filter_method.h>
#include <gnuradio/gpufilter/gpu_options.h>
#include <gnuradio/gr_complex.h>
#include <gnuradio/sync_block.h>
#include <vector>

namespace gr {
namespace gpufilter {

/*!
 * \brief 2D FIR filter over a stream of vectors, computed on a GPU. \ingroup gpufilter
 *
 * \details
 * Each item is one row of a 2D signal: a spectrum of a waterfall, a range line, an
 * image row. With a kernel k of kh rows and kw columns, output row n, column c is
 *
 *     y[n][c] = sum_{i < kh} sum_{j < kw} k[i][j] * x[n - i][c + (kw - 1) / 2 - j]
 *
 * with x zero outside columns 0 .. vlen-1 and before the stream's first row: along a
 * row SciPy's convolve2d mode 'same' (zero fill), along the stream a causal filter over
 * the last kh rows. Streaming an image's rows in gives the rows of
 * scipy.signal.convolve2d(image, k, 'full'), columns cropped as 'same'; that is
 * convolve2d(image, k, 'same') delayed by delay() = (kh - 1) / 2 rows.
 * Rows travel to the GPU in batches (batch_size samples, batch_size / vlen rows),
 * bounded by max_latency on a live stream, as every block here. With no usable CUDA
 * device (or device = device_cpu) it computes the same sum on the CPU and logs one
 * warning.
 */
template <class IN_T, class OUT_T, class TAP_T>
class GPUFILTER_API fir_filter_2d : virtual public gr::sync_block, public gpu_options
{
public:
    typedef std::shared_ptr<fir_filter_2d<IN_T, OUT_T, TAP_T>> sptr;

    /*!
     * \param vlen         items a row (>= 1): the input and output vector length
     * \param taps         the kernel: kh rows (along the stream) of kw taps (along a
     *                     row), every row the same length, finite; from Python a
     *                     NumPy 2D array or a list of rows
     * \param device       CUDA device index, device_auto (-1) or device_cpu (-2)
     * \param batch_size   input samples per GPU transfer, at most (>= 1): rows of
     *                     batch_size / vlen (at least one)
     * \param method       filter_method::automatic (the fastest for the kernel's size
     *                     and numerical rank, from the crossover measured in
     *                     docs/kernels.md), direct (shared-memory tiles), separable
     *                     (the kernel's low-rank terms as pairs of 1D passes; exact for
     *                     a kernel of up to 32 terms) or fft (overlap-save over rows);
     *                     from Python also "auto", "direct", "separable" or "fft"
     * \param max_latency  seconds of input the block may hold before it computes (>= 0,
     *                     default 10 ms); 0 computes whatever has arrived
     */
    static sptr make(unsigned vlen,
                     const std::vector<std::vector<TAP_T>>& taps,
                     int device = device_auto,
                     int batch_size = default_batch_size,
                     filter_method method = filter_method::automatic,
                     double max_latency = default_max_latency);

    //! A new kernel of any size, from the next work() call, over the same rows (as
    //! gr-filter's set_taps): the old rows are the new kernel's history.
    virtual void set_taps(const std::vector<std::vector<TAP_T>>& taps) = 0;
    //! The kernel in use, as rows.
    virtual std::vector<std::vector<TAP_T>> taps() const = 0;
    //! Items a row.
    virtual unsigned vlen() const = 0;
    //! Rows by which the output lags SciPy's mode 'same': (kh - 1) / 2.
    virtual int delay() const = 0;
};

typedef fir_filter_2d<float, float, float> fir_filter_2d_fff;
typedef fir_filter_2d<gr_complex, gr_complex, float> fir_filter_2d_ccf;
typedef fir_filter_2d<gr_complex, gr_complex, gr_complex> fir_filter_2d_ccc;

} // namespace gpufilter
} // namespace gr

#endif /* INCLUDED_GPUFILTER_FIR_FILTER_2D_H */
