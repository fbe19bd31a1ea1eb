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
    R"doc(Input samples per GPU transfer, at most (the throughput batch).)doc";
static const char* __doc_gr_gpufilter_gpu_options_max_latency =
    R"doc(Seconds of input the block may hold before it computes (its latency budget).)doc";
static const char* __doc_gr_gpufilter_gpu_options_set_max_latency =
    R"doc(A new latency budget in seconds (>= 0), from the block's next look at its input: 0 computes whatever has arrived, as gr-filter's blocks do; infinity always waits for whole batches of batch_size (and sizes the buffer in front for them when the flowgraph next starts). ValueError for a negative or NaN value.)doc";
static const char* __doc_gr_gpufilter_gpu_options_current_batch_size =
    R"doc(Input samples per call that the budget allows at the input rate measured now: batch_size when input arrives fast enough, fewer on a slower live stream.)doc";
static const char* __doc_gr_gpufilter_gpu_options_input_rate =
    R"doc(The rate at which input has been arriving, items per second (0 until known).)doc";
static const char* __doc_gr_gpufilter_gpu_options_largest_batch =
    R"doc(Most input samples handled in one work() call so far.)doc";
static const char* __doc_gr_gpufilter_gpu_options_method =
    R"doc(The GPU algorithm this block runs, or "cpu" on the CPU fallback: "direct" or "fft" (the FIR filters, freq_xlating_fir_filter, hilbert_fc), "pfb" (the polyphase blocks), "nlms", "quadrature_demod", "fm_demod_bank" or "complex_to_real".)doc";
static const char* __doc_gr_gpufilter_gpu_options_fir_method =
    R"doc(Deprecated: use method(), which answers the same. This name dates from when only the FIR filters had it.)doc";
static const char* __doc_gr_gpufilter_gpu_options_bytes_to_device =
    R"doc(Bytes copied from host to device memory so far (this block's copies and the uploads of the device buffers on its ports).)doc";
static const char* __doc_gr_gpufilter_gpu_options_bytes_from_device =
    R"doc(Bytes copied from device to host memory so far, counted the same way.)doc";
