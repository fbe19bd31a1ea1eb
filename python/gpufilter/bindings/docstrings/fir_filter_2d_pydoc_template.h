/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "pydoc_macros.h"
#define D(...) DOC(gr, gpufilter, __VA_ARGS__)

static const char* __doc_gr_gpufilter_fir_filter_2d =
    R"doc(2D FIR filter over a stream of vectors, computed on a GPU.

Each item is one row (a spectrum of a waterfall, a range line, an image row). Output
row n, column c is sum_i sum_j k[i][j] * x[n - i][c + (kw - 1) // 2 - j], with x zero
outside the row and before the stream's first row: along a row SciPy's convolve2d mode
'same', along the stream causal. Streaming an image's rows in gives
scipy.signal.convolve2d(image, k, 'same') delayed by delay() = (kh - 1) // 2 rows.
With no usable CUDA device (or device=device_cpu) it computes on the CPU and logs one
warning.)doc";

static const char* __doc_gr_gpufilter_fir_filter_2d_make =
    R"doc(Make a GPU 2D FIR filter.

Args:
    vlen: items a row (>= 1), the input and output vector length
    taps: the kernel, a NumPy 2D array or a list of rows: rows along the stream,
        columns along a row; finite, every row the same length
    device: CUDA device index, device_auto (-1: first GPU, else CPU) or device_cpu (-2)
    batch_size: input samples per GPU transfer (>= 1): rows of batch_size // vlen, at
        least one
    method: "auto" (the fastest for the kernel's size and numerical rank), "direct"
        (shared-memory tiles), "separable" (low-rank terms as pairs of 1D passes; a
        kernel of up to 32 terms) or "fft" (overlap-save over rows); or a
        filter_method
    max_latency: seconds of input the block may hold before it computes (>= 0, default
        default_max_latency = 0.01); 0 computes whatever has arrived)doc";

static const char* __doc_gr_gpufilter_fir_filter_2d_set_taps =
    R"doc(A new kernel of any size, from the next work() call; the rows already seen are its history.)doc";
static const char* __doc_gr_gpufilter_fir_filter_2d_taps =
    R"doc(The kernel in use, as a list of rows.)doc";
static const char* __doc_gr_gpufilter_fir_filter_2d_vlen = R"doc(Items a row.)doc";
static const char* __doc_gr_gpufilter_fir_filter_2d_delay =
    R"doc(Rows by which the output lags SciPy's mode 'same': (kh - 1) // 2.)doc";
