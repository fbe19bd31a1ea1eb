/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "pydoc_macros.h"
#define D(...) DOC(gr, gpufilter, __VA_ARGS__)

static const char* __doc_gr_gpufilter_nlms_batch =
    R"doc(Run many independent NLMS filters over whole signals, for simulations.

nlms_batch(x, d, ntaps, mu, eps=nlms_default_eps, device=device_auto)
    -> (errors, final_taps)

x and d: float32 arrays of shape (filters, samples) (or (samples,) for one filter);
mu: a number, or one value per filter. Each filter starts from zero taps and runs the
update of nlms_filter_ff. errors has the shape of x; final_taps is (filters, ntaps)
(or (ntaps,)). On a GPU the filters run at once, sent in groups and chunks of samples
that bound the device memory; without one (or with device=device_cpu) on the CPU.
ValueError names the parameter that is wrong.)doc";
