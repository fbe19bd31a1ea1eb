/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FFT_FIR_PARTITIONED_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_FFT_FIR_PARTITIONED_KERNELS_CUH

// Uniformly partitioned overlap-save (fft_fir_engine's path for filters longer than
// half the largest block FFT): the taps are cut into P partitions of B = N/2, each
// with its N-point spectrum H_p. Segment m holds the N samples ending B positions
// after block m starts; block b's outputs are the last B points of
// IFFT(sum_p S_{b-p} H_p), where S_m is segment m's spectrum. So a sample is
// transformed once (spectra), and each block's inverse reads P spectra that the
// previous blocks have just written, from L2 when a group's spectra fit there.
//
// Positions count from the call's first output's newest sample, v[first + H]
// (names as in fft_fir_kernels.cuh): output k is at position k*D. Block b covers
// positions [b*B, (b+1)*B); segment m covers v[first + H - (B-1) + m*B + i],
// i in [0, N), so position b*B + t is point B - 1 + t of segment b: partition p's
// taps j < B reach back to point B - 1 + t - j >= 0 of segment b - p, with no wrap.
//
// Real input with real taps packs block b + K into the imaginary part of block b
// (K = half the group's blocks), as the fused kernel packs segment pairs.

#include "../common/block_fft.cuh"
#include "../common/cuda_check.h"
#include "../common/device_math.cuh"
#include "../common/kernel_attributes.h"
#include "fft_fir_fused_kernels.cuh"
#include "fft_fir_kernels.cuh"

namespace gr {
namespace gpufilter {
namespace cuda {
namespace fft_fir_partitioned {

struct geometry {
    long long origin;    // virtual index of the group's segment 0's first point
    long long position0; // position of the group's block 0
    int partitions;      // P
    long long blocks;    // blocks of the group
    long long pairs;     // K: block b + K rides with b (Pack), else blocks
    int decimation;
    long long noutputs; // outputs of the call
};

//! Spectra of segments m in [-(P-1), K): spectra[(m + P - 1) * N + f].
template <int N, bool Pack, class In>
__global__ void __launch_bounds__(fft_fir_fused::threads_for(N),
                                  fft_fir_fused::min_blocks_for(N))
    spectra(history_then_input<In> src,
            geometry g,
            const float2* __restrict__ twiddles,
            float2* __restrict__ spectra)
{
    namespace bf = block_fft;
    constexpr int T = fft_fir_fused::threads_for(N);
    constexpr int B = N / 2;
    extern __shared__ float2 buf[];
    const long long m = static_cast<long long>(blockIdx.x) - (g.partitions - 1);
    const long long start = g.origin + m * B;
    using last = bf::forward_last<N, T>;
    typename last::values v;
    bf::forward_to_registers<N, T>(
        buf,
        [&](int i) {
            if constexpr (Pack)
                return make_float2(src[start + i], src[start + g.pairs * B + i]);
            else
                return fft_fir_kernels::to_complex(src[start + i]);
        },
        v,
        twiddles);
    float2* out = spectra + static_cast<long long>(blockIdx.x) * N;
    last::store(v, [&](int f, float2 y) { out[f] = y; });
}

//! Block b of the group (b < K): sum_p S_{b-p} H_p, inverse, the kept positions.
template <int N, bool Pack, class Out, class Epilogue>
__global__ void __launch_bounds__(fft_fir_fused::threads_for(N),
                                  fft_fir_fused::min_blocks_for(N))
    accumulate_inverse(geometry g,
                       const float2* __restrict__ spectra,
                       const float2* __restrict__ taps_spectra,
                       const float2* __restrict__ twiddles,
                       Out* __restrict__ out,
                       Epilogue epilogue)
{
    namespace bf = block_fft;
    constexpr int T = fft_fir_fused::threads_for(N);
    constexpr int B = N / 2;
    constexpr block_fft_plan fwd{ N, true };
    const float2* tw_inv = twiddles + fwd.twiddle_count();
    extern __shared__ float2 buf[];
    const long long b = blockIdx.x;

    using first = bf::inverse_first<N, T>;
    typename first::values v;
#pragma unroll
    for (int p = 0; p < first::P; ++p)
#pragma unroll
        for (int r = 0; r < 16; ++r)
            v[p][r] = make_float2(0.0f, 0.0f);
    for (int part = 0; part < g.partitions; ++part) {
        // Segment b - part sits at row b - part + P - 1 of the spectra.
        const float2* s = spectra + (b - part + g.partitions - 1) * N;
        const float2* h = taps_spectra + static_cast<long long>(part) * N;
#pragma unroll
        for (int p = 0; p < first::P; ++p) {
            const int j = first::butterfly(p);
#pragma unroll
            for (int r = 0; r < 16; ++r) {
                const int f = j + r * (N / 16);
                const float2 a = s[f], w = __ldg(h + f);
                v[p][r].x = fmaf(a.x, w.x, fmaf(-a.y, w.y, v[p][r].x));
                v[p][r].y = fmaf(a.x, w.y, fmaf(a.y, w.x, v[p][r].y));
            }
        }
    }
#pragma unroll
    for (int p = 0; p < first::P; ++p)
#pragma unroll
        for (int r = 0; r < 16; ++r)
            v[p][r] = bf::conj(v[p][r]);
    const long long D = g.decimation;
    // buf is untouched so far: no barrier before the inverse's first store.
    bf::inverse_from_registers<N, T, 1, false>(
        buf,
        v,
        [&](int i, float2 y) {
            const int t = i - (B - 1);
            if (t < 0 || t >= B)
                return;
            y = bf::conj(y);
            const long long pos = g.position0 + b * B + t;
            if (pos % D == 0 && pos / D < g.noutputs) {
                const long long k = pos / D;
                if constexpr (Pack)
                    out[k] = epilogue(y.x, k);
                else
                    out[k] = epilogue(fft_fir_kernels::from_complex<Out>(y), k);
            }
            if constexpr (Pack) {
                const long long pos1 = pos + g.pairs * B;
                if (b + g.pairs < g.blocks && pos1 % D == 0 && pos1 / D < g.noutputs)
                    out[pos1 / D] = epilogue(y.y, pos1 / D);
            }
        },
        tw_inv);
}

//! The partition sizes with kernels: the fused kernel's largest two.
inline bool has_kernel(int n) { return n == 8192 || n == 16384; }

template <int N, bool Pack, class In, class Out, class Epilogue>
void launch_size(history_then_input<In> src,
                 const geometry& g,
                 const float2* taps_spectra,
                 const float2* twiddles,
                 float2* spectra_buffer,
                 Out* out,
                 Epilogue epilogue,
                 cudaStream_t stream)
{
    constexpr int bytes = block_fft::padded_size(N) * sizeof(float2);
    constexpr int T = fft_fir_fused::threads_for(N);
    auto* forward = spectra<N, Pack, In>;
    auto* inverse = accumulate_inverse<N, Pack, Out, Epilogue>;
    allow_dynamic_shared_memory(forward, bytes);
    allow_dynamic_shared_memory(inverse, bytes);
    const auto segments = static_cast<unsigned>(g.pairs + g.partitions - 1);
    forward<<<segments, T, bytes, stream>>>(src, g, twiddles, spectra_buffer);
    GPUFILTER_CHECK_LAUNCH();
    inverse<<<static_cast<unsigned>(g.pairs), T, bytes, stream>>>(
        g, spectra_buffer, taps_spectra, twiddles, out, epilogue);
    GPUFILTER_CHECK_LAUNCH();
}

template <bool Pack, class In, class Out, class Epilogue>
void launch(int n,
            history_then_input<In> src,
            const geometry& g,
            const float2* taps_spectra,
            const float2* twiddles,
            float2* spectra_buffer,
            Out* out,
            Epilogue epilogue,
            cudaStream_t stream)
{
    if (n == 8192)
        return launch_size<8192, Pack>(
            src, g, taps_spectra, twiddles, spectra_buffer, out, epilogue, stream);
    if (n == 16384)
        return launch_size<16384, Pack>(
            src, g, taps_spectra, twiddles, spectra_buffer, out, epilogue, stream);
    throw std::logic_error("partitioned FFT FIR: no kernel for " + std::to_string(n) +
                           " points");
}

} // namespace fft_fir_partitioned
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
