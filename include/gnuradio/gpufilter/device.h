/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_DEVICE_H
#define INCLUDED_GPUFILTER_DEVICE_H

#include <gnuradio/gpufilter/api.h>
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

//! The `method` argument of the FIR filter blocks: the algorithm on the GPU.
//! automatic: the faster for the block's taps and decimation, from the crossover
//! measured in docs/kernels.md; direct: the direct form; fft: overlap-save (cuFFT).
enum class filter_method { automatic, direct, fft };

//! "auto" (or "automatic"), "direct" or "fft"; std::invalid_argument naming
//! `method` otherwise. The one parser of method names (Python, GRC, apps).
GPUFILTER_API filter_method parse_filter_method(const std::string& name);

//! The algorithm of FIR filter blocks made afterwards with method automatic:
//! automatic (the default: the measured crossover), or direct or fft for every such
//! block, to compare the two on a machine without changing a flowgraph. A block made
//! with direct or fft keeps its own.
GPUFILTER_API void set_default_filter_method(filter_method method);
GPUFILTER_API filter_method get_default_filter_method();

//! How GPU blocks move samples between GNU Radio's buffers and the GPU.
//! dma_in_place (the default): GNU Radio's buffers are page-locked when a flowgraph
//! starts and copied by DMA where they are. pinned_staging: through each block's own
//! page-locked buffers, one more CPU copy each way; to compare the two, or where
//! page-locking is not allowed. Applies to flowgraphs started afterwards.
enum class host_transfer { dma_in_place, pinned_staging };
GPUFILTER_API void set_host_transfer(host_transfer mode);
GPUFILTER_API host_transfer get_host_transfer();

//! Whether GPU blocks made afterwards keep the samples between them in device memory
//! (GNU Radio custom buffers on their ports): on (the default), an edge between two
//! GPU blocks is never copied to the host; a host block's edge is copied once each
//! way. Off: every GPU block moves its samples through host buffers (to measure the
//! difference, or as an escape hatch). Read when a block is made; never used on the
//! CPU fallback. See docs/architecture.md.
GPUFILTER_API void set_device_buffers(bool on);
GPUFILTER_API bool get_device_buffers();

} // namespace gpufilter
} // namespace gr

#endif
