/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR2D_ALGORITHM_H
#define INCLUDED_GPUFILTER_CUDA_FIR2D_ALGORITHM_H

// The one interface of the 2D FIR's algorithms (direct, separable, FFT), and the
// maker that picks one: the block's stream engine and the NumPy API both hold one.

#include "fir2d_geometry.h"
#include <cuda_runtime.h>
#include <memory>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief The largest work one algorithm object is made for: its device buffers
 * (intermediate rows, FFT tiles) are sized once, at construction.
 */
struct fir2d_limits {
    int in_width = 0;      //!< items per input row (row_source::width)
    int out_width = 0;     //!< items per output row (output_window::width)
    int col_offset = 0;    //!< output_window::col_offset
    long max_out_rows = 0; //!< output_window::rows, at most, per image
    int max_images = 1;    //!< row_source::images, at most
};

/*!
 * \brief A 2D FIR algorithm for one kernel: queues the outputs of an
 * output_window (fir2d_geometry.h) from a row_source, all in device memory, on a
 * stream. Holds no stream state: the rows before the window come with the source.
 */
template <class T, class Tap>
class fir2d_algorithm
{
public:
    virtual ~fir2d_algorithm() = default;
    //! src and win within the limits the object was made for; out: device memory.
    virtual void
    run(const row_source<T>& src, const output_window& win, T* out, cudaStream_t s) = 0;
    virtual fir2d_method method() const = 0;
};

/*!
 * \brief The algorithm `method` asks for, or with automatic the fastest for the
 * kernel's size and numerical rank (the measured rule, fir2d_tuning.h), made on the
 * current device. T: float or complex (input and output); Tap: float or complex.
 */
template <class T, class Tap>
std::unique_ptr<fir2d_algorithm<T, Tap>> make_fir2d_algorithm(const kernel2d<Tap>& k,
                                                              fir2d_method method,
                                                              const fir2d_limits& lim);

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
