/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR2D_CONTROLS_H
#define INCLUDED_GPUFILTER_CUDA_FIR2D_CONTROLS_H

// What the 2D FIR blocks control, on the GPU engine or the CPU kernel alike, and the
// maker of their GPU path. No CUDA types: the block layer includes it.

#include "../stream/host_stream.h"
#include "fir2d_geometry.h"
#include <cstddef>

namespace gr {
namespace gpufilter {
namespace cuda {

template <class Tap>
class fir2d_controls
{
public:
    virtual ~fir2d_controls() = default;
    //! A kernel of any size, from the next call on; the history then has
    //! rows - 1 rows (the block sets it from GNU Radio's window, as after a start).
    virtual void set_taps(const kernel2d<Tap>& k) = 0;
};

/*!
 * The 2D FIR of vlen-item rows (T: float or complex) behind a host_stream of
 * max_chunk rows a call, with `method` (automatic: the measured rule) on `device`.
 */
template <class T, class Tap>
gpu_path<fir2d_controls<Tap>> make_fir2d_path(int device,
                                              std::size_t max_chunk,
                                              int vlen,
                                              const kernel2d<Tap>& k,
                                              fir2d_method method);

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
