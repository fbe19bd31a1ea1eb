/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "pydoc_macros.h"
#define D(...) DOC(gr, gpufilter, __VA_ARGS__)

static const char* __doc_gr_gpufilter_filter_method =
    R"doc(The FIR algorithm on the GPU: automatic (the faster for the taps and decimation, from the measured crossover), direct (direct form), fft (overlap-save with cuFFT) or, for the 2D filters only, separable (the kernel's low-rank terms as pairs of 1D passes).)doc";
static const char* __doc_gr_gpufilter_parse_filter_method =
    R"doc(filter_method from "auto", "direct", "fft" or "separable"; ValueError naming method otherwise.)doc";
static const char* __doc_gr_gpufilter_set_default_filter_method =
    R"doc(The algorithm of FIR filter blocks made afterwards with method automatic: automatic (default: the measured crossover), direct or fft for every such block; a block made with direct or fft keeps its own.)doc";
static const char* __doc_gr_gpufilter_get_default_filter_method =
    R"doc(The default filter_method now set.)doc";
