/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_NLMS_STREAMING_COPY_H
#define INCLUDED_GPUFILTER_CUDA_NLMS_STREAMING_COPY_H

// A host copy whose stores go straight to memory. The batch pipeline's host threads
// move gigabytes between the caller's arrays and the pinned staging, a few KiB a row,
// and nothing reads the target again soon (the GPU's copy engine, or the caller
// later). memcpy's cached stores first read every target line into the cache; at
// these sizes that read is a third of the memory traffic, and the host's memory
// bandwidth is what the pipeline waits on.

#include <cstddef>
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace gr {
namespace gpufilter {
namespace cuda {

//! memcpy(dst, src, n) with non-temporal stores where the CPU has them (x86-64). The
//! stores are weakly ordered: call streaming_copy_fence() before another thread or a
//! device reads dst.
inline void streaming_copy(void* dst, const void* src, std::size_t n)
{
#if defined(__SSE2__)
    auto* d = static_cast<unsigned char*>(dst);
    const auto* s = static_cast<const unsigned char*>(src);
    const std::size_t head = (16 - (reinterpret_cast<std::uintptr_t>(d) & 15)) & 15;
    if (n < head + 64) { // too short to gain: a cached copy
        std::memcpy(d, s, n);
        return;
    }
    std::memcpy(d, s, head); // up to the first 16-byte boundary of the target
    d += head;
    s += head;
    n -= head;
    for (; n >= 64; n -= 64, d += 64, s += 64) {
        const auto* in = reinterpret_cast<const __m128i*>(s);
        auto* out = reinterpret_cast<__m128i*>(d);
        const __m128i a = _mm_loadu_si128(in), b = _mm_loadu_si128(in + 1);
        const __m128i c = _mm_loadu_si128(in + 2), e = _mm_loadu_si128(in + 3);
        _mm_stream_si128(out, a);
        _mm_stream_si128(out + 1, b);
        _mm_stream_si128(out + 2, c);
        _mm_stream_si128(out + 3, e);
    }
    std::memcpy(d, s, n);
#else
    std::memcpy(dst, src, n);
#endif
}

//! Makes this thread's streaming_copy stores visible to other threads and devices.
inline void streaming_copy_fence()
{
#if defined(__SSE2__)
    _mm_sfence();
#endif
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
