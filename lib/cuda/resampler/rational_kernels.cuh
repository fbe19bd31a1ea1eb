/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_RATIONAL_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_RATIONAL_KERNELS_CUH

// Device code of the polyphase rational resampler (rational_engine.h).

#include "../common/device_math.cuh"
#include "../common/history_keep.cuh"
#include <type_traits>
#include <cstdint>

namespace gr {
namespace gpufilter {
namespace cuda {
namespace rational_kernels {

constexpr int threads = 256;

//! The accumulator as the output type: itself, or int16 truncated toward zero (a
//! C cast of gr-filter's float dot product; out-of-range values wrap as x86's
//! conversion to int32 and then to int16 does).
template <class Out, class Acc>
__device__ __forceinline__ Out store_as(Acc acc)
{
    if constexpr (std::is_same_v<Out, std::int16_t>)
        return static_cast<std::int16_t>(__float2int_rz(acc));
    else
        return acc;
}

//! What every launch of the resampler takes: output k (of noutputs, each vlen lanes)
//! sits at position first + k*D (units of 1/I input item) after the kept history of
//! history_items items; arm p's tap j is taps[j*I + p].
template <class In, class Tap, class Out>
struct rational_pass {
    history_then_input<In> src; // in samples: item i, lane l is sample i*vlen + l
    long long history_items;
    unsigned long long first;
    int interpolation, decimation, vlen;
    const Tap* taps;
    int taps_per_arm;
    long long noutputs; // items
    Out* out;
    history_keep<In> keep; // the next call's history, kept by this launch
};

/*!
 * One output sample (item k, lane l) per thread. Neighbouring threads read
 * neighbouring inputs (lanes, or items D/I apart) and the same few hundred bytes of
 * taps, so the loads of a warp coalesce and the taps stay in L1. Windows that lie
 * wholly in the new input (all but the first T-1 items' worth) read it directly,
 * without the history test.
 */
template <class In, class Tap, class Acc, class Out>
__global__ void __launch_bounds__(threads) rational_direct(rational_pass<In, Tap, Out> p)
{
    p.keep.copy();
    const long long idx = static_cast<long long>(blockIdx.x) * threads + threadIdx.x;
    if (idx >= p.noutputs * p.vlen)
        return;
    const long long k = idx / p.vlen;
    const int lane = static_cast<int>(idx - k * p.vlen);
    const unsigned long long t =
        p.first + static_cast<unsigned long long>(k) * p.decimation;
    const long long newest = static_cast<long long>(t / p.interpolation);
    const int arm =
        static_cast<int>(t - static_cast<unsigned long long>(newest) * p.interpolation);
    const Tap* __restrict__ h = p.taps + arm;
    const long long stride = p.vlen;
    const long long v = (p.history_items + newest) * stride + lane; // newest sample
    const long long oldest = v - (p.taps_per_arm - 1) * stride;
    Acc acc = zero<Acc>();
    if (oldest >= p.src.history_len) {
        const In* __restrict__ x = p.src.input + (v - p.src.history_len);
        for (int j = 0; j < p.taps_per_arm; ++j)
            mac(acc, to_compute(x[-j * stride]), __ldg(h + j * p.interpolation));
    } else {
        for (int j = 0; j < p.taps_per_arm; ++j)
            mac(acc, to_compute(p.src[v - j * stride]), __ldg(h + j * p.interpolation));
    }
    p.out[idx] = store_as<Out>(acc);
}

} // namespace rational_kernels
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
