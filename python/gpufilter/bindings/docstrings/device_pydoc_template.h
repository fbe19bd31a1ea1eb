/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "pydoc_macros.h"
#define D(...) DOC(gr, gpufilter, __VA_ARGS__)

static const char* __doc_gr_gpufilter_cuda_device_count =
    R"doc(Number of usable CUDA devices (0 without a driver or a device; never raises).)doc";
static const char* __doc_gr_gpufilter_cuda_device_name =
    R"doc(Name and compute capability of a CUDA device; IndexError for a bad index.)doc";
static const char* __doc_gr_gpufilter_filter_method =
    R"doc(The FIR algorithm on the GPU: automatic (the faster for the taps and decimation, from the measured crossover), direct (direct form) or fft (overlap-save with cuFFT).)doc";
static const char* __doc_gr_gpufilter_parse_filter_method =
    R"doc(filter_method from "auto", "direct" or "fft"; ValueError naming method otherwise.)doc";
static const char* __doc_gr_gpufilter_set_default_filter_method =
    R"doc(The algorithm of FIR filter blocks made afterwards with method automatic: automatic (default: the measured crossover), direct or fft for every such block; a block made with direct or fft keeps its own.)doc";
static const char* __doc_gr_gpufilter_get_default_filter_method =
    R"doc(The default filter_method now set.)doc";
static const char* __doc_gr_gpufilter_host_transfer =
    R"doc(How GPU blocks move samples between GNU Radio's buffers and the GPU: dma_in_place (default: GNU Radio's buffers are page-locked when a flowgraph starts) or pinned_staging (through each block's own page-locked buffers).)doc";
static const char* __doc_gr_gpufilter_set_host_transfer =
    R"doc(Sets the host_transfer mode for flowgraphs started afterwards.)doc";
static const char* __doc_gr_gpufilter_get_host_transfer =
    R"doc(The host_transfer mode now set.)doc";
static const char* __doc_gr_gpufilter_cuda_device_free_memory =
    R"doc(Free memory of a CUDA device in bytes (cudaMemGetInfo: other processes' use included); IndexError for a bad index.)doc";
static const char* __doc_gr_gpufilter_set_device_buffers =
    R"doc(Whether GPU blocks made afterwards keep samples between them in device memory (default True; never used on the CPU fallback).)doc";
static const char* __doc_gr_gpufilter_get_device_buffers =
    R"doc(The device buffer setting for blocks made from now on.)doc";
