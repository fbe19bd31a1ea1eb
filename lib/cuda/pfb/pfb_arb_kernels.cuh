/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_PFB_ARB_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_PFB_ARB_KERNELS_CUH

// Device code of the arbitrary resampler (pfb_arb_resampler_engine): one output per
// thread, its (input, arm, fraction) replayed from the host's checkpoints with
// gr-filter's float steps, then the filter and derivative arms on the input.

#include "../common/device_math.cuh"
#include "arb_schedule.h"
#include <cuda_runtime.h>

namespace gr {
namespace gpufilter {
namespace cuda {
namespace arb_kernels {

constexpr int threads = 256;
//! Staged input samples per block, at most: above it, a block reads device memory.
constexpr int max_staged = 4096;

//! The stride dec split as dq whole inputs and dr arms, with N and flt; dec and
//! F = flt * 2^23 for the closed form.
struct step_rule {
    unsigned N;
    unsigned dq;
    unsigned dr;
    float flt;
    unsigned long long dec;
    unsigned long long F;
};

/*!
 * Output k of the launch: checkpoint k / stride, then k % stride of gr-filter's steps
 * (acc += flt; a carry when acc >= 1, then acc -= 1, which is fmodf(acc, 1) of acc in
 * [0, 2) exactly; arm += dr + carry; position += dq, and one more when the arm wraps).
 * The same float operations in the same order as the host (arb_schedule.cc), so
 * the fraction is bit for bit gr-filter's d_acc.
 */
__device__ __forceinline__ void
replay(const arb_checkpoint* cps, long long k, step_rule r, int& p, unsigned& j, float& a)
{
    const arb_checkpoint c = cps[k / arb_checkpoint_stride];
    p = c.pos;
    j = c.filter;
    a = c.acc;
    const int steps = static_cast<int>(k % arb_checkpoint_stride);
    for (int s = 0; s < steps; ++s) {
        a = __fadd_rn(a, r.flt); // never contracted
        const bool carry = a >= 1.0f;
        if (carry)
            a = __fadd_rn(a, -1.0f);
        j += r.dr + (carry ? 1u : 0u);
        p += static_cast<int>(r.dq);
        if (j >= r.N) {
            j -= r.N;
            ++p;
        }
    }
}

/*!
 * Output k of the launch when the accumulator is on the 2^-23 grid
 * (arb_schedule::exact()): from its block's checkpoint (output k - d, d < 256) in
 * closed form, integers only. The fraction is the same float gr-filter's steps give.
 */
__device__ __forceinline__ void closed_form(
    const arb_checkpoint* cps, long long k, step_rule r, int& p, unsigned& j, float& a)
{
    constexpr float unit = 1.0f / (1u << arb_fraction_bits);
    const arb_checkpoint c = cps[k / arb_exact_stride];
    const unsigned long long d = static_cast<unsigned long long>(k % arb_exact_stride);
    // c.acc * 2^23 is a whole number below 2^23: exact in float and as an integer.
    const unsigned long long x = __float2ull_rn(c.acc / unit) + d * r.F;
    const unsigned long long J = c.filter + d * r.dec + (x >> arb_fraction_bits);
    p = c.pos + static_cast<int>(J / r.N);
    j = static_cast<unsigned>(J % r.N);
    a = static_cast<float>(static_cast<unsigned>(x & ((1u << arb_fraction_bits) - 1))) *
        unit;
}

/*!
 * y_k = sum_m h_j[m] x[p - m] + a * sum_m dh_j[m] x[p - m], m < T, for the launch's
 * outputs k < count. x[p] is src[history_len + p] ([history | input], p counted from
 * the call's first new sample). arms[m*N + j] = (h_j[m], dh_j[m]). Staged: the block's
 * input span (at most max_staged samples, the host checks) is read once, coalesced,
 * into shared memory; otherwise each thread reads device memory (very low rates).
 */
template <class S, bool Staged, bool Exact>
__global__ void __launch_bounds__(threads)
    resample(history_then_input<S> src,
             int T,
             const float2* __restrict__ arms,
             const arb_checkpoint* __restrict__ cps,
             step_rule rule,
             long long count,
             S* __restrict__ out)
{
    extern __shared__ __align__(16) unsigned char smem_raw[];
    S* tile = reinterpret_cast<S*>(smem_raw);
    __shared__ int s_first, s_last;

    const long long k0 = static_cast<long long>(blockIdx.x) * threads;
    const long long k = k0 + threadIdx.x;
    const bool valid = k < count;
    int p = 0;
    unsigned j = 0;
    float a = 0.0f;
    if (valid) {
        if (Exact)
            closed_form(cps, k, rule, p, j, a);
        else
            replay(cps, k, rule, p, j, a);
    }

    const long long h = src.history_len;
    if (Staged) {
        const long long last = min(count, k0 + threads) - 1;
        if (threadIdx.x == 0)
            s_first = p;
        if (k == last)
            s_last = p;
        __syncthreads();
        const long long lo = h + s_first - (T - 1);
        const int span = s_last - s_first + T;
        for (int e = threadIdx.x; e < span; e += threads)
            tile[e] = src[lo + e];
        __syncthreads();
    }
    if (!valid)
        return;

    S o0 = zero<S>();
    S o1 = zero<S>();
    const float2* arm = arms + j; // tap m at arm[m * N]
    const int N = static_cast<int>(rule.N);
    if (Staged) {
        const S* x = tile + (p - s_first) + (T - 1); // x[-m] is input p - m
        for (int m = 0; m < T; ++m) {
            const float2 hd = __ldg(arm + m * N);
            const S v = x[-m];
            mac(o0, v, hd.x);
            mac(o1, v, hd.y);
        }
    } else {
        const long long v0 = h + p;
        for (int m = 0; m < T; ++m) {
            const float2 hd = __ldg(arm + m * N);
            const S v = src[v0 - m];
            mac(o0, v, hd.x);
            mac(o1, v, hd.y);
        }
    }
    mac(o0, o1, a); // o0 + o1 * acc, gr-filter's linear interpolation
    out[k] = o0;
}

} // namespace arb_kernels
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
