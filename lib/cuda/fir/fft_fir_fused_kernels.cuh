/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FFT_FIR_FUSED_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_FFT_FIR_FUSED_KERNELS_CUH

// Overlap-save in one kernel (fft_fir_engine's fused path): a thread block loads one
// segment, transforms it in shared memory (block_fft.cuh), multiplies by the taps'
// spectrum, transforms back and writes the kept outputs. A sample is read from device
// memory once (plus the overlap, which the neighbouring block has just pulled into
// L2) and each output written once, where the cuFFT path moves every bin through
// device memory four times. Segment geometry and names as in fft_fir_kernels.cuh.
// The round trip is block_fft::convolve (the product in registers, between the
// forward's last stage and the inverse's first); the spectrum carries the 1/N.
//
// Real input with real taps packs two segments into one complex transform (segment s
// in the real part, s+1 in the imaginary part): the taps' spectrum is Hermitian, so
// the two results come back apart in the real and imaginary parts.

#include "../common/block_fft.cuh"
#include "../common/cuda_check.h"
#include "../common/device_math.cuh"
#include "../common/history_keep.cuh"
#include "../common/kernel_attributes.h"
#include "fft_fir_kernels.cuh"
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {
namespace cuda {
namespace fft_fir_fused {

//! Threads per block of an N-point fused transform: one radix-16 butterfly each.
__host__ __device__ constexpr int threads_for(int n) { return n / 16; }
//! Blocks per multiprocessor the register budget is set for: 64 registers a thread,
//! 2048 threads per multiprocessor. The stages wait at a barrier each, so the
//! multiprocessor needs other blocks' warps to hide them (measured).
__host__ __device__ constexpr int min_blocks_for(int n) { return 1024 / threads_for(n); }

struct geometry {
    long long origin;   // virtual index of segment 0's first point
    long long advance;  // L
    int history;        // H
    int decimation;     // D
    int per_segment;    // Q
    long long k0;       // output index of segment 0
    long long noutputs; // outputs of the call
    long long segments; // segments of the call
    //! division_magic(D): a point's output index without a division instruction.
    unsigned decimation_magic;
};

//! floor(2^32 / D) + 1 for D > 1 (0 for D = 1): __umulhi(d, it) = d / D exactly for
//! every d < 2^16 (d/D plus an error below d / 2^32 <= 2^-16, which cannot reach the
//! next whole number while D < 2^16; for larger D both sides are 0). A transform's
//! point index is below 2^16.
__host__ __device__ constexpr unsigned division_magic(int D)
{
    return D > 1 ? static_cast<unsigned>((1ULL << 32) / static_cast<unsigned>(D) + 1)
                 : 0u;
}
static_assert(block_fft_plan::max_size <= (1 << 16),
              "division_magic: a transform's point index must stay below 2^16");

//! Writes kept output q of segment s, conj_y the conjugate of its point (real input
//! packed in pairs: the real part is segment s's, the imaginary part s + 1's).
template <bool Pack, class Out, class Epilogue>
__device__ __forceinline__ void store_kept(Out* __restrict__ out,
                                           const geometry& g,
                                           long long s,
                                           bool has_pair,
                                           int q,
                                           float2 conj_y,
                                           Epilogue& epilogue)
{
    const float2 y = block_fft::conj(conj_y);
    const long long k = g.k0 + s * g.per_segment + q;
    if constexpr (Pack) {
        if (k < g.noutputs)
            out[k] = epilogue(y.x, k);
        const long long k1 = k + g.per_segment;
        if (has_pair && k1 < g.noutputs)
            out[k1] = epilogue(y.y, k1);
    } else {
        if (k < g.noutputs)
            out[k] = epilogue(fft_fir_kernels::from_complex<Out>(y), k);
    }
}

template <int N, bool Pack, class In, class Out, class Epilogue>
__global__ void __launch_bounds__(threads_for(N), min_blocks_for(N))
    convolve(history_then_input<In> src,
             geometry g,
             const float2* __restrict__ spectrum,
             const float2* __restrict__ twiddles,
             Out* __restrict__ out,
             Epilogue epilogue,
             history_keep<In> keep)
{
    namespace bf = block_fft;
    constexpr int T = threads_for(N);
    extern __shared__ float2 buf[];
    const float2* tw_fwd = twiddles;
    const float2* tw_inv = twiddles + block_fft_plan{ N, true }.twiddle_count();

    const long long s = static_cast<long long>(blockIdx.x) * (Pack ? 2 : 1);
    const long long start = g.origin + s * g.advance;
    const bool has_pair = Pack && s + 1 < g.segments;
    // Block-uniform: the segment (and its pair) lies in the caller's input, as in
    // most blocks of a long call, so its loads need no range tests.
    const bool inside = src.in_input(start, N + (Pack ? g.advance : 0));
    const In* x = inside ? src.from(start) : src.input;

    bf::convolve<N, T>(
        buf,
        // Forward stage 0 straight from the caller's samples (and the history).
        [&](int i) {
            if constexpr (Pack) {
                if (inside)
                    return make_float2(x[i], has_pair ? x[i + g.advance] : 0.0f);
                const float b = has_pair ? src[start + g.advance + i] : 0.0f;
                return make_float2(src[start + i], b);
            } else {
                return fft_fir_kernels::to_complex(inside ? x[i] : src[start + i]);
            }
        },
        [&](int j, int r) { return __ldg(spectrum + j + r * (N / 16)); },
        // Inverse last stage straight to the outputs: point i of segment s is output
        // q = (i - H) / D where i - H is a non-negative multiple of D below L.
        [&](int i, float2 y) {
            const int d = i - g.history;
            if (d < 0)
                return;
            int q = d; // D = 1 (block-uniform) needs no division
            if (g.decimation > 1) {
                q = static_cast<int>(
                    __umulhi(static_cast<unsigned>(d), g.decimation_magic));
                if (q * g.decimation != d)
                    return;
            }
            if (q >= g.per_segment)
                return;
            store_kept<Pack>(out, g, s, has_pair, q, y, epilogue);
        },
        tw_fwd,
        tw_inv);
    // The next call's history, where the call asked for it (n = 0: none): after the
    // transforms, where it holds no register of theirs (at the start it made the
    // kernel spill under its 64-register cap).
    keep.copy();
}

//! Launches convolve over g.segments segments (pairs when Pack), for an N the engine
//! has checked with fits_device. One block per segment: the largest calls have tens
//! of thousands, and a block's shared memory is its whole working set.
template <int N, bool Pack, class In, class Out, class Epilogue>
void launch_size(history_then_input<In> src,
                 const geometry& g,
                 const float2* spectrum,
                 const float2* twiddles,
                 Out* out,
                 Epilogue epilogue,
                 history_keep<In> keep,
                 cudaStream_t stream)
{
    auto* kernel = convolve<N, Pack, In, Out, Epilogue>;
    constexpr int bytes = block_fft::padded_size(N) * sizeof(float2);
    if constexpr (bytes > 48 * 1024)
        allow_dynamic_shared_memory(kernel, bytes);
    const long long blocks = Pack ? (g.segments + 1) / 2 : g.segments;
    kernel<<<static_cast<unsigned>(blocks), threads_for(N), bytes, stream>>>(
        src, g, spectrum, twiddles, out, epilogue, keep);
    GPUFILTER_CHECK_LAUNCH();
}

//! The sizes with a fused kernel: the smallest worth a kernel of its own, up to the
//! largest whose padded points fit a block's shared memory on sm_80 and sm_90.
constexpr int min_size = 1024;
constexpr int max_size = block_fft_plan::max_size;
inline bool has_kernel(int n) { return n >= min_size && n <= max_size && !(n & (n - 1)); }
inline std::size_t shared_bytes(int n)
{
    return static_cast<std::size_t>(block_fft::padded_size(n)) * sizeof(float2);
}

template <bool Pack, class In, class Out, class Epilogue>
void launch(int n,
            history_then_input<In> src,
            const geometry& g,
            const float2* spectrum,
            const float2* twiddles,
            Out* out,
            Epilogue epilogue,
            history_keep<In> keep,
            cudaStream_t stream)
{
    switch (n) {
    case 1024:
        return launch_size<1024, Pack>(
            src, g, spectrum, twiddles, out, epilogue, keep, stream);
    case 2048:
        return launch_size<2048, Pack>(
            src, g, spectrum, twiddles, out, epilogue, keep, stream);
    case 4096:
        return launch_size<4096, Pack>(
            src, g, spectrum, twiddles, out, epilogue, keep, stream);
    case 8192:
        return launch_size<8192, Pack>(
            src, g, spectrum, twiddles, out, epilogue, keep, stream);
    case 16384:
        return launch_size<16384, Pack>(
            src, g, spectrum, twiddles, out, epilogue, keep, stream);
    default:
        throw std::logic_error("fused FFT FIR: no kernel for " + std::to_string(n) +
                               " points");
    }
}

} // namespace fft_fir_fused
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
