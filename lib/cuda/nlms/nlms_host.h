/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_NLMS_HOST_H
#define INCLUDED_GPUFILTER_CUDA_NLMS_HOST_H

// NLMS filtering of host samples on a GPU: the host path with an NLMS engine, and the
// NLMS controls; and the batch form for simulations. No CUDA types here, so the block
// layer can use it without seeing CUDA.

#include "../stream/host_stream.h"
#include "nlms_controls.h"
#include <cstddef>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

//! The NLMS blocks' GPU path: nfilters filters (nlms_engine) on `device` behind a
//! host_stream; items of nfilters floats on two inputs (x, d) and one output (e).
gpu_path<nlms_controls> make_nlms_path(int device,
                                       std::size_t max_chunk,
                                       int ntaps,
                                       int nfilters,
                                       const std::vector<float>& mu,
                                       float eps);

/*!
 * \brief NLMS over rows: nfilters independent filters, filter k's x and d at
 * x + k * nsamples (likewise e), all host memory, on `device`. mu: one value or one per
 * filter. Filters go to the GPU in groups and samples in chunks, so the device memory
 * stays near `max_bytes` whatever the sizes. taps_out (nfilters * ntaps) gets the
 * final taps; the initial taps are zero.
 */
void nlms_batch_rows(int device,
                     const float* x,
                     const float* d,
                     std::size_t nfilters,
                     std::size_t nsamples,
                     int ntaps,
                     const std::vector<float>& mu,
                     float eps,
                     float* e,
                     float* taps_out,
                     std::size_t max_bytes = std::size_t(256) << 20);

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
