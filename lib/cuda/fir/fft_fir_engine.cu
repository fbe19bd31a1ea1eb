/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/block_fft_plan.h"
#include "../common/device.h"
#include "../common/fft_batches.h"
#include "fft_fir_cluster_kernels.cuh"
#include "fft_fir_engine.h"
#include "fft_fir_fused_kernels.cuh"
#include "fft_fir_kernels.cuh"
#include "fft_fir_partitioned_kernels.cuh"
#include "fir_types.h"
#include "history_kernels.cuh"
#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {

// The sizes the engine takes; which of them it picks is the tuning's (fir_tuning.h).
constexpr long long max_fft_size = 1LL << 26; // segments buffer: 512 MB at batch 1
constexpr int max_batch = 1024; // also keeps gridDim.y (one row per segment) legal

template <class T>
void check_parameters(const std::vector<T>& taps, int decimation, int fft_size)
{
    if (taps.empty())
        throw std::invalid_argument("taps: must not be empty");
    if (decimation < 1)
        throw std::invalid_argument("decimation: must be >= 1, got " +
                                    std::to_string(decimation));
    const long long needed = static_cast<long long>(taps.size()) - 1 + decimation;
    if (fft_size < 0 || fft_size > max_fft_size || (fft_size && fft_size < needed))
        throw std::invalid_argument(
            "fft_size: must be 0 (automatic) or in [ntaps - 1 + decimation = " +
            std::to_string(needed) + ", " + std::to_string(max_fft_size) + "], got " +
            std::to_string(fft_size));
}

cufftComplex* as_cufft(complex* p) { return reinterpret_cast<cufftComplex*>(p); }

//! The tuning's automatic FFT size, where the engine takes it.
int auto_fft_size(const fir_tuning& t, int ntaps, int decimation)
{
    const long long n = fir_fft_size_for(t, ntaps, decimation);
    if (n > max_fft_size)
        throw std::invalid_argument("fft_size: " + std::to_string(ntaps) +
                                    " taps at decimation " + std::to_string(decimation) +
                                    " need more than the largest size " +
                                    std::to_string(max_fft_size));
    return static_cast<int>(n);
}

//! Whether the fused kernel runs this size: one was compiled for it, the tuning allows
//! it, and its points fit the current device's shared memory.
bool use_fused(const fir_tuning& t, int fft_size)
{
    if (!fft_fir_fused::has_kernel(fft_size) || fft_size > t.fused_max_size)
        return false;
    return fft_fir_fused::shared_bytes(fft_size) <=
           current_device_shared_memory_per_block();
}

//! Whether this device runs the cluster kernel where the tuning allows it (with the
//! fused kernel: a tuning without it, fused_max_size 0, is cuFFT's path alone):
//! thread block clusters (sm_90 on) and a block's shared memory for its points.
bool cluster_available(const fir_tuning& t)
{
    if (t.cluster_size <= 0 || t.fused_max_size <= 0 || current_device_arch() < 90)
        return false;
    return fft_fir_fused::shared_bytes(fft_fir_cluster::local_size) <=
           current_device_shared_memory_per_block();
}

//! The tuning as this device can follow it: without the cluster kernel where the
//! device has none.
fir_tuning usable(fir_tuning t)
{
    if (!cluster_available(t))
        t.cluster_size = 0;
    return t;
}

//! Blocks per transform where the cluster kernel runs this size, else 0.
int cluster_blocks_for(const fir_tuning& t, int fft_size)
{
    if (fft_size != t.cluster_size || !cluster_available(t)) // a size check_fir_tuning
        return 0;                                            // has let through
    return fft_fir_cluster::blocks;
}

} // namespace

template <class In, class Tap>
int fft_fir_engine<In, Tap>::default_fft_size(int ntaps, int decimation)
{
    return auto_fft_size(usable(fir_tuning_for_device<In, Tap>()), ntaps, decimation);
}

template <class In, class Tap>
fft_fir_engine<In, Tap>::fft_fir_engine(const std::vector<Tap>& taps,
                                        int decimation,
                                        int fft_size,
                                        const fir_tuning& tuning)
    : d_state(decimation),
      d_tuning(tuning),
      d_auto_size(fft_size == 0),
      d_fft_size(fft_size)
{
    check_fir_tuning(d_tuning);
    check_parameters(taps, decimation, fft_size);
    stream s;
    set_taps(taps, s); // plans; with no old history, zero-fills the new one
    s.synchronize();
}

template <class In, class Tap>
void fft_fir_engine<In, Tap>::make_plans(int fft_size, cudaStream_t stream)
{
    GPUFILTER_CHECK(cudaStreamSynchronize(stream)); // queued work may use the old ones
    d_plans.clear();
    d_direct_plans.clear();
    d_batches.clear();
    d_fft_work = {};
    d_segments = {};
    d_spectrum = {};
    d_twiddles = {};
    d_cluster_blocks = cluster_blocks_for(d_tuning, fft_size);
    d_fused = use_fused(d_tuning, fft_size) || d_cluster_blocks > 0;

    // Batch counts: the largest, then halves down to 1, so that a group of segments
    // runs with at most a quarter of wasted transforms (pick_plan).
    // The fused path only transforms the taps.
    long long batch = 1;
    while (!d_fused && batch * 2 <= std::min<long long>(
                                        max_batch, d_tuning.fft_group_samples / fft_size))
        batch *= 2;
    std::size_t work_bytes = 0;
    for (; batch >= 1; batch /= 2) {
        fft_plan p = fft_plan::create();
        GPUFILTER_CHECK(cufftSetAutoAllocation(p.get(), 0)); // one shared work area
        int n = fft_size;
        std::size_t bytes = 0;
        // Contiguous segments of fft_size samples, in place.
        GPUFILTER_CHECK(cufftMakePlanMany(p.get(),
                                          1,
                                          &n,
                                          nullptr,
                                          1,
                                          fft_size,
                                          nullptr,
                                          1,
                                          fft_size,
                                          CUFFT_C2C,
                                          static_cast<int>(batch),
                                          &bytes));
        work_bytes = std::max(work_bytes, bytes);
        d_plans.push_back(std::move(p));
        d_batches.push_back(static_cast<int>(batch));
    }
    d_direct_plans.clear();
    share_work_area(work_bytes);
    if (!d_fused)
        d_segments = device_buffer<complex>(std::size_t(d_batches.front()) * fft_size);
    else if (d_cluster_blocks) // the spectrum's bins in order, for spectrum_by_block
        d_segments = device_buffer<complex>(fft_size);
    d_spectrum = device_buffer<complex>(fft_size);
    d_fft_size = fft_size;
    // The fused kernel's twiddles: the forward plan's table, then the inverse's
    // (fft_fir_fused_kernels.cuh); the cluster kernel's, those of its blocks' size,
    // then its radix-C steps' (fft_fir_cluster_kernels.cuh).
    if (d_fused) {
        const int M = d_cluster_blocks ? fft_size / d_cluster_blocks : fft_size;
        auto table =
            block_fft_twiddles(std::vector<block_fft_plan>{ { M, true }, { M, false } });
        if (d_cluster_blocks) {
            const auto step = block_fft_step_twiddles(fft_size, d_cluster_blocks);
            table.insert(table.end(), step.begin(), step.end());
        }
        d_twiddles = uploaded(table);
    }
}

template <class In, class Tap>
void fft_fir_engine<In, Tap>::share_work_area(std::size_t bytes)
{
    if (bytes > d_fft_work.size())
        d_fft_work = device_buffer<char>(bytes);
    if (d_fft_work.size() == 0)
        return;
    for (const auto* plans : { &d_plans, &d_direct_plans })
        for (const auto& p : *plans)
            GPUFILTER_CHECK(cufftSetWorkArea(p.get(), d_fft_work.get()));
}

template <class In, class Tap>
void fft_fir_engine<In, Tap>::make_direct_plans(cudaStream_t stream)
{
    // Segment s of a group starts L samples after segment s-1: an advanced layout
    // with input distance L (overlapping reads, which an out-of-place transform
    // allows) lets the forward FFT read the caller's complex samples where they are.
    // That removes the segment-building pass (8 + 8*N/L bytes per sample).
    if constexpr (is_complex_v<In>) {
        GPUFILTER_CHECK(cudaStreamSynchronize(stream)); // queued work may use the old
        d_direct_plans.clear();
        try {
            make_direct_plans_now();
        } catch (const cuda_error&) {
            // A cuFFT that refuses overlapping input: segments are built instead.
            d_direct_plans.clear();
        }
    }
}

template <class In, class Tap>
void fft_fir_engine<In, Tap>::make_direct_plans_now()
{
    std::size_t work_bytes = 0;
    for (const int batch : d_batches) {
        fft_plan p = fft_plan::create();
        GPUFILTER_CHECK(cufftSetAutoAllocation(p.get(), 0));
        int n = d_fft_size;
        int embed = d_fft_size;
        std::size_t bytes = 0;
        GPUFILTER_CHECK(cufftMakePlanMany(p.get(),
                                          1,
                                          &n,
                                          &embed,
                                          1,
                                          d_advance,
                                          &embed,
                                          1,
                                          d_fft_size,
                                          CUFFT_C2C,
                                          batch,
                                          &bytes));
        work_bytes = std::max(work_bytes, bytes);
        d_direct_plans.push_back(std::move(p));
    }
    share_work_area(work_bytes);
}

template <class In, class Tap>
void fft_fir_engine<In, Tap>::upload_spectrum(cudaStream_t stream)
{
    // Taps zero-padded to N and scaled by 1/N (exact for a power of two), so that
    // the unscaled inverse gives the convolution itself; partitioned, partition p's
    // N/2 taps in row p. Real taps are promoted: a real filter's spectrum is
    // conjugate-symmetric, an R2C/C2R path would store and multiply half of it, and
    // transform half as much for real input.
    const int rows = std::max(d_partitions, 1);
    const std::size_t span = d_partitions ? d_fft_size / 2 : d_taps.size();
    std::vector<complex> padded(std::size_t(rows) * d_fft_size, complex(0.0f, 0.0f));
    const float scale = 1.0f / static_cast<float>(d_fft_size);
    for (std::size_t j = 0; j < d_taps.size(); ++j)
        padded[j / span * d_fft_size + j % span] = complex(d_taps[j]) * scale;
    if (d_spectrum.size() != padded.size())
        d_spectrum = device_buffer<complex>(padded.size());
    GPUFILTER_CHECK(cudaMemcpyAsync(d_spectrum.get(),
                                    padded.data(),
                                    padded.size() * sizeof(complex),
                                    cudaMemcpyHostToDevice,
                                    stream));
    const cufftHandle one = d_plans.back().get(); // batch 1
    GPUFILTER_CHECK(cufftSetStream(one, stream));
    for (int r = 0; r < rows; ++r) {
        auto* row = as_cufft(d_spectrum.get() + std::size_t(r) * d_fft_size);
        GPUFILTER_CHECK(cufftExecC2C(one, row, row, CUFFT_FORWARD));
    }
    if (d_cluster_blocks)
        spectrum_by_block(stream);
    GPUFILTER_CHECK(cudaStreamSynchronize(stream)); // `padded` dies on return
}

template <class In, class Tap>
void fft_fir_engine<In, Tap>::spectrum_by_block(cudaStream_t stream)
{
    // Block b of a cluster multiplies the bins C m + b, m < M: they go to b * M + m,
    // so that each block reads a contiguous row (fft_fir_cluster_kernels.cuh).
    const int C = d_cluster_blocks;
    const std::size_t M = d_fft_size / C;
    complex* bins = d_segments.get(); // fft_size, unused otherwise on this path
    GPUFILTER_CHECK(cudaMemcpyAsync(bins,
                                    d_spectrum.get(),
                                    d_fft_size * sizeof(complex),
                                    cudaMemcpyDeviceToDevice,
                                    stream));
    for (int b = 0; b < C; ++b)
        GPUFILTER_CHECK(cudaMemcpy2DAsync(d_spectrum.get() + b * M,
                                          sizeof(complex),
                                          bins + b,
                                          C * sizeof(complex),
                                          sizeof(complex),
                                          M,
                                          cudaMemcpyDeviceToDevice,
                                          stream));
}

template <class In, class Tap>
void fft_fir_engine<In, Tap>::set_taps(const std::vector<Tap>& taps, cudaStream_t stream)
{
    const int D = d_state.decimation();
    check_parameters(taps, D, d_auto_size ? 0 : d_fft_size);
    const int ntaps = static_cast<int>(taps.size());
    int size = d_auto_size ? auto_fft_size(usable(d_tuning), ntaps, D) : d_fft_size;
    // An automatic size below ntaps - 1 + D (half a segment new) is the partitioned
    // path's, where this device runs it; otherwise cuFFT's size rule.
    const long long needed = 2LL * (ntaps - 1 + D);
    int partitions = 0;
    if (d_auto_size && size < needed) {
        if (use_fused(d_tuning, size) && fir_partition_size_supported(size)) {
            partitions = (ntaps + size / 2 - 1) / (size / 2);
        } else {
            fir_tuning cufft_only = d_tuning;
            cufft_only.fused_max_size = 0;
            size = auto_fft_size(cufft_only, ntaps, D);
        }
    }
    const std::size_t new_len = taps.size() - 1;
    d_taps = taps;
    const bool new_path =
        d_plans.empty() || size != d_fft_size || partitions != d_partitions;
    if (d_plans.empty() || size != d_fft_size)
        make_plans(size, stream);
    if (partitions != d_partitions) {
        GPUFILTER_CHECK(cudaStreamSynchronize(stream)); // queued work may use them
        d_partitions = partitions;
        d_sums = {};
        if (partitions) { // else make_plans has sized d_segments for its path
            const auto rows =
                static_cast<std::size_t>(transform_rows(partition_group_blocks()));
            d_segments = device_buffer<complex>((rows + partitions - 1) * size);
            d_sums = device_buffer<complex>(rows * size);
        }
    }
    // Each segment yields N - H exact outputs at full rate; using a multiple of D of
    // them puts every segment's first kept output at the same place (see the kernels).
    const int advance =
        d_partitions ? 0 : static_cast<int>((d_fft_size - new_len) / D * D);
    const bool replan =
        !d_fused && !d_partitions && (advance != d_advance || d_direct_plans.empty());
    d_advance = advance;
    if (replan)
        make_direct_plans(stream);
    upload_spectrum(stream);
    d_state.resize_history(new_len, stream);
    if (new_path || replan)
        load_kernels(stream);
}

template <class In, class Tap>
int fft_fir_engine<In, Tap>::pick_plan(long long remaining) const
{
    return pick_fft_batch(d_batches, remaining);
}

template <class In, class Tap>
template <class Src, class OutT>
void fft_fir_engine<In, Tap>::run_segments(const Src& src,
                                           const In* d_in,
                                           long long begin,
                                           long long end,
                                           bool direct,
                                           OutT* out,
                                           cudaStream_t stream)
{
    namespace kern = fft_fir_kernels;
    const int N = d_fft_size;
    const int D = d_state.decimation();
    const int H = static_cast<int>(d_state.history_len());
    const long long L = d_advance;
    const int Q = static_cast<int>(L / D); // kept outputs per segment, >= 1
    const auto first = static_cast<long long>(d_state.phase());
    const auto nout = static_cast<long long>(d_state.output_count(src.input_len));
    float2* seg = reinterpret_cast<float2*>(d_segments.get());
    const auto spectrum = reinterpret_cast<const float2*>(d_spectrum.get());

    // Groups of b segments: [s0, s0 + b). Segments past the last one needed (when b
    // overshoots) are transformed but never extracted; a direct group never
    // overshoots, since its segments must lie inside the input.
    for (long long s0 = begin; s0 < end;) {
        int p = pick_plan(end - s0);
        if (direct)
            while (d_batches[p] > end - s0)
                ++p;
        const int b = d_batches[p];
        const cufftHandle plan = d_plans[p].get();
        const dim3 bins(blocks_for(N, kern::threads), b);
        GPUFILTER_CHECK(cufftSetStream(plan, stream));
        // Segment s starts at virtual index first + s*L, input sample first + s*L - H.
        if (direct) {
            const cufftHandle in_place = d_direct_plans[p].get();
            auto* x = const_cast<In*>(d_in + (first + s0 * L - H));
            GPUFILTER_CHECK(cufftSetStream(in_place, stream));
            GPUFILTER_CHECK(cufftExecC2C(
                in_place, reinterpret_cast<cufftComplex*>(x), seg, CUFFT_FORWARD));
        } else {
            kern::build_segments<<<bins, kern::threads, 0, stream>>>(
                src, first + s0 * L, L, N, seg);
            GPUFILTER_CHECK_LAUNCH();
            GPUFILTER_CHECK(cufftExecC2C(plan, seg, seg, CUFFT_FORWARD));
        }
        kern::multiply_spectrum<<<bins, kern::threads, 0, stream>>>(seg, spectrum, N);
        GPUFILTER_CHECK_LAUNCH();
        GPUFILTER_CHECK(cufftExecC2C(plan, seg, seg, CUFFT_INVERSE));
        // Output k of the call is segment k / Q, kept output k % Q; with a
        // rotation, output 0 of the call is the state's next rotated output.
        const dim3 kept(blocks_for(Q, kern::threads), b);
        const long long k0 = s0 * Q;
        with_epilogue(d_state, [&](auto epilogue) {
            kern::extract_outputs<<<kept, kern::threads, 0, stream>>>(
                seg, N, H, D, Q, k0, nout, out, epilogue);
        });
        GPUFILTER_CHECK_LAUNCH();
        s0 += b;
    }
}

template <class In, class Tap>
template <class Src, class OutT, class Keep>
void fft_fir_engine<In, Tap>::run_fused(const Src& src,
                                        long long first,
                                        long long segments,
                                        long long nout,
                                        OutT* out,
                                        const Keep& keep,
                                        cudaStream_t stream)
{
    const fft_fir_fused::geometry g{ first,
                                     d_advance,
                                     static_cast<int>(d_state.history_len()),
                                     d_state.decimation(),
                                     d_advance / d_state.decimation(),
                                     0,
                                     nout,
                                     segments,
                                     fft_fir_fused::division_magic(
                                         d_state.decimation()) };
    const auto spectrum = reinterpret_cast<const float2*>(d_spectrum.get());
    const auto twiddles = reinterpret_cast<const float2*>(d_twiddles.get());
    with_epilogue(d_state, [&](auto epilogue) {
        if (d_cluster_blocks)
            fft_fir_cluster::launch<packs_pairs>(
                d_fft_size, src, g, spectrum, twiddles, out, epilogue, stream);
        else
            fft_fir_fused::launch<packs_pairs>(
                d_fft_size, src, g, spectrum, twiddles, out, epilogue, keep, stream);
    });
}

template <class In, class Tap>
long long fft_fir_engine<In, Tap>::partition_group_blocks() const
{
    // Blocks per group of launches (the tuning's measurement).
    return std::max<long long>(1, d_tuning.partition_group_samples / (d_fft_size / 2));
}

template <class In, class Tap>
template <class Src, class OutT>
void fft_fir_engine<In, Tap>::run_partitioned(
    const Src& src, long long first, long long nout, OutT* out, cudaStream_t stream)
{
    const long long B = d_fft_size / 2;
    const long long D = d_state.decimation();
    const long long H = static_cast<long long>(d_state.history_len());
    const long long blocks = (nout - 1) * D / B + 1;
    const long long group = partition_group_blocks();
    const auto spectrum = reinterpret_cast<const float2*>(d_spectrum.get());
    const auto twiddles = reinterpret_cast<const float2*>(d_twiddles.get());
    auto* spectra = reinterpret_cast<float2*>(d_segments.get());
    auto* sums = reinterpret_cast<float2*>(d_sums.get());
    for (long long b0 = 0; b0 < blocks; b0 += group) {
        const long long count = std::min(group, blocks - b0);
        const fft_fir_partitioned::geometry g{ first + H - (B - 1) + b0 * B,
                                               b0 * B,
                                               d_partitions,
                                               count,
                                               transform_rows(count),
                                               static_cast<int>(D),
                                               nout };
        with_epilogue(d_state, [&](auto epilogue) {
            fft_fir_partitioned::launch<packs_pairs>(d_fft_size,
                                                     src,
                                                     g,
                                                     spectrum,
                                                     twiddles,
                                                     spectra,
                                                     sums,
                                                     out,
                                                     epilogue,
                                                     stream);
        });
    }
}

template <class In, class Tap>
std::size_t fft_fir_engine<In, Tap>::process(const In* d_in,
                                             std::size_t n,
                                             out_type* d_out,
                                             cudaStream_t stream)
{
    const std::size_t noutputs = d_state.output_count(n);
    if (noutputs && filter(history_view(d_state, d_in, n),
                           d_in,
                           static_cast<long long>(d_state.phase()),
                           static_cast<long long>(noutputs),
                           d_out,
                           history_keep_of(d_state, d_in, n),
                           stream)) {
        d_state.advance_kept(n);
        return noutputs;
    }
    d_state.advance(d_in, n, stream);
    return noutputs;
}

template <class In, class Tap>
template <class Src, class Keep>
bool fft_fir_engine<In, Tap>::filter(const Src& src,
                                     const In* d_in,
                                     long long first,
                                     long long nout,
                                     out_type* d_out,
                                     const Keep& keep,
                                     cudaStream_t stream)
{
    const long long N = d_fft_size;
    const long long H = static_cast<long long>(d_state.history_len());
    const auto n = static_cast<long long>(src.input_len);
    const auto out = reinterpret_cast<device_t<out_type>*>(d_out);
    if (d_partitions) { // blocks of fft_size / 2, no segment advance
        run_partitioned(src, first, nout, out, stream);
        return false;
    }
    const long long L = d_advance;
    const long long Q = L / d_state.decimation();
    const long long segments = (nout + Q - 1) / Q;
    if (d_fused) {
        run_fused(src, first, segments, nout, out, keep, stream);
        return !d_cluster_blocks; // the cluster kernel keeps no history
    }

    // Segments that start in the history, or run past the input, are built by a
    // kernel; those in between (all but a few of a long call) are read in place
    // when the input is complex. Segment s covers virtual [first + s*L, + N);
    // the input is virtual [H, H + n).
    long long head = 0, tail = 0;
    if (is_complex_v<In> && !d_direct_plans.empty()) {
        head = first >= H ? 0 : (H - first + L - 1) / L;
        const long long room = H + n - N - first;
        tail = room < 0 ? 0 : room / L + 1; // segments [0, tail) end inside it
        head = std::min(head, segments);
        tail = std::max(head, std::min(tail, segments));
    }
    run_segments(src, d_in, 0, head, false, out, stream);
    run_segments(src, d_in, head, tail, true, out, stream);
    run_segments(src, d_in, tail, segments, false, out, stream);
    return false;
}

template <class In, class Tap>
void fft_fir_engine<In, Tap>::load_kernels(cudaStream_t stream)
{
    // CUDA loads a kernel onto the GPU the first time it runs (lazy loading), and the
    // block FFT kernels take tens of milliseconds to load: a block's first work() on
    // a live stream would answer that much later. One segment's filter of zeros,
    // beside the stream's state, loads this path's kernels here instead.
    const std::size_t H = d_state.history_len();
    const auto n = static_cast<std::size_t>(d_fft_size);
    const std::size_t nout = (n - 1) / static_cast<std::size_t>(d_state.decimation()) + 1;
    device_buffer<In> zeros(H + n);
    device_buffer<out_type> out(nout);
    GPUFILTER_CHECK(cudaMemsetAsync(zeros.get(), 0, zeros.size() * sizeof(In), stream));
    filter(history_view(zeros.get(), H, zeros.get() + H, n),
           zeros.get() + H,
           0,
           static_cast<long long>(nout),
           out.get(),
           history_keep<device_t<In>>{}, // n = 0: the stream's history stays as it is
           stream);
    GPUFILTER_CHECK(cudaStreamSynchronize(stream)); // the buffers die on return
}

#define GPUFILTER_INSTANTIATE_ENGINE(In, Tap) template class fft_fir_engine<In, Tap>;
GPUFILTER_FOR_EACH_FIR_TYPE(GPUFILTER_INSTANTIATE_ENGINE)

} // namespace cuda
} // namespace gpufilter
} // namespace gr
