/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "pydoc_macros.h"
#define D(...) DOC(gr, gpufilter, __VA_ARGS__)

static const char* __doc_gr_gpufilter_gpu_options =
    R"doc(Where and how a gpufilter block computes (a base of every block).)doc";
static const char* __doc_gr_gpufilter_gpu_options_on_gpu =
    R"doc(True when the block computes on a GPU, False on the CPU fallback.)doc";
static const char* __doc_gr_gpufilter_gpu_options_device =
    R"doc(The CUDA device in use, or device_cpu.)doc";
static const char* __doc_gr_gpufilter_gpu_options_batch_size =
    R"doc(Input samples per GPU transfer.)doc";
static const char* __doc_gr_gpufilter_gpu_options_largest_batch =
    R"doc(Most input samples handled in one work() call so far.)doc";
static const char* __doc_gr_gpufilter_gpu_options_fir_method =
    R"doc(The filter algorithm running: "direct", "fft", or "cpu" on the CPU fallback.)doc";
static const char* __doc_gr_gpufilter_gpu_options_bytes_to_device =
    R"doc(Bytes copied from host to device memory so far (this block's copies and the uploads of the device buffers on its ports).)doc";
static const char* __doc_gr_gpufilter_gpu_options_bytes_from_device =
    R"doc(Bytes copied from device to host memory so far, counted the same way.)doc";
