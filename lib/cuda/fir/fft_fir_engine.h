/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FFT_FIR_ENGINE_H
#define INCLUDED_GPUFILTER_CUDA_FFT_FIR_ENGINE_H

#include "../common/resources.h"
#include "../common/rotation.h"
#include "../common/sample_types.h"
#include "fir_processor.h"
#include "fir_state.h"
#include <type_traits>
#include <algorithm>
#include <cstddef>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief Decimating FIR filter by FFT overlap-save (cuFFT), for long filters.
 *
 * The same filter, state and API as fir_engine (see there): output k of the stream is
 * y[k] = sum_j taps[j] * x[k*D - j] with zero initial history, any split of the input
 * into calls gives the output of one call, set_taps/set_history/reset/set_rotation
 * mean what they mean there. Only the arithmetic differs: segments of fft_size
 * samples overlapping by ntaps-1 are transformed in batches, multiplied by the taps'
 * spectrum and transformed back (docs/kernels.md). Its rounding differs from the
 * direct form's (relative error ~1e-6 rather than ~1e-7), its cost per sample grows
 * with log(fft_size) instead of ntaps.
 *
 * process() never allocates and never creates plans: the FFT plans (one per batch
 * count, sharing one work area) and buffers are made by the constructor, and again by
 * set_taps only when new taps need a larger fft_size. Both also run the new path's
 * kernels once on zeros, so that loading them does not delay the first call.
 *
 * All work is queued on the stream passed in; the caller orders calls on one stream.
 */
template <class In, class Tap>
class fft_fir_engine final : public fir_processor<In, Tap>
{
public:
    using out_type = filter_output_t<In, Tap>;
    using fir_processor<In, Tap>::process;
    using fir_processor<In, Tap>::set_history;

    //! Uses the current device. fft_size 0 picks one from the tap count and the
    //! decimation (the tuning's rule, fir_fft_size_for); otherwise it must be at least
    //! ntaps - 1 + decimation (powers of two are fastest). `tuning`: the FFT sizes
    //! (fir_tuning.h), by default the current device's measured rules. Throws
    //! std::invalid_argument for empty taps, decimation < 1, a bad fft_size or a
    //! tuning it cannot use, before touching the GPU.
    fft_fir_engine(const std::vector<Tap>& taps,
                   int decimation,
                   int fft_size = 0,
                   const fir_tuning& tuning = fir_tuning_for_device<In, Tap>());

    //! New taps from the next sample on. The newest sample of the next output stays
    //! where it was; the kept history is trimmed, or zero-padded at its old end.
    //! Re-plans (allocates, synchronizes the stream) if the taps no longer fit
    //! fft_size: with an automatic size it grows, an explicit one throws
    //! std::invalid_argument.
    void set_taps(const std::vector<Tap>& taps, cudaStream_t stream) override;

    //! Replaces the history with exactly ntaps()-1 host samples (oldest first) and
    //! restarts the decimation phase: the next input sample is the newest of the next
    //! output.
    void set_history(const In* host_samples, cudaStream_t stream) override
    {
        d_state.set_history(host_samples, stream);
    }

    //! Zero history and decimation phase, as at construction. The rotation stays.
    void reset(cudaStream_t stream) override { d_state.reset(stream); }

    //! Rotates outputs from the next one on: output k (k = 0 the next) is multiplied by
    //! exp(j*2*pi*(r.start_cycles + k*r.step_cycles)). Complex output only; otherwise
    //! std::logic_error.
    void set_rotation(const rotation& r) override { d_state.set_rotation(r); }
    //! The rotation as seen from the next output (see fir_engine::next_rotation).
    rotation next_rotation() const override { return d_state.next_rotation(); }

    //! How many outputs process() will write for n more input samples.
    std::size_t output_count(std::size_t n) const override
    {
        return d_state.output_count(n);
    }

    //! Filters n device samples into d_out (output_count(n) samples). Returns that count.
    std::size_t
    process(const In* d_in, std::size_t n, out_type* d_out, cudaStream_t stream) override;

    int ntaps() const override { return static_cast<int>(d_taps.size()); }
    int decimation() const override { return d_state.decimation(); }
    const std::vector<Tap>& taps() const { return d_taps; }
    fir_method algorithm() const override { return fir_method::fft; }

    //! The FFT size in use (samples per segment).
    int fft_size() const { return d_fft_size; }
    //! Whether calls run the fused kernel (load, FFT, spectrum, inverse FFT and store
    //! in one pass; sizes 1024 to 16384 where the device's shared memory holds them,
    //! and 32768 on the cluster kernel) rather than cuFFT and the passes around it.
    bool fused() const { return d_fused; }
    //! Thread blocks that share each transform on the fused path: 1 for the one-block
    //! kernel, 2 for the cluster kernel (32768 points on sm_90 and later, where the
    //! tuning allows it); 0 off the fused path.
    int cluster_blocks() const { return d_fused ? std::max(d_cluster_blocks, 1) : 0; }
    //! Partitions of the taps on the partitioned path (filters longer than the fused
    //! sizes hold, automatic fft_size only), else 0.
    int partitions() const { return d_partitions; }

    /*!
     * The automatic FFT size with the current device's tuning (fir_fft_size_for,
     * docs/kernels.md "Size rule"): a fused size where one holds the filter with half
     * of each segment new samples, else the partition size where the taps fit its
     * partitions, else cuFFT's. Throws std::invalid_argument where that passes the
     * largest size the engine takes.
     */
    static int default_fft_size(int ntaps, int decimation);

private:
    //! Real samples through real taps: two segments (fused) or blocks (partitioned)
    //! share a complex transform.
    static constexpr bool packs_pairs =
        std::is_same_v<In, float> && std::is_same_v<Tap, float>;
    //! Transforms (rows of spectra) that `blocks` partitioned blocks take.
    static long long transform_rows(long long blocks)
    {
        return packs_pairs ? (blocks + 1) / 2 : blocks;
    }

    void make_plans(int fft_size, cudaStream_t stream);
    void make_direct_plans(cudaStream_t stream);
    void make_direct_plans_now();
    void share_work_area(std::size_t bytes);
    void upload_spectrum(cudaStream_t stream);
    //! The cluster kernel's spectrum, each block's bins in a row of their own.
    void spectrum_by_block(cudaStream_t stream);
    //! Runs the path's kernels once on zeros, outside the stream's state, so that
    //! CUDA loads them now rather than on the first call (see the .cu). Synchronizes.
    void load_kernels(cudaStream_t stream);
    //! Queues the filter of a call: outputs [0, nout) from `src` ([history | input],
    //! the input at d_in), the first on virtual sample `first`. No state changes.
    //! Where the path's one kernel can, it also runs `keep` (history_keep: the next
    //! call's history) and returns true; otherwise the caller keeps the history.
    template <class Src, class Keep>
    bool filter(const Src& src,
                const In* d_in,
                long long first,
                long long nout,
                out_type* d_out,
                const Keep& keep,
                cudaStream_t stream);
    //! The whole call by the partitioned kernels (fft_fir_partitioned_kernels.cuh).
    template <class Src, class OutT>
    void run_partitioned(
        const Src& src, long long first, long long nout, OutT* out, cudaStream_t stream);
    long long partition_group_blocks() const;
    //! The whole call's segments by the fused kernel (fft_fir_fused_kernels.cuh).
    template <class Src, class OutT, class Keep>
    void run_fused(const Src& src,
                   long long first,
                   long long segments,
                   long long nout,
                   OutT* out,
                   const Keep& keep,
                   cudaStream_t stream);
    //! Filters segments [begin, end) of a call in groups; `direct`: they lie wholly in
    //! the caller's (complex) input, so the forward FFT reads it in place.
    template <class Src, class OutT>
    void run_segments(const Src& src,
                      const In* d_in,
                      long long begin,
                      long long end,
                      bool direct,
                      OutT* out,
                      cudaStream_t stream);
    //! The plan for the next group of `remaining` segments (see the .cu).
    int pick_plan(long long remaining) const;

    std::vector<Tap> d_taps;
    fir_state<In, out_type> d_state; // history, decimation phase, rotation
    fir_tuning d_tuning;             // the FFT sizes
    bool d_auto_size;
    int d_fft_size = 0;
    int d_advance = 0; // L: input samples between segments, a multiple of D

    std::vector<fft_plan> d_plans; // batch counts d_batches[i], largest first
    // Complex input only: the same batch counts, reading segments in place from the
    // input (input distance L, overlapping) into d_segments. Made per tap length.
    std::vector<fft_plan> d_direct_plans;
    std::vector<int> d_batches;        // powers of two down to 1
    device_buffer<char> d_fft_work;    // cuFFT's work area, shared by all plans
    device_buffer<complex> d_segments; // d_batches[0] * fft_size
    device_buffer<complex> d_spectrum; // fft_size: FFT(taps zero-padded) / fft_size
    // Sizes the fused kernel runs (fft_fir_fused_kernels.cuh): one pass per call, no
    // segment buffer, only the batch-1 plan (for the spectrum) and its twiddles.
    bool d_fused = false;
    // Sizes above those: the cluster kernel (fft_fir_cluster_kernels.cuh), its blocks
    // per transform (else 0).
    int d_cluster_blocks = 0;
    device_buffer<complex> d_twiddles;
    // Filters longer than the fused sizes hold: the taps in d_partitions partitions of
    // fft_size/2 (fft_fir_partitioned_kernels.cuh), d_spectrum one row each,
    // d_segments a group's segment spectra and d_sums their sums; 0 otherwise.
    int d_partitions = 0;
    device_buffer<complex> d_sums;
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
