/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_DEVICE_H
#define INCLUDED_GPUFILTER_DEVICE_H

#include <gnuradio/gpufilter/api.h>
#include <string>

namespace gr {
namespace gpufilter {

//! The `device` argument of every block: a CUDA device index (0, 1, ...) or one of these.
//! device_auto: the first CUDA device, or the CPU (with one warning) when there is none.
constexpr int device_auto = -1;
//! device_cpu: compute on the CPU, with the same results.
constexpr int device_cpu = -2;

//! Input samples a block gathers before it sends them to the GPU (one PCIe transfer).
//! Larger batches amortize transfer and launch costs; smaller ones cut latency.
constexpr int default_batch_size = 1 << 18;

//! Number of usable CUDA devices (0 without a driver or a device; never throws).
GPUFILTER_API int cuda_device_count();

//! Name and compute capability of a CUDA device; std::out_of_range for a bad index.
GPUFILTER_API std::string cuda_device_name(int device);

} // namespace gpufilter
} // namespace gr

#endif
