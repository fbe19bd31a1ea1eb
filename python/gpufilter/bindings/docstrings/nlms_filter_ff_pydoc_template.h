/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "pydoc_macros.h"
#define D(...) DOC(gr, gpufilter, __VA_ARGS__)

static const char* __doc_gr_gpufilter_nlms_filter_ff =
    R"doc(NLMS adaptive FIR filter (an echo canceller) on a GPU, one filter or many
independent ones at once.

Input 0 is x (the reference, e.g. the far-end signal), input 1 is d (e.g. the
microphone), output 0 is the error e. With taps w (zero at the start) and
x_n = [x[n], x[n-1], ..., x[n-ntaps+1]] (zeros before the stream starts):
y[n] = w . x_n, e[n] = d[n] - y[n], w <- w + mu e[n] x_n / (eps + x_n . x_n).
w[j] multiplies x[n-j], so a converged filter's taps are the echo path's impulse
response. With nfilters > 1 every item is a vector of nfilters floats and each lane
is its own filter. The adaptation carries across work() calls as in one long call.
Without a usable CUDA device (or device=device_cpu) the same algorithm runs on the
CPU.)doc";

static const char* __doc_gr_gpufilter_nlms_filter_ff_make =
    R"doc(Make an NLMS adaptive filter block.

Args:
    ntaps: taps per filter, in [1, nlms_max_taps = 8192]
    mu: step size in (0, 2] (NLMS diverges beyond 2; 0.1 to 1 is usual)
    nfilters: independent filters, the vector length of every port (>= 1)
    eps: regulariser of the normalisation, finite and > 0 (default nlms_default_eps = 1e-6)
    device: CUDA device index, device_auto (-1: first GPU, else CPU) or device_cpu (-2)
    batch_size: input items per GPU transfer (>= 1); the largest batch (throughput)
    max_latency: seconds of input the block may hold before it computes (>= 0,
        default default_max_latency = 0.01): batches shrink to what arrives in that
        time on a live stream; 0 computes whatever has arrived (as gr-filter),
        float("inf") always whole batches)doc";

static const char* __doc_gr_gpufilter_nlms_filter_ff_set_mu =
    R"doc(Step size of every filter from the next sample on (in (0, 2]).)doc";
static const char* __doc_gr_gpufilter_nlms_filter_ff_mu = R"doc(The step size.)doc";
static const char* __doc_gr_gpufilter_nlms_filter_ff_taps =
    R"doc(Filter k's taps now (w[j] multiplies x[n-j]).)doc";
static const char* __doc_gr_gpufilter_nlms_filter_ff_set_taps =
    R"doc(Filter k's taps from the next sample on (ntaps values); the x history stays.)doc";
static const char* __doc_gr_gpufilter_nlms_filter_ff_reset =
    R"doc(Every filter back to zero taps and zero x history.)doc";
static const char* __doc_gr_gpufilter_nlms_filter_ff_ntaps = R"doc(Taps per filter.)doc";
static const char* __doc_gr_gpufilter_nlms_filter_ff_nfilters =
    R"doc(Number of independent filters (the ports' vector length).)doc";
static const char* __doc_gr_gpufilter_nlms_filter_ff_eps = R"doc(The regulariser.)doc";
