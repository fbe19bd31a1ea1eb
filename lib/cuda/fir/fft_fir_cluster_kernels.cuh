/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FFT_FIR_CLUSTER_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_FFT_FIR_CLUSTER_KERNELS_CUH

// Overlap-save in one pass for filters longer than one block's shared memory holds
// (fft_fir_engine's cluster path, sm_90 on): the N = C * M point transform of a
// segment is shared by a cluster of C thread blocks (C = 2, M = 16384), each an
// M-point block FFT (block_fft.cuh), so a sample still crosses device memory once
// and an output once. Segment geometry and names as in fft_fir_kernels.cuh and
// fft_fir_fused_kernels.cuh.
//
// With W_N = exp(-2 pi i / N), block b of the cluster (b < C) works on the bins
// k = C m + b, m < M:
//   forward:  X[C m + b] = FFT_M(u_b)[m],  u_b[i] = W_N^(i b) sum_r x[i + r M] W_C^(r b)
//             (one decimation-in-frequency step of radix C). The blocks share it by
//             i: block b reads the C points i + r M for its M / C values of i, once
//             each, and writes u_r[i] for every r into block r's shared memory
//             (distributed shared memory), so every block does the same work and a
//             sample is read from device memory once;
//   product:  Y = X * spectrum, the spectrum stored by block (spectrum[b M + m] =
//             S[C m + b], carrying the 1/N);
//   inverse:  as elsewhere conj(FFT(conj(Y))). Block b leaves z_b = FFT_M(conj(Y_b))
//             in its shared memory, and
//             conj(y[i + q M]) = sum_b W_C^(q b) W_N^(i b) z_b[i]
//             (the decimation-in-time step of radix C): after a cluster barrier,
//             each block reads z_b[i] from the C blocks' shared memory for its share
//             of the segment's kept outputs and applies the twiddles there, so that
//             no block has more to do than another before the barrier.
// The M-point round trip is block_fft::convolve, as in the one-block kernel; real
// input with real taps packs two segments into one transform the same way.

#include "../common/block_fft.cuh"
#include "../common/cuda_check.h"
#include "../common/kernel_attributes.h"
#include "fft_fir_fused_kernels.cuh"
#include "fft_fir_kernels.cuh"
#include <cooperative_groups.h>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {
namespace cuda {
namespace fft_fir_cluster {

//! The block FFT size of the cluster kernel, and the size it runs: clusters of 2
//! blocks of the largest one-block size. The kernel is written for C = 2 or 4; 4
//! blocks (65536 points) measured slower than 2 wherever both apply and within 2% of
//! the partitioned path beyond (docs/kernels.md), so only 2 are compiled.
constexpr int local_size = fft_fir_fused::max_size;
constexpr int blocks = 2;
constexpr int size = blocks * local_size;

//! x * W_C^k, k known at compile time: a quarter turn or a half costs no multiply.
template <int K, int C>
__device__ __forceinline__ float2 mul_root(float2 x)
{
    static_assert(C == 2 || C == 4, "fft_fir_cluster: clusters of 2 or 4 blocks");
    return block_fft::mul_root<K % C, C>(x);
}

//! Block b's share of the radix-C step before the block FFTs: for the M / C points
//! i = b M / C + j it reads x[i + r M] (sample(i + r M), r < C) once and writes u_r[i]
//! into block r's buffer: `own`, its shared memory, for r = b; dst[r], another
//! block's through distributed shared memory, otherwise. The roots are compile-time
//! constants.
template <int M, int C, class Sample>
__device__ __forceinline__ void radix_step_share(float2* own,
                                                 float2* const (&dst)[C],
                                                 int b,
                                                 const float2* __restrict__ cross,
                                                 Sample&& sample)
{
    namespace bf = block_fft;
    constexpr int T = fft_fir_fused::threads_for(M);
    constexpr int share = M / C;
    static_assert(share % T == 0, "fft_fir_cluster: whole rounds of the block's threads");
#pragma unroll 2
    for (int p = 0; p < share / T; ++p) {
        const int i = b * share + threadIdx.x + p * T;
        float2 x[C];
        bf::static_for<0, C>([&](auto r) { x[r] = sample(i + r * M); });
        bf::static_for<0, C>([&](auto to_) {
            constexpr int to = to_;
            float2 u = x[0];
            bf::static_for<1, C>([&](auto r_) {
                constexpr int r = r_;
                const float2 y = mul_root<r * to, C>(x[r]);
                u = make_float2(u.x + y.x, u.y + y.y);
            });
            if constexpr (to > 0) // W_N^(i to); block 0's are all 1
                u = bf::cmul(u, __ldg(cross + to * M + i));
            if (to == b) // plain shared memory stores for the block's own part
                own[bf::slot(i)] = u;
            else
                dst[to][bf::slot(i)] = u;
        });
    }
}

//! The C-point DFT of t (t[r] = t_r[i], the blocks' twiddled points) at output Q.
template <int C, int Q>
__device__ __forceinline__ float2 dft_point(const float2 (&t)[C])
{
    float2 y = t[0];
    block_fft::static_for<1, C>([&](auto r_) {
        constexpr int r = r_;
        const float2 x = mul_root<r * Q, C>(t[r]);
        y = make_float2(y.x + x.x, y.y + x.y);
    });
    return y;
}

template <int C, bool Pack, class In, class Out, class Epilogue>
__global__ void __launch_bounds__(fft_fir_fused::threads_for(local_size), 1)
    convolve(history_then_input<In> src,
             fft_fir_fused::geometry g,
             const float2* __restrict__ spectrum,
             const float2* __restrict__ twiddles,
             Out* __restrict__ out,
             Epilogue epilogue)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    namespace bf = block_fft;
    namespace cg = cooperative_groups;
    constexpr int M = local_size;
    constexpr int T = fft_fir_fused::threads_for(M);
    extern __shared__ float2 buf[];
    const float2* tw_fwd = twiddles;
    const float2* tw_inv = twiddles + block_fft_plan{ M, true }.twiddle_count();
    // The radix-C steps' W_N^(i b) after the block FFT's tables
    // (block_fft_step_twiddles).
    const float2* cross = tw_inv + block_fft_plan{ M, false }.twiddle_count();

    cg::cluster_group cluster = cg::this_cluster();
    const int b = static_cast<int>(cluster.block_rank());
    const long long s = static_cast<long long>(blockIdx.x / C) * (Pack ? 2 : 1);
    const long long start = g.origin + s * g.advance;
    const bool has_pair = Pack && s + 1 < g.segments;
    // The other blocks' shared memory may be written once they have started.
    cluster.barrier_arrive();
    float2* dst[C];
    bf::static_for<0, C>([&](auto r) { dst[r] = cluster.map_shared_rank(buf, r); });
    cluster.barrier_wait();
    // The radix-C step, apart from the block FFT: its C loads a point would spill the
    // first stage's registers.
    auto step = [&](auto&& sample) {
        radix_step_share<M, C>(buf, dst, b, cross, sample);
    };
    const long long span = C * M + (Pack ? g.advance : 0);
    if (src.in_input(start, span)) {
        // All of the segment (and its pair) in the caller's input: plain loads.
        const In* x = src.from(start);
        step([&](int i) {
            if constexpr (Pack)
                return make_float2(x[i], has_pair ? x[i + g.advance] : 0.0f);
            else
                return fft_fir_kernels::to_complex(x[i]);
        });
    } else {
        step([&](int i) {
            if constexpr (Pack)
                return make_float2(src[start + i],
                                   has_pair ? src[start + i + g.advance] : 0.0f);
            else
                return fft_fir_kernels::to_complex(src[start + i]);
        });
    }
    cluster.sync(); // every block's u_b is complete

    bf::convolve<M, T, 1, bf::io::in_buf, bf::io::in_buf>(
        buf,
        [&](int i) { return buf[bf::slot(i)]; },
        [&](int j, int r) { return __ldg(spectrum + b * M + j + r * (M / 16)); },
        [&](int i, float2 z) { buf[bf::slot(i)] = z; },
        tw_fwd,
        tw_inv);

    cluster.sync(); // every block's z_b is complete
    // The kept outputs, shared evenly by the blocks: output q of the segment is at
    // point H + q D, in part Q = (H + q D) / M of the transform, made from the blocks'
    // z_b[i] twiddled by W_N^(i b).
    const int share = (g.per_segment + C - 1) / C;
    const int q_end = min(g.per_segment, (b + 1) * share);
#pragma unroll 2
    for (int q = b * share + threadIdx.x; q < q_end; q += T) {
        const int at = g.history + q * g.decimation;
        const int i = at % M;
        float2 t[C];
        bf::static_for<0, C>([&](auto r_) {
            constexpr int r = r_;
            if (r == b)
                t[r] = buf[bf::slot(i)];
            else
                t[r] = dst[r][bf::slot(i)];
            if constexpr (r > 0)
                t[r] = bf::cmul(t[r], __ldg(cross + r * M + i));
        });
        float2 y = dft_point<C, 0>(t);
        bf::static_for<1, C>([&](auto Q_) {
            constexpr int Q = Q_;
            if (at / M == Q)
                y = dft_point<C, Q>(t);
        });
        fft_fir_fused::store_kept<Pack>(out, g, s, has_pair, q, y, epilogue);
    }
    cluster.sync(); // no block leaves while the others read its shared memory
#else
    __trap(); // the engine runs this path only on devices with thread block clusters
#endif
}

//! Launches the cluster kernel over g.segments segments (pairs when Pack) of
//! fft_size points (size); twiddles: the block FFT's forward and inverse tables, then
//! block_fft_step_twiddles(size, blocks).
template <bool Pack, class In, class Out, class Epilogue>
void launch(int fft_size,
            history_then_input<In> src,
            const fft_fir_fused::geometry& g,
            const float2* spectrum,
            const float2* twiddles,
            Out* out,
            Epilogue epilogue,
            cudaStream_t stream)
{
    if (fft_size != size)
        throw std::logic_error("cluster FFT FIR: no kernel for " +
                               std::to_string(fft_size) + " points");
    auto* kernel = convolve<blocks, Pack, In, Out, Epilogue>;
    constexpr int bytes = block_fft::padded_size(local_size) * sizeof(float2);
    allow_dynamic_shared_memory(kernel, bytes);
    const long long clusters = Pack ? (g.segments + 1) / 2 : g.segments;
    if (clusters * blocks > 0x7fffffffLL)
        throw std::logic_error("cluster FFT FIR: grid too large");
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(static_cast<unsigned>(clusters * blocks));
    config.blockDim = dim3(fft_fir_fused::threads_for(local_size));
    config.dynamicSmemBytes = bytes;
    config.stream = stream;
    cudaLaunchAttribute cluster_dim{};
    cluster_dim.id = cudaLaunchAttributeClusterDimension;
    cluster_dim.val.clusterDim.x = blocks;
    cluster_dim.val.clusterDim.y = 1;
    cluster_dim.val.clusterDim.z = 1;
    config.attrs = &cluster_dim;
    config.numAttrs = 1;
    GPUFILTER_CHECK(
        cudaLaunchKernelEx(&config, kernel, src, g, spectrum, twiddles, out, epilogue));
}

} // namespace fft_fir_cluster
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
