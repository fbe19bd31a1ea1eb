/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_DEVICE_H
#define INCLUDED_GPUFILTER_DEVICE_H

#include <gnuradio/gpufilter/api.h>
// The FIR method and the host transfer settings were declared here before they had
// headers of their own; code that includes only this header keeps compiling.
#include <gnuradio/gpufilter/filter_method.h>
#include <gnuradio/gpufilter/transfer.h>
#include <cstddef>
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

//! Seconds of input a block may hold before it computes (every block's max_latency):
//! a block sizes its batches from the rate at which input arrives, so that a live
//! stream is answered within this budget while a file or a fast SDR still gets
//! batches of batch_size. Tens of milliseconds or less suit live audio and SDR.
constexpr double default_max_latency = 0.01;

//! Number of usable CUDA devices (0 without a driver or a device; never throws).
GPUFILTER_API int cuda_device_count();

//! Name and compute capability of a CUDA device; std::out_of_range for a bad index.
GPUFILTER_API std::string cuda_device_name(int device);

//! Free memory of a CUDA device, in bytes (what cudaMemGetInfo reports; other
//! processes' use included); std::out_of_range for a bad index.
GPUFILTER_API std::size_t cuda_device_free_memory(int device);

} // namespace gpufilter
} // namespace gr

#endif /* INCLUDED_GPUFILTER_DEVICE_H */
