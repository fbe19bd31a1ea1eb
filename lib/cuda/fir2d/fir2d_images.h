/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR2D_IMAGES_H
#define INCLUDED_GPUFILTER_CUDA_FIR2D_IMAGES_H

// Whole images through a 2D FIR algorithm, for the NumPy API (convolve2d): no stream,
// no history. No CUDA types: the block layer includes it.

#include "fir2d_geometry.h"
#include <cstddef>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * The window `win` (rows, width, first, col_offset) of each of `images` images of
 * rows x cols samples through kernel k on `device`; in and out in device memory of
 * that device when device_memory, else host memory (copied in groups of images).
 * win.image_stride is ignored: outputs are packed, image after image.
 */
template <class T, class Tap>
void fir2d_images(int device,
                  const T* in,
                  std::size_t images,
                  long rows,
                  int cols,
                  const kernel2d<Tap>& k,
                  output_window win,
                  fir2d_method method,
                  T* out,
                  bool device_memory);

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
