/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR_DEINTERLEAVED_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_FIR_DEINTERLEAVED_KERNELS_CUH

// Register-blocked polyphase FIR that stages its input span once per tap chunk
// (device code). Same contract and arithmetic as fir_blocked: output k of a launch is
//   sum_p sum_q taps_reversed[q*D + p] * s_p[k + q],   s_p[m] = v[first + m*D + p].
//
// Why: fir_blocked stages each phase's stream s_p on its own, a read of every D-th
// sample, D times per block: at D >= 4 each 8-byte sample costs a 32-byte sector and
// the staging, not the FMAs, sets the rate (docs/kernels.md). Here a
// block reads G consecutive phases together: the samples v[base + m*D + p0 + g],
// g < G, are G contiguous samples per m, and for G = D the whole span is one
// contiguous, coalesced read. Each sample is stored into its phase's row of shared
// memory as it arrives (deinterleaved), in fir_blocked's padded layout, and the D = 1
// core (blocked::accumulate_chunk) then runs over each row unchanged.

#include "fir_blocked_kernels.cuh"

namespace gr {
namespace gpufilter {
namespace cuda {
namespace fir_kernels {
namespace deinterleaved {

using blocked::padded;

constexpr int max_threads = 256;
constexpr int sub_tap_chunk = 64; // most sub-taps of one phase staged per pass

/*!
 * Outputs per thread: half of fir_blocked's, except for int16 samples. A thread's
 * registers then hold half the window and accumulators, so more warps fit a
 * multiprocessor, and a tile of the same size takes twice the threads to stage it.
 * On an H100 at D = 8, 16 and 32, each count at its best block size, the half won
 * 51 of 65 shapes, by up to 71%; int16 samples lost 6-18% with it in 8 of their 13
 * (docs/kernels.md, "Deinterleaved staging at D >= 5").
 */
template <class In, class Tap>
constexpr int outputs_per_thread()
{
    constexpr int blocked_r = blocked::outputs_per_thread<In, Tap>();
    return std::is_same_v<In, std::int16_t> ? blocked_r : blocked_r / 2;
}

/*!
 * The shape of one launch, chosen on the host (launch_deinterleaved):
 *  - chunk: sub-taps per phase staged per pass, a multiple of R, at most sub_tap_chunk
 *    (smaller when the filter has fewer sub-taps, so that short filters stage less);
 *  - group: phases staged together (G), D when the span fits, else fewer;
 *  - pitch: shared-memory elements between two phase rows, >= padded(tile + chunk)
 *    (a row holds tile + chunk logical samples), odd so that the deinterleaving
 *    stores of consecutive phases fall in different banks.
 */
struct shape {
    int chunk;
    int group;
    int pitch;
};

template <int R>
constexpr int row_pitch(int tile, int chunk)
{
    return padded<R>(tile + chunk) | 1;
}

//! Shared memory of one block: G rows of taps, then G rows of samples, which the
//! outputs reuse at the end.
template <class In, class Tap, class Out, int R>
constexpr std::size_t smem_bytes(int threads, const shape& s)
{
    const std::size_t taps = std::size_t(s.group) * s.chunk * sizeof(Tap);
    const std::size_t x = std::size_t(s.group) * s.pitch * sizeof(compute_t<In>);
    const std::size_t out = std::size_t(padded<R>(threads * R)) * sizeof(Out);
    return taps + (x > out ? x : out);
}

/*!
 * Stages the group's samples and taps for one chunk of sub-taps:
 *   s_x[g*pitch + padded(m)] = v[base + m*D + g]   for g < gn, m < span,
 * read in order of i = m*gn + g: v offset m*D + g = i + m*(D - gn), so for gn = D
 * consecutive threads read consecutive samples (coalesced), and for gn < D they read
 * runs of gn contiguous samples, in rounds of blocked::loads_per_round loads a
 * thread. A thread stages gn * R samples of the tile and gn * chunk / threads of the
 * chunk: ceil(gn * R / 9) rounds, the chunk's samples in the last round's spare
 * loads (8 a round took gn * R / 8 rounds and one more for them).
 */
template <int R, class X, class Read>
__device__ __forceinline__ void
stage_group(Read read, int D, int gn, int span, int pitch, X* s_x)
{
    constexpr int batch = blocked::loads_per_round;
    const int n = blockDim.x;
    const int items = span * gn;
    const unsigned ugn = static_cast<unsigned>(gn);
    for (int i0 = threadIdx.x; i0 < items; i0 += batch * n) {
        X v[batch];
#pragma unroll
        for (int b = 0; b < batch; ++b) {
            const int i = i0 + b * n;
            const int m = static_cast<int>(static_cast<unsigned>(i) / ugn);
            v[b] = i < items ? read(i + static_cast<long long>(m) * (D - gn)) : zero<X>();
        }
#pragma unroll
        for (int b = 0; b < batch; ++b) {
            const int i = i0 + b * n;
            if (i < items) {
                const int m = static_cast<int>(static_cast<unsigned>(i) / ugn);
                const int g = i - m * gn;
                s_x[g * pitch + padded<R>(m)] = v[b];
            }
        }
    }
}

template <int R, class In, class X>
__device__ __forceinline__ void stage_group_inputs(const history_then_input<In>& src,
                                                   long long base,
                                                   int D,
                                                   int gn,
                                                   int span,
                                                   int pitch,
                                                   X* s_x)
{
    // The group reads v[base, base + (span-1)*D + gn-1]; inside the caller's input
    // (the usual case) straight from it, without history_then_input's bounds tests.
    if (src.in_input(base, static_cast<long long>(span - 1) * D + gn)) {
        const In* in = src.from(base);
        stage_group<R>([=](long long o) { return to_compute(__ldg(in + o)); },
                       D,
                       gn,
                       span,
                       pitch,
                       s_x);
    } else {
        stage_group<R>([=](long long o) { return to_compute(src[base + o]); },
                       D,
                       gn,
                       span,
                       pitch,
                       s_x);
    }
}

/*!
 * A block of blockDim.x threads computes tile = blockDim.x*R consecutive kept outputs
 * k0 .. k0+tile-1; thread t owns k0 + t*R .. k0 + t*R + R-1 (as fir_blocked). For each
 * group of phases p0 .. p0+gn-1 (gn = min(G, phases - p0)) and each chunk of sub-taps
 * q in [qc, qc + chunk_g) (chunk_g = min(C, sub_taps(p0+g) - qc) >= 0: a later phase
 * has at most one sub-tap fewer, and qc < sub_taps(p0)) it stages, with
 * base = first + (k0 + qc)*D + p0 and span = tile + round_up(chunk_0, R):
 *   s_taps[g*C + i] = taps_reversed[(qc+i)*D + p0+g]   (i < chunk_g, zeros up to
 *                                                       round_up(chunk_0, R))
 *   s_x[g*pitch + padded(m)] = v[base + m*D + g]       (m < span)
 * so that row g is phase p0+g's stream from s_{p0+g}[k0 + qc] on, and output
 * k = k0 + t*R + r gets sum_i s_taps[g*C + i] * row_g[t*R + r + i]
 *   = sum_i taps_reversed[j] * v[first + k*D + j],   j = (qc+i)*D + p0+g.
 * accumulate_chunk reads row_g below logical tile + round_up(chunk_g, R) <= span.
 * Every output adds its taps in the same order (group, chunk, phase, sub-tap)
 * wherever it falls in a tile, so splitting the input into calls changes no bit.
 */
template <class In, class Tap, class Out, int R, class Epilogue>
__global__ void __launch_bounds__(max_threads)
    fir_deinterleaved(history_then_input<In> src,
                      long long first,
                      int decimation,
                      const Tap* __restrict__ taps_reversed,
                      int ntaps,
                      long long noutputs,
                      Out* __restrict__ out,
                      Epilogue epilogue,
                      shape sh,
                      history_keep<In> keep)
{
    keep.copy();
    using X = compute_t<In>;
    extern __shared__ __align__(16) unsigned char smem[];
    // C*sizeof(Tap) is a multiple of R*sizeof(Tap), itself of 16: every tap row and
    // the sample rows start 16-byte aligned (load_aligned reads float4s).
    Tap* s_taps = reinterpret_cast<Tap*>(smem);
    X* s_x = reinterpret_cast<X*>(smem + std::size_t(sh.group) * sh.chunk * sizeof(Tap));

    const int D = decimation;
    const int C = sh.chunk;
    const int t = threadIdx.x;
    const int tile = blockDim.x * R;
    const long long k0 = static_cast<long long>(blockIdx.x) * tile;

    using Acc = accumulator_t<In, Out>;
    Acc acc[R];
#pragma unroll
    for (int r = 0; r < R; ++r)
        acc[r] = zero<Acc>();

    const int phases = min(D, ntaps);
    for (int p0 = 0; p0 < phases; p0 += sh.group) {
        const int gn = min(sh.group, phases - p0);
        const int sub_taps0 = (ntaps - p0 + D - 1) / D; // the group's most sub-taps
        for (int qc = 0; qc < sub_taps0; qc += C) {
            const int rounded = (min(C, sub_taps0 - qc) + R - 1) / R * R;
            const int span = tile + rounded;
            __syncthreads(); // the previous chunk is no longer being read
            // Taps in order of i*gn + g: consecutive threads read consecutive taps.
            const int tap_items = rounded * gn;
            for (int e = t; e < tap_items; e += blockDim.x) {
                const int i = e / gn;
                const int g = e - i * gn;
                const int j = (qc + i) * D + p0 + g; // j < ntaps <=> i < chunk_g
                s_taps[g * C + i] = j < ntaps ? taps_reversed[j] : zero<Tap>();
            }
            stage_group_inputs<R>(
                src, first + (k0 + qc) * D + p0, D, gn, span, sh.pitch, s_x);
            __syncthreads();
            for (int g = 0; g < gn; ++g) {
                const int chunk = min(C, (ntaps - p0 - g + D - 1) / D - qc);
                if (chunk > 0)
                    blocked::accumulate_chunk(
                        acc, s_x + g * sh.pitch + t * (R + 1), s_taps + g * C, chunk);
            }
        }
    }

    // Through shared memory (the padded layout: conflict-free writes) to coalesce.
    Out* s_out = reinterpret_cast<Out*>(s_x);
    __syncthreads();
#pragma unroll
    for (int r = 0; r < R; ++r)
        s_out[t * (R + 1) + r] = epilogue(to_output<Out>(acc[r]), k0 + t * R + r);
    __syncthreads();
    const int valid = static_cast<int>(min(static_cast<long long>(tile), noutputs - k0));
    for (int i = t; i < valid; i += blockDim.x)
        out[k0 + i] = s_out[padded<R>(i)];
}

} // namespace deinterleaved
} // namespace fir_kernels
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
