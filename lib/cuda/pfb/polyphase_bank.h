/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_POLYPHASE_BANK_H
#define INCLUDED_GPUFILTER_CUDA_POLYPHASE_BANK_H

// The polyphase filterbank both PFB engines (channelizer, decimator) are made of: the
// taps split over N branch filters, the stream state, the branch FIR pass and the
// batched inverse FFT across the branches. The engines add their output stage.

#include "../common/resources.h"
#include "../common/sample_types.h"
#include "batched_fft.h"
#include "pfb_tuning.h"
#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief N branch filters over one wideband stream, a step every R input samples,
 * each step's N branch outputs in one row ready for an N-point inverse FFT.
 *
 * The semantics are gr-filter 3.10's `stream_to_streams(N) -> pfb_channelizer_ccf(N,
 * taps, N/R)` (pfb_decimator_ccf is the case R = N), written on the wideband stream
 * x (x[m] = 0 for m < 0, m counted from construction, reset() or set_history()):
 *
 * - taps are zero-padded to N*T, T = ceil(ntaps/N) (polyphase_filterbank::set_taps);
 *   branch f has taps h[f + k*N], k < T;
 * - step s (s = 0, 1, ...) ends at input sample q = s*R + R - 1, and branch f reads
 *   x[q - f - k*N] (gr-filter feeds filter f from stream (q - f) mod N);
 * - branch f's output goes to FFT input slot (f - (s+2)*R) mod N, which is gr-filter's
 *   d_idxlut[(q - f) mod N] = N - 1 - (((q - f) mod N) + R) mod N: the oversampling
 *   rotation, a cyclic shift of the FFT input (none when R = N);
 * - the rows go through an unscaled inverse FFT (exp(+j), FFTW_BACKWARD, as gr-fft's
 *   fft_complex_rev), bin c being channel c.
 *
 * Any split of the input into calls gives the output of one call: the last N*T - 1
 * samples are kept on the device (as complex float, whatever the input format, so a
 * zero history is a zero signal for offset-binary input too), with the phase (input
 * samples before the next step's last one) and the step count modulo N.
 *
 * process order for an engine: for each chunk of at most steps_per_chunk() steps of
 * the call, filter_chunk(), then inverse_fft() and the engine's output stage on
 * rows(); after the last chunk, advance(). The kernel of a call's first chunk
 * (first = 0) also copies the next call's history, one launch a call fewer, so every
 * call with steps runs that chunk; advance() copies it only for a call without
 * steps. Where fused() holds, filter_fft() does filter_chunk() and inverse_fft() in
 * one kernel, for any number of steps.
 */
template <class In>
class polyphase_bank
{
public:
    //! Touches the GPU (current device). Throws std::invalid_argument for numchans 0
    //! or > max_channels, empty taps, rate_ratio outside [1, numchans] or a tuning it
    //! cannot use. `tuning` (pfb_tuning.h): whether fused() holds, the chunk size.
    polyphase_bank(unsigned numchans,
                   const std::vector<float>& taps,
                   int rate_ratio,
                   const pfb_tuning& tuning = pfb_tuning_for_device());

    static constexpr unsigned max_channels = 1u << 16;

    //! New taps from the next step on; the kept history is trimmed to the newest
    //! N*T' - 1 samples, or zero-padded at its old end (then set_history() gives the
    //! real past, as GNU Radio's window does). May allocate; synchronizes the stream.
    void set_taps(const std::vector<float>& taps, cudaStream_t stream);
    //! Replaces the history with history_len() host samples (oldest first), waits for
    //! the copy, and restarts: the next input sample is sample 0 of step 0.
    void set_history(const In* host_samples, cudaStream_t stream);
    //! Zero history, restart as at construction.
    void reset(cudaStream_t stream);

    //! Steps n more input samples complete.
    std::size_t output_count(std::size_t n) const
    {
        return n > d_phase ? (n - 1 - d_phase) / d_rate + 1 : 0;
    }
    std::size_t max_output_count(std::size_t n) const
    {
        return (n + d_rate - 1) / d_rate;
    }

    //! Rows [0, count) of rows() = steps [first, first + count) of this call (of n
    //! input samples, d_in on the device), in FFT-input order. count <=
    //! steps_per_chunk(), first + count <= output_count(n). For first = 0 the kernel
    //! also copies the next call's history.
    void filter_chunk(const In* d_in,
                      std::size_t n,
                      std::size_t first,
                      std::size_t count,
                      cudaStream_t stream);
    //! The unscaled inverse N-point FFT of `count` rows of src into dst (may be src).
    void
    inverse_fft(const complex* src, complex* dst, std::size_t count, cudaStream_t stream);
    //! Where fused(): the inverse FFT of the rows of steps [first, first + count) of
    //! this call into dst (count rows of N, channel order), in one kernel; any count
    //! with first + count <= output_count(n); the history as filter_chunk().
    void filter_fft(const In* d_in,
                    std::size_t n,
                    std::size_t first,
                    std::size_t count,
                    complex* dst,
                    cudaStream_t stream);
    //! filter_fft() of all of a call's steps, then what advance() does, with the
    //! history kept by the same kernel: one launch a call.
    void
    filter_fft_call(const In* d_in, std::size_t n, complex* dst, cudaStream_t stream);
    //! Whether filter_fft() is the path: pfb_fused_for(tuning, N, R, T), decided
    //! again when set_taps() changes T.
    bool fused() const { return d_fused; }
    //! After a call's chunks are queued: keeps the history for the next call where
    //! the call has no steps (else its first chunk's kernel did), moves the phase and
    //! the step count on.
    void advance(const In* d_in, std::size_t n, cudaStream_t stream);

    complex* rows() const { return d_rows.get(); }
    std::size_t steps_per_chunk() const { return d_steps_per_chunk; }
    int numchans() const { return d_n; }
    int rate_ratio() const { return d_rate; }
    int taps_per_filter() const { return d_taps_per_filter; }
    const std::vector<float>& taps() const { return d_taps; }
    std::size_t history_len() const { return d_history_len; }

private:
    //! Launch origin of step `first` of this call: v_first in [history | input], and
    //! base so that v + base is the stream's sample index modulo N.
    void origin(std::size_t first, long long& v_first, int& base) const;
    //! The history_keep a kernel runs to keep the next call's history, if
    //! keep_history (else an empty one). Defined in polyphase_bank.cu, the one file
    //! that calls it, so that this header needs no device types.
    auto next_history(const In* d_in, std::size_t n, bool keep_history) const;

    int d_n;
    int d_rate;
    int d_taps_per_filter = 0;
    std::vector<float> d_taps;     // as given
    device_buffer<float> d_branch; // padded taps: d_branch[k*N + f] = h[f + k*N]

    std::size_t d_history_len = 0; // N*T - 1
    std::size_t d_phase = 0;       // input samples before the next step's last one
    std::uint64_t d_steps = 0;     // steps since the restart, modulo N
    device_buffer<complex> d_history[2];
    int d_current = 0;

    std::size_t d_steps_per_chunk = 0;
    device_buffer<complex> d_rows;    // d_steps_per_chunk * N
    std::optional<batched_fft> d_fft; // N points, up to d_steps_per_chunk rows

    pfb_tuning d_tuning;
    bool d_fused = false;
    int d_block_samples = 0;  // fused: a block's samples (pfb_fused_block)
    bool d_copy_taps = false; // fused: blocks copy the taps to shared memory
    // fused: the device's shared memory, a block's most, a multiprocessor's, and
    // what it keeps for each block
    std::size_t d_shared_per_block = 0, d_shared_per_sm = 0, d_shared_reserved = 0;
    int d_multiprocessors = 0;        // fused: the device's
    device_buffer<complex> d_twiddle; // fused: block_fft_twiddles({N, true})
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
