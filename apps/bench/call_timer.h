/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_BENCH_CALL_TIMER_H
#define INCLUDED_BENCH_CALL_TIMER_H

// How every engine row is timed, written once: two warm-up calls, then the median of
// several calls, each timed between two CUDA events on the caller's stream.

#include "bench.h"
#include "common/resources.h"
#include <algorithm>
#include <vector>

namespace bench {

inline double median(std::vector<float> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

//! Calls timed per engine row, after two warm-up calls.
inline int timed_calls(const options& o) { return o.quick ? 3 : 7; }

/*!
 * Seconds per call: before(s) runs ahead of each call, outside the timed span (a
 * reset of the engine's state, say); call(s) is timed. The median of timed_calls(o)
 * calls after two warm-up calls.
 */
template <class Before, class Call>
double time_calls(const options& o, cudaStream_t s, Before&& before, Call&& call)
{
    gr::gpufilter::cuda::event start(gr::gpufilter::cuda::event_use::timing),
        stop(gr::gpufilter::cuda::event_use::timing);
    const int warmup = 2, reps = timed_calls(o);
    std::vector<float> ms;
    for (int i = 0; i < warmup + reps; ++i) {
        before(s);
        start.record(s);
        call(s);
        stop.record(s);
        stop.synchronize();
        float t;
        GPUFILTER_CHECK(cudaEventElapsedTime(&t, start.get(), stop.get()));
        if (i >= warmup)
            ms.push_back(t);
    }
    return median(ms) / 1e3;
}

//! time_calls with nothing to do between calls.
template <class Call>
double time_calls(const options& o, cudaStream_t s, Call&& call)
{
    return time_calls(
        o, s, [](cudaStream_t) {}, call);
}

} // namespace bench

#endif
