/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "pydoc_macros.h"
#define D(...) DOC(gr, gpufilter, __VA_ARGS__)

static const char* __doc_gr_gpufilter_complex_to_real =
    R"doc(The real part of complex samples, computed on a GPU; a drop-in for
gnuradio.blocks.complex_to_real.

Items of vlen complex samples in, vlen floats out, exactly; tags as gr-blocks. It
keeps a chain of GPU blocks free of CPU blocks in the middle. Without a usable CUDA
device (or device=device_cpu) it runs volk's deinterleave, as gr-blocks.)doc";

static const char* __doc_gr_gpufilter_complex_to_real_make =
    R"doc(Make a GPU complex-to-real block.

Args:
    vlen: samples per item (1 to 2^20)
    device: CUDA device index, device_auto (-1: first GPU, else CPU) or device_cpu (-2)
    batch_size: input samples per GPU transfer (>= 1); the largest batch (throughput)
    max_latency: seconds of input the block may hold before it computes (>= 0,
        default default_max_latency = 0.01): batches shrink to what arrives in that
        time on a live stream; 0 computes whatever has arrived (as gr-filter),
        float("inf") always whole batches)doc";

static const char* __doc_gr_gpufilter_complex_to_real_vlen = R"doc(Samples per item.)doc";
