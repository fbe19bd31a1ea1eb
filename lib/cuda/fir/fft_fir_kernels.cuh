/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FFT_FIR_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_FFT_FIR_KERNELS_CUH

// Device code of the overlap-save FIR (fft_fir_engine). The FFTs themselves are
// cuFFT's; these kernels are the passes around them. Names used below:
//   N  FFT size (samples per segment)     H = ntaps-1 (history, the overlap)
//   L  segment advance, a multiple of D   Q = L/D (kept outputs per segment)
//   v  the virtual sequence [history (H) | input (n)], history_then_input
//   first  the decimation phase: output k of the call has its newest sample at
//          v[first + k*D + H]
// Segment s (counted from the call's first segment) holds v[first + s*L + i],
// i in [0, N). Its circular convolution with the taps at position i >= H equals the
// linear one, sum_j taps[j] * v[first + s*L + i - j], because i - j >= 0 for every j:
// nothing wraps. Output k = s*Q + q is at i = H + q*D:
//   first + k*D + H = first + s*Q*D + q*D + H = first + s*L + (H + q*D).
// The largest i used, H + (Q-1)*D = H + L - D <= N - D, is inside the segment.

#include "../common/device_math.cuh"

namespace gr {
namespace gpufilter {
namespace cuda {
namespace fft_fir_kernels {

constexpr int threads = 256;

__device__ __forceinline__ float2 to_complex(float x) { return make_float2(x, 0.0f); }
__device__ __forceinline__ float2 to_complex(float2 x) { return x; }
__device__ __forceinline__ float2 to_complex(std::int16_t x)
{
    return make_float2(static_cast<float>(x), 0.0f);
}

//! The kept part of a complex result in the output type: a real filter's result is
//! real up to rounding, its imaginary part is dropped.
template <class Out>
__device__ __forceinline__ Out from_complex(float2 x);
template <>
__device__ __forceinline__ float from_complex<float>(float2 x)
{
    return x.x;
}
template <>
__device__ __forceinline__ float2 from_complex<float2>(float2 x)
{
    return x;
}

/*!
 * Segment building, with type widening: segments[s*N + i] = v[origin + s*L + i] for
 * s = blockIdx.y, i in [0, N). Reads the caller's buffer in place (no copy behind
 * the history); samples past the input read as zeros (they only feed outputs that
 * are not written). Writes 8*N bytes per segment, i.e. 8*N/L bytes per input
 * sample; reads sizeof(In) per sample plus the H-sample overlap, which the
 * neighbouring segment has just pulled into L2.
 */
template <class In>
__global__ void __launch_bounds__(threads) build_segments(history_then_input<In> src,
                                                          long long origin,
                                                          long long advance,
                                                          int fft_size,
                                                          float2* __restrict__ segments)
{
    const int i = blockIdx.x * threads + threadIdx.x;
    if (i >= fft_size)
        return;
    const long long s = blockIdx.y;
    segments[s * fft_size + i] = to_complex(src[origin + s * advance + i]);
}

/*!
 * Pointwise product with the tap spectrum (already scaled by 1/N, so the unscaled
 * inverse FFT returns the convolution): segments[s*N + f] *= spectrum[f]. One read
 * and one write of 8 bytes per bin (8*N/L bytes per sample each way); the spectrum,
 * 8*N bytes, is shared by all segments and stays in L2.
 */
__global__ void __launch_bounds__(threads)
    multiply_spectrum(float2* __restrict__ segments,
                      const float2* __restrict__ spectrum,
                      int fft_size)
{
    const int f = blockIdx.x * threads + threadIdx.x;
    if (f >= fft_size)
        return;
    float2* x = segments + static_cast<long long>(blockIdx.y) * fft_size + f;
    const float2 h = spectrum[f];
    const float2 a = *x;
    *x = make_float2(fmaf(a.x, h.x, -a.y * h.y), fmaf(a.x, h.y, a.y * h.x));
}

/*!
 * Writes the kept outputs of a group of segments through the epilogue (rotation or
 * none), in the output's type. Segment s = blockIdx.y, q in [0, Q): output
 * k = k0 + s*Q + q of the call (k0 = the group's first segment times Q) is
 * segments[s*N + H + q*D] (see the top of this file); k >= noutputs is past the end
 * of the call. Reads 8 bytes per kept output (the discarded overlap and the samples
 * between decimated outputs are never read) and writes sizeof(Out).
 */
template <class Out, class Epilogue>
__global__ void __launch_bounds__(threads)
    extract_outputs(const float2* __restrict__ segments,
                    int fft_size,
                    int history,
                    int decimation,
                    int per_segment,
                    long long k0,
                    long long noutputs,
                    Out* __restrict__ out,
                    Epilogue epilogue)
{
    const int q = blockIdx.x * threads + threadIdx.x;
    if (q >= per_segment)
        return;
    const long long s = blockIdx.y;
    const long long k = k0 + s * per_segment + q;
    if (k >= noutputs)
        return;
    const float2 y =
        segments[s * fft_size + history + static_cast<long long>(q) * decimation];
    out[k] = epilogue(from_complex<Out>(y), k);
}

} // namespace fft_fir_kernels
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
