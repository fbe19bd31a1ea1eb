/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_TESTS_PFB_TEST_SUPPORT_H
#define INCLUDED_GPUFILTER_TESTS_PFB_TEST_SUPPORT_H

// Runs a processor (pfb_channelizer_engine, pfb_decimator_engine) over an input in
// calls, into poisoned device outputs, through the processor interface only.

#include "../gpu_test_env.h"
#include "common/resources.h"
#include "pfb_reference.h"
#include "stream/processor.h"
#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

namespace gr {
namespace gpufilter {
namespace test {

//! Called before each process() call with the input consumed so far and the stream the
//! calls are queued on (a setter must get that stream: it orders itself after the
//! queued calls); may change the processor (set_taps, set_history, a channel) and
//! returns the size of the call, at most n.
using call_hook =
    std::function<std::size_t(std::size_t consumed, std::size_t n, cudaStream_t s)>;

/*!
 * Runs x (In items on the single input port) through p in calls of the given sizes
 * (cycled). Each output port gets a device buffer poisoned with NaN, 64 items longer
 * than max_output_count(x.size()); checks every call's count against output_count()
 * and that nothing past the outputs is written. Returns each port's items, flattened
 * (a vector port's item is its out_item_bytes / 8 complex samples).
 */
template <class In>
std::vector<std::vector<cuda::complex>>
run_processor(cuda::processor& p,
              const std::vector<In>& x,
              const std::vector<std::size_t>& calls,
              const call_hook& hook = {})
{
    using cuda::complex;
    cuda::stream s;
    cuda::device_buffer<In> d_in(std::max<std::size_t>(x.size(), 1));
    GPUFILTER_CHECK(
        cudaMemcpy(d_in.get(), x.data(), x.size() * sizeof(In), cudaMemcpyHostToDevice));
    const auto& out_bytes = p.ports().out_item_bytes;
    const std::size_t cap = p.max_output_count(x.size()) + 64;
    std::vector<cuda::device_buffer<complex>> d_out;
    std::vector<std::size_t> per_item;
    for (const std::size_t bytes : out_bytes) {
        per_item.push_back(bytes / sizeof(complex));
        d_out.emplace_back(cap * per_item.back());
        const std::vector<complex> poisoned(cap * per_item.back(), poison<complex>());
        GPUFILTER_CHECK(cudaMemcpy(d_out.back().get(),
                                   poisoned.data(),
                                   poisoned.size() * sizeof(complex),
                                   cudaMemcpyHostToDevice));
    }
    // A pageable cudaMemcpy may return before its DMA lands; the calls run on a
    // non-blocking stream.
    GPUFILTER_CHECK(cudaDeviceSynchronize());
    std::size_t consumed = 0, produced = 0;
    std::vector<void*> out_ptrs(d_out.size());
    for (std::size_t call = 0; consumed < x.size(); ++call) {
        std::size_t n = std::min(calls[call % calls.size()], x.size() - consumed);
        if (hook)
            n = std::min(hook(consumed, n, s.get()), x.size() - consumed);
        const std::size_t expected = p.output_count(n);
        EXPECT_LE(expected, p.max_output_count(n));
        for (std::size_t k = 0; k < d_out.size(); ++k)
            out_ptrs[k] = d_out[k].get() + produced * per_item[k];
        const void* in_ptr = d_in.get() + consumed;
        const std::size_t got = p.process(&in_ptr, n, out_ptrs.data(), s.get());
        EXPECT_EQ(got, expected) << "call " << call << " n=" << n;
        consumed += n;
        produced += got;
    }
    s.synchronize();
    std::vector<std::vector<complex>> y(d_out.size());
    for (std::size_t k = 0; k < d_out.size(); ++k) {
        y[k].resize(cap * per_item[k]);
        GPUFILTER_CHECK(cudaMemcpy(y[k].data(),
                                   d_out[k].get(),
                                   y[k].size() * sizeof(complex),
                                   cudaMemcpyDeviceToHost));
        std::size_t written_past = 0;
        for (std::size_t i = produced * per_item[k]; i < y[k].size(); ++i)
            written_past += !std::isnan(y[k][i].real());
        EXPECT_EQ(written_past, 0u) << "port " << k << ": written past its outputs";
        y[k].resize(produced * per_item[k]);
    }
    return y;
}

//! A vector port's items (step s: channels 0..N-1) as one vector per channel.
inline std::vector<std::vector<cuda::complex>>
vectors_to_channels(const std::vector<cuda::complex>& v, unsigned N)
{
    std::vector<std::vector<cuda::complex>> c(N);
    for (std::size_t i = 0; i < v.size(); ++i)
        c[i % N].push_back(v[i]);
    return c;
}

//! The reference's channels as the ports of a channel map see them.
inline std::vector<std::vector<cd>> mapped(const std::vector<std::vector<cd>>& channels,
                                           const std::vector<int>& map)
{
    std::vector<std::vector<cd>> ports;
    for (const int c : map)
        ports.push_back(channels[c]);
    return ports;
}

} // namespace test
} // namespace gpufilter
} // namespace gr

#endif
