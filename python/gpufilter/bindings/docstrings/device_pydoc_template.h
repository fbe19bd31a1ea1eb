/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "pydoc_macros.h"
#define D(...) DOC(gr, gpufilter, __VA_ARGS__)

static const char* __doc_gr_gpufilter_cuda_device_count =
    R"doc(Number of usable CUDA devices (0 without a driver or a device; never raises).)doc";
static const char* __doc_gr_gpufilter_cuda_device_name =
    R"doc(Name and compute capability of a CUDA device; IndexError for a bad index.)doc";
static const char* __doc_gr_gpufilter_cuda_device_free_memory =
    R"doc(Free memory of a CUDA device in bytes (cudaMemGetInfo: other processes' use included); IndexError for a bad index.)doc";
