/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_PFB_TUNING_H
#define INCLUDED_GPUFILTER_CUDA_PFB_TUNING_H

// The polyphase family's tuning in one place: the channelizer's path (two passes or
// the fused kernel), the synthesizer's kernels, the arbitrary resampler's outputs per
// thread and the size of the work buffers. A pfb_tuning is what an engine takes when
// it is made (pfb_channelizer_engine, pfb_decimator_engine, pfb_synthesizer_engine,
// pfb_arb_resampler_engine; polyphase_bank); pfb_tuning_for() fills it from the table
// of measured rules in pfb_tuning.cc, keyed by GPU architecture (the kernels compute
// in complex float whatever the input format, so there is no type key); the *_for()
// functions below are the rules the engines apply to it. Tests and the benchmark
// harness change a copy to force or time one choice.

#include "../common/device.h"
#include <cstddef>

namespace gr {
namespace gpufilter {
namespace cuda {

//! The channelizer's path. two_pass: the branch FIR kernel, then batched cuFFT.
//! fused: the one-kernel FIR + in-block FFT wherever it applies
//! (pfb_fused_supported; elsewhere two passes). For the synthesizer, the gather and
//! inverse FFT: fused in one kernel wherever it applies (P a power of two up to
//! synth_block_max_fft), two_pass the gather kernel and cuFFT. automatic: the rules.
enum class pfb_path { automatic, two_pass, fused };

//! The synthesizer's kernels. rows: the transformed rows go through device memory
//! (gather and inverse FFT as `pfb_path` picks, then the branch filter kernel).
//! one_pass: gather, inverse FFT and branch filters in one kernel (synth_one_pass)
//! wherever it applies (synth_one_pass_regions), else rows. automatic: the rules.
enum class synth_path { automatic, rows, one_pass };

//! Samples a block of the in-block FFT kernels holds (pfb_kernels::fused_elems; the
//! channelizer's fused kernel at least as many) and the largest FFT of the
//! synthesizer's (pfb_kernels::one_pass_max_fft): the limits of where those kernels
//! apply, not tuning.
constexpr int pfb_block_samples = 4096;
constexpr int synth_block_max_fft = 1024;

/*!
 * \brief The polyphase engines' tuning. Made by pfb_tuning_for() (or
 * pfb_tuning_for_device()); a default-constructed one has no rules, and the engines
 * reject it (check_pfb_tuning).
 */
struct pfb_tuning {
    // Forced choices, for tests and the benchmark; automatic and 0 follow the rules.

    pfb_path path = pfb_path::automatic;
    synth_path synth = synth_path::automatic;
    //! The one-pass kernel's regions of pfb_block_samples a block: 0 the rule, 1 or 2
    //! that many wherever they fit.
    int synth_regions = 0;
    //! The channelizer's fused kernel: samples a block (4096, 8192 or 16384, at least
    //! N) from 512 channels up; 0 the rule.
    int fused_block_samples = 0;

    // The rules: the table's entry (pfb_tuning.cc gives each value's measurement).

    //! Channelizer at R = N: the fused kernel up to fused_max_channels channels at
    //! any taps per branch, above them up to fused_max_taps_per_branch.
    int fused_max_channels = 0;
    int fused_max_taps_per_branch = 0;
    //! Channelizer at R < N (oversampled): the fused kernel up to this many taps per
    //! branch.
    int fused_oversampled_max_taps_per_branch = 0;
    //! The fused kernel's block from 512 channels up, at least N samples:
    //! fused_block_input_rows * N input samples' steps (their N-point rows rounded up
    //! to 4096, 8192 or 16384 samples); the smallest block, max(N, 4096), where 16384
    //! samples hold under half of those rows. Below 512 channels: 4096.
    int fused_block_input_rows = 0;
    //! Synthesizer: the fused gather + inverse FFT kernel up to this FFT size.
    int synth_fused_max_fft = 0;
    //! Synthesizer: the one-pass kernel up to this FFT size.
    int synth_one_pass_max_fft = 0;
    //! One-pass kernel: one region a block where the halo (T - 1 rows) is at most
    //! 1/synth_one_region_halo_ratio of the region's rows, else two.
    int synth_one_region_halo_ratio = 0;
    //! Arbitrary resampler: outputs per GPU thread where an output moves on by more
    //! than one input sample (rates below about 1), and elsewhere.
    int arb_outputs_per_thread_down = 0;
    int arb_outputs_per_thread_up = 0;
    //! Complex samples per chunk of the work buffers of rows (polyphase_bank's and
    //! the synthesizer's).
    long long chunk_samples = 0;
};

//! The table's tuning for architecture `arch` (10 * major + minor, 0 for no device),
//! every choice automatic.
pfb_tuning pfb_tuning_for(int arch);

//! The engines' default: the table's tuning for the current device.
inline pfb_tuning pfb_tuning_for_device()
{
    return pfb_tuning_for(current_device_arch());
}

//! Throws std::invalid_argument naming the first field an engine cannot use: a rule
//! not set (< 1), synth_regions outside [0, 2], outputs per thread other than 1, 2,
//! 4 or 8.
void check_pfb_tuning(const pfb_tuning& t);

//! Whether the fused kernel handles N channels: a power of two in [2, 4096].
bool pfb_fused_supported(int N);

//! Samples a block of the fused kernel holds for N channels and R input samples a
//! step: t.fused_block_samples if set, else the rule (fused_block_input_rows).
int pfb_fused_block(const pfb_tuning& t, int N, int R);

//! Whether a bank of N channels, R input samples per step and T taps per branch
//! takes the fused kernel: where it applies, t.path unless automatic, else the rule.
bool pfb_fused_for(const pfb_tuning& t, int N, int R, int T);

//! Rows per chunk of a work buffer of N-sample rows: t.chunk_samples / N rounded down
//! to a power of two, at least 1.
std::size_t pfb_chunk_rows(const pfb_tuning& t, int N);

//! Whether the synthesizer's gather and inverse FFT of P points run as one kernel.
bool synth_fused_for(const pfb_tuning& t, int P);

//! Whether the one-pass kernel handles FFT size P at all: a power of two in
//! [2, synth_block_max_fft].
bool synth_one_pass_supported(int P);

//! Whether a synthesizer of FFT size P takes the one-pass kernel where its taps let
//! it (synth_one_pass_regions), decided when it is made: t.synth unless automatic.
bool synth_one_pass_for(const pfb_tuning& t, int P);

/*!
 * How many regions of pfb_block_samples (1 or 2) a block of the synthesizer's one-pass
 * kernel transforms for FFT size P and T taps per branch, or 0 where that kernel does
 * not apply. It needs synth_one_pass_supported(P) and the T - 1 steps before a
 * block's own (its halo, transformed twice) at most half of the block's rows
 * (pfb_block_samples/P a region). t.synth_regions 1 or 2: that many where they fit;
 * 0: the rule (synth_one_region_halo_ratio).
 */
int synth_one_pass_regions(const pfb_tuning& t, int P, int T);

//! The arbitrary resampler's outputs per GPU thread for N = int_rate filters and a
//! stride of dec_rate filters an output (arb_schedule's arb_rate).
int arb_outputs_per_thread_for(const pfb_tuning& t, unsigned int_rate, unsigned dec_rate);

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
