/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_BLOCK_FFT_CUH
#define INCLUDED_GPUFILTER_CUDA_BLOCK_FFT_CUH

// A power-of-two FFT by one thread block, in shared memory and registers, for kernels
// that transform data they have just loaded and use the spectrum at once (the fused
// overlap-save FIR, the 2D FIR's tiles): a sample then crosses device memory once,
// where a cuFFT call between two kernels costs a write and a read of every bin.
//
// Stockham autosort stages (block_fft_plan.h): stage s of radix R joins spans of
// Ns = span(s) points; butterfly j (of N/R) reads x[j + r*N/R], r < R, multiplies
// element r by exp(-2 pi i r (j mod Ns) / (Ns R)), takes a radix-R DFT in registers
// and writes y[(j / Ns) * Ns * R + j mod Ns + r * Ns]. Input and output are in
// natural order. Thread t runs butterflies t + p*T, p < Batch*N/R/T, of a batch of
// transforms laid end to end.
//
// Shared memory holds point i at slot(i): one float2 of padding after every 16 keeps
// the strided writes of the early stages on distinct banks. Forward transforms only;
// an inverse is conj(forward(conj(x))), which callers fold into their loads and
// stores (convolve() below does it for the round trip). Unscaled.

#include "block_fft_plan.h"
#include "device_math.cuh"
#include <cuda_runtime.h>
#include <type_traits>

namespace gr {
namespace gpufilter {
namespace cuda {
namespace block_fft {

__host__ __device__ constexpr int padded_size(int n) { return n + n / 16; }
__device__ __forceinline__ int slot(int i) { return i + (i >> 4); }

using cuda::cmul; // device_math.cuh
__device__ __forceinline__ float2 conj(float2 a) { return make_float2(a.x, -a.y); }

//! f(std::integral_constant<int, I>) for I in [Begin, End): the radix-R loops must see
//! their indices as constants, or the register arrays and the root table would be
//! indexed at run time (local memory).
template <int Begin, int End, int Step = 1, class F>
__device__ __forceinline__ void static_for(F&& f)
{
    if constexpr (Begin < End) {
        f(std::integral_constant<int, Begin>{});
        static_for<Begin + Step, End, Step>(f);
    }
}

__host__ __device__ constexpr double root_cos(int e) // cos(2 pi e / 32)
{
    constexpr double c[9] = { 1.0,
                              0.98078528040323043,
                              0.92387953251128674,
                              0.83146961230254524,
                              0.70710678118654757,
                              0.55557023301960229,
                              0.38268343236508984,
                              0.19509032201612833,
                              0.0 };
    e &= 31;
    return e <= 8 ? c[e] : e <= 16 ? -c[16 - e] : e <= 24 ? -c[e - 16] : c[32 - e];
}

//! x * exp(-2 pi i K / M) for M dividing 32; multiples of a quarter turn cost no
//! multiply.
template <int K, int M>
__device__ __forceinline__ float2 mul_root(float2 x)
{
    constexpr int e = (K * (32 / M)) & 31;
    if constexpr (e == 0) {
        return x;
    } else if constexpr (e == 8) {
        return make_float2(x.y, -x.x);
    } else if constexpr (e == 16) {
        return make_float2(-x.x, -x.y);
    } else if constexpr (e == 24) {
        return make_float2(-x.y, x.x);
    } else {
        constexpr float c = static_cast<float>(root_cos(e));
        constexpr float s = static_cast<float>(root_cos(e + 24)); // sin(2 pi e / 32)
        return make_float2(fmaf(x.x, c, x.y * s), fmaf(x.y, c, -x.x * s));
    }
}

__host__ __device__ constexpr int reverse_bits(int i, int n)
{
    int r = 0;
    for (int b = 1; b < n; b <<= 1) {
        r = (r << 1) | (i & 1);
        i >>= 1;
    }
    return r;
}

//! Forward DFT of R points in registers (radix-2 decimation in time), natural order
//! in and out.
template <int R>
__device__ __forceinline__ void dft(float2 (&v)[R])
{
    float2 a[R];
    static_for<0, R>([&](auto i) { a[reverse_bits(i, R)] = v[i]; });
    static_for<1, R>([&](auto h_) { // h = 1, 2, 4, ...: only powers of two act
        constexpr int h = h_;
        if constexpr ((h & (h - 1)) == 0) {
            static_for<0, R, 2 * h>([&](auto s_) {
                constexpr int s = s_;
                static_for<0, h>([&](auto k_) {
                    constexpr int k = k_;
                    const float2 t = mul_root<k, 2 * h>(a[s + k + h]);
                    const float2 u = a[s + k];
                    a[s + k] = make_float2(u.x + t.x, u.y + t.y);
                    a[s + k + h] = make_float2(u.x - t.x, u.y - t.y);
                });
            });
        }
    });
    static_for<0, R>([&](auto i) { v[i] = a[i]; });
}

/*!
 * Stage S of the N-point plan {N, SmallFirst}, run by T threads over Batch transforms
 * that lie one after another (transform g at points [g*N, (g+1)*N)). compute() loads
 * a thread's butterflies through load(i) (point i of the stage's input), applies the
 * twiddles and the DFT, leaving the results in v; store() hands them to store(i, y)
 * at their output points. Callers put a __syncthreads() between the two when both
 * touch the same shared memory.
 */
template <int N, bool SmallFirst, int S, int T, int Batch = 1>
struct stage {
    static constexpr block_fft_plan plan{ N, SmallFirst };
    static constexpr int R = plan.radix(S);
    static constexpr int Ns = plan.span(S);
    static constexpr int B = N / R;         // butterflies of one transform
    static constexpr int P = Batch * B / T; // butterflies per thread
    static_assert(Batch * B % T == 0, "block_fft: T must divide Batch * N / radix");

    using values = float2[P][R];

    //! Butterfly p of this thread: its transform's first point and its index j.
    __device__ __forceinline__ static int origin(int p)
    {
        if constexpr (Batch == 1)
            return 0;
        else
            return (threadIdx.x + p * T) / B * N;
    }
    __device__ __forceinline__ static int butterfly(int p)
    {
        if constexpr (Batch == 1)
            return threadIdx.x + p * T;
        else
            return (threadIdx.x + p * T) % B;
    }

    template <class Load>
    __device__ __forceinline__ static void
    compute(values& v, Load&& load, const float2* __restrict__ twiddles)
    {
        const float2* w = twiddles + plan.twiddle_offset(S);
#pragma unroll
        for (int p = 0; p < P; ++p) {
            const int o = origin(p), j = butterfly(p);
#pragma unroll
            for (int r = 0; r < R; ++r)
                v[p][r] = load(o + j + r * B);
            if constexpr (Ns > 1) {
                const int m = j % Ns;
#pragma unroll
                for (int r = 1; r < R; ++r)
                    v[p][r] = cmul(v[p][r], __ldg(w + r * Ns + m));
            }
            dft<R>(v[p]);
        }
    }

    //! The DFTs of values already in registers, with no twiddles: only where Ns = 1.
    __device__ __forceinline__ static void compute_in_place(values& v)
    {
        static_assert(Ns == 1, "block_fft: only a first stage has no twiddles");
#pragma unroll
        for (int p = 0; p < P; ++p)
            dft<R>(v[p]);
    }

    template <class Store>
    __device__ __forceinline__ static void store(const values& v, Store&& store)
    {
#pragma unroll
        for (int p = 0; p < P; ++p) {
            const int j = butterfly(p);
            const int base = origin(p) + (j / Ns) * Ns * R + j % Ns;
#pragma unroll
            for (int r = 0; r < R; ++r)
                store(base + r * Ns, v[p][r]);
        }
    }
};

//! Stages [S, Last) in place in shared memory `buf` (slot layout). Every thread of
//! the block calls it; buf must be complete (synchronized) on entry and is on return.
template <int N, bool SmallFirst, int T, int S, int Last, int Batch = 1>
__device__ __forceinline__ void run_stages(float2* buf, const float2* __restrict__ tw)
{
    if constexpr (S < Last) {
        using st = stage<N, SmallFirst, S, T, Batch>;
        typename st::values v;
        st::compute(
            v, [&](int i) { return buf[slot(i)]; }, tw);
        __syncthreads();
        st::store(v, [&](int i, float2 y) { buf[slot(i)] = y; });
        __syncthreads();
        run_stages<N, SmallFirst, T, S + 1, Last, Batch>(buf, tw);
    }
}

//! Batch whole forward transforms in place in `buf`, twiddles of plan {N, SmallFirst}.
template <int N, bool SmallFirst, int T, int Batch = 1>
__device__ __forceinline__ void forward(float2* buf, const float2* __restrict__ tw)
{
    constexpr block_fft_plan plan{ N, SmallFirst };
    run_stages<N, SmallFirst, T, 0, plan.stages(), Batch>(buf, tw);
}

//! Where convolve()'s load or store reaches: memory apart from `buf` (device memory),
//! or `buf` itself in a layout of the caller's, which then needs a barrier between it
//! and the stages' own reads and writes of buf.
enum class io { apart, in_buf };

//! The stage whose butterflies the forward transform of a round trip leaves in
//! registers (its last), and the inverse's first stage, which takes them.
template <int N, int T, int Batch = 1>
using forward_last = stage<N, true, block_fft_plan{ N, true }.stages() - 1, T, Batch>;
template <int N, int T, int Batch = 1>
using inverse_first = stage<N, false, 0, T, Batch>;

/*!
 * The forward half of a round trip (plan {N, true}, tw_fwd its twiddles) over Batch
 * transforms in `buf`, run by T threads: stage 0 from load(i), point i of the
 * transforms laid end to end, the middle stages in buf, and the last stage's
 * butterflies left in v (bins j + r*N/16, j = origin(p) + butterfly(p) of
 * forward_last). Load: as convolve()'s. Every thread of the block calls it.
 */
template <int N, int T, int Batch = 1, io Load = io::apart, class LoadFn>
__device__ __forceinline__ void
forward_to_registers(float2* buf,
                     LoadFn&& load,
                     typename forward_last<N, T, Batch>::values& v,
                     const float2* __restrict__ tw_fwd)
{
    constexpr int S = block_fft_plan{ N, true }.stages();
    {
        using st = stage<N, true, 0, T, Batch>;
        typename st::values v0;
        st::compute(v0, load, tw_fwd);
        if constexpr (Load == io::in_buf)
            __syncthreads(); // every thread has read its points of the caller's layout
        st::store(v0, [&](int i, float2 y) { buf[slot(i)] = y; });
        __syncthreads();
    }
    run_stages<N, true, T, 1, S - 1, Batch>(buf, tw_fwd);
    forward_last<N, T, Batch>::compute(
        v, [&](int i) { return buf[slot(i)]; }, tw_fwd);
}

/*!
 * The inverse half of a round trip (plan {N, false}, tw_inv its twiddles) as
 * conj(forward(conj(.))): v holds the conjugated bins in the butterflies of
 * inverse_first (the same points as forward_last's); output point i goes to
 * store(i, y), y its conjugate. BufRead: buf has just been read (by the forward's
 * last stage), so a barrier comes before the first store into it. Store: as
 * convolve()'s. Every thread of the block calls it.
 */
template <int N,
          int T,
          int Batch = 1,
          bool BufRead = true,
          io Store = io::apart,
          class StoreFn>
__device__ __forceinline__ void
inverse_from_registers(float2* buf,
                       typename inverse_first<N, T, Batch>::values& v,
                       StoreFn&& store,
                       const float2* __restrict__ tw_inv)
{
    constexpr int S = block_fft_plan{ N, false }.stages();
    using first = inverse_first<N, T, Batch>;
    first::compute_in_place(v);
    if constexpr (BufRead)
        __syncthreads(); // every thread has read the forward's last stage
    first::store(v, [&](int i, float2 y) { buf[slot(i)] = y; });
    __syncthreads();
    run_stages<N, false, T, 1, S - 1, Batch>(buf, tw_inv);

    using final_stage = stage<N, false, S - 1, T, Batch>;
    typename final_stage::values w;
    final_stage::compute(
        w, [&](int i) { return buf[slot(i)]; }, tw_inv);
    if constexpr (Store == io::in_buf)
        __syncthreads(); // every thread has read the inverse's last input
    final_stage::store(w, store);
    if constexpr (Store == io::in_buf)
        __syncthreads();
}

/*!
 * The round trip of a fast convolution over Batch N-point transforms in `buf` (plan
 * {N, true} forward, {N, false} inverse, tw_fwd and tw_inv their twiddles), run by
 * T threads: forward stage 0 from load(i), point i of the transforms laid end to end;
 * bin j + r*N/16 times spectrum(j, r), which carries the 1/N; the inverse as
 * conj(forward(conj(.))), its last stage handed to store(i, y) with y the conjugate
 * of output point i (a store conjugates the points it keeps, and only those).
 *
 * The forward plan runs its odd stage first and the inverse runs it last, so the
 * forward's last stage and the inverse's first are both of radix 16 over the same
 * points j + r*N/16: the product is taken in registers and handed straight to the
 * inverse, saving a round trip through shared memory. Load and Store say whether
 * load and store touch buf (io::in_buf: barriers before and after them; buf is then
 * complete on return). Every thread of the block calls it.
 */
template <int N,
          int T,
          int Batch = 1,
          io Load = io::apart,
          io Store = io::apart,
          class LoadFn,
          class SpectrumFn,
          class StoreFn>
__device__ __forceinline__ void convolve(float2* buf,
                                         LoadFn&& load,
                                         SpectrumFn&& spectrum,
                                         StoreFn&& store,
                                         const float2* __restrict__ tw_fwd,
                                         const float2* __restrict__ tw_inv)
{
    constexpr block_fft_plan fwd{ N, true };
    constexpr block_fft_plan inv{ N, false };
    constexpr int S = fwd.stages();
    static_assert(S >= 2 && fwd.radix(S - 1) == 16 && inv.radix(0) == 16,
                  "block_fft::convolve: the hand-over stages must be of radix 16");
    using last = forward_last<N, T, Batch>;
    using first = inverse_first<N, T, Batch>;
    static_assert(last::P == first::P, "block_fft::convolve: hand-over shapes differ");

    // Forward last stage, spectrum, inverse first stage: in registers.
    typename last::values v;
    forward_to_registers<N, T, Batch, Load>(buf, load, v, tw_fwd);
#pragma unroll
    for (int p = 0; p < last::P; ++p) {
        const int j = last::origin(p) + last::butterfly(p);
#pragma unroll
        for (int r = 0; r < 16; ++r)
            v[p][r] = conj(cmul(v[p][r], spectrum(j, r)));
    }
    inverse_from_registers<N, T, Batch, true, Store>(buf, v, store, tw_inv);
}

} // namespace block_fft
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
