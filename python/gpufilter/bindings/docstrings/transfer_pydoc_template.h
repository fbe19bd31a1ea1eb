/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "pydoc_macros.h"
#define D(...) DOC(gr, gpufilter, __VA_ARGS__)

static const char* __doc_gr_gpufilter_host_transfer =
    R"doc(How GPU blocks move samples between GNU Radio's buffers and the GPU: dma_in_place (default: GNU Radio's buffers are page-locked when a flowgraph starts) or pinned_staging (through each block's own page-locked buffers).)doc";
static const char* __doc_gr_gpufilter_set_host_transfer =
    R"doc(Sets the host_transfer mode for flowgraphs started afterwards.)doc";
static const char* __doc_gr_gpufilter_get_host_transfer =
    R"doc(The host_transfer mode now set.)doc";
static const char* __doc_gr_gpufilter_set_device_buffers =
    R"doc(Whether GPU blocks made afterwards keep samples between them in device memory (default True; never used on the CPU fallback).)doc";
static const char* __doc_gr_gpufilter_get_device_buffers =
    R"doc(The device buffer setting for blocks made from now on.)doc";
