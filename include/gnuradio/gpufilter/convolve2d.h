/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CONVOLVE2D_H
#define INCLUDED_GPUFILTER_CONVOLVE2D_H

#include <gnuradio/gpufilter/api.h>
#include <gnuradio/gpufilter/device.h>
#include <gnuradio/gpufilter/filter_method.h>
#include <gnuradio/gr_complex.h>
#include <cstddef>

namespace gr {
namespace gpufilter {

/*!
 * \brief A window of the full 2D convolution of images with a kernel: what
 * gpufilter.convolve2d / correlate2d compute (SciPy's modes are three windows).
 *
 * Output row o, column c of image b is
 *
 *     y[b][o][c] = sum_{i < kh} sum_{j < kw} k[i][j] * x[b][first_row + o - i][c +
 * col_offset - j]
 *
 * with x zero outside its rows and columns: SciPy's 'full' is first_row 0,
 * col_offset 0, rows + kh - 1 by cols + kw - 1 outputs.
 */
struct image_window {
    long first_row = 0;
    long rows = 0;
    long cols = 0;
    long col_offset = 0;
};

/*!
 * \brief 2D convolution of a stack of images on a GPU (or the CPU). \ingroup gpufilter
 *
 * \param in       images x rows x cols samples, row-major, image after image
 * \param kernel   kh x kw taps, row-major
 * \param window   the outputs of each image (image_window); out holds images x
 *                 window.rows x window.cols
 * \param method   automatic (the measured rule), direct, separable or fft
 * \param device   CUDA device index, device_auto (-1) or device_cpu (-2)
 * \param device_memory  in and out are device memory of `device` (CuPy arrays): no
 *                 copies; otherwise host memory
 * \return the device used, or device_cpu
 */
template <class T, class Tap>
GPUFILTER_API int convolve2d_images(const T* in,
                                    std::size_t images,
                                    std::size_t rows,
                                    std::size_t cols,
                                    const Tap* kernel,
                                    int kh,
                                    int kw,
                                    const image_window& window,
                                    filter_method method,
                                    T* out,
                                    int device = device_auto,
                                    bool device_memory = false);

} // namespace gpufilter
} // namespace gr

#endif /* INCLUDED_GPUFILTER_CONVOLVE2D_H */
