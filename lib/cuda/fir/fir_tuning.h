/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR_TUNING_H
#define INCLUDED_GPUFILTER_CUDA_FIR_TUNING_H

// The FIR family's tuning in one place: which algorithm (direct form or FFT
// overlap-save) and which direct-form kernel run, with their launch shapes and the FFT
// path's sizes. A fir_tuning is what an engine takes when it is made (fir_engine,
// fft_fir_engine, make_fir_processor); fir_tuning_for() fills it from the table of
// measured rules in fir_tuning.cc, keyed by GPU architecture and sample types; the
// *_for() functions below are the rules the engines apply to it. Tests and the
// benchmark harness change a copy to force or time one choice.

#include "../common/device.h"
#include "../common/sample_types.h"
#include <type_traits>
#include <cstddef>
#include <string>

namespace gr {
namespace gpufilter {
namespace cuda {

//! The FIR algorithm: automatic picks from the measured crossover.
enum class fir_method { automatic, direct, fft };

//! The direct form's kernel: automatic picks by shape (fir_kernel_for); the others
//! force one kernel for every shape ("blocked": the per-phase polyphase kernel;
//! "tiled": the first kernels, fir_tiled where its tile fits, else fir_untiled).
enum class fir_kernel { automatic, tiled, untiled, blocked, deinterleaved };

//! The sample types as the table tells them apart: whether input and taps are
//! complex, so that a tap costs 1, 2 or 4 FMAs (integer input is real), and whether
//! the samples are integers (int16, widened as they are staged).
struct fir_types {
    bool complex_input;
    bool complex_taps;
    bool integer_input = false;
};

template <class In, class Tap>
constexpr fir_types fir_types_of()
{
    return { is_complex_v<In>, is_complex_v<Tap>, std::is_integral_v<In> };
}

/*!
 * \brief The FIR engines' tuning. Made by fir_tuning_for() (or fir_tuning_for_device());
 * a default-constructed one has no rules, and the engines reject it
 * (check_fir_tuning).
 */
struct fir_tuning {
    // Forced choices, for tests and the benchmark; automatic and 0 follow the rules.

    //! The direct form's kernel.
    fir_kernel kernel = fir_kernel::automatic;
    //! Threads per block of fir_blocked and fir_deinterleaved: 0, 32, 64, 128 or 256.
    int block_threads = 0;

    // The rules: the table's entry (fir_tuning.cc gives each value's measurement).

    //! The FFT path where ntaps >= fft_taps_per_output * decimation.
    int fft_taps_per_output = 0;
    //! fir_untiled where decimation >= untiled_min_decimation and
    //! ntaps <= untiled_max_taps_per_phase * decimation.
    int untiled_min_decimation = 0;
    int untiled_max_taps_per_phase = 0;
    //! Below this many sub-taps per phase (ceil(ntaps / decimation)) the tiled kernels
    //! rather than fir_blocked.
    int blocked_min_sub_taps = 0;
    //! fir_deinterleaved where decimation >= deinterleaved_min_decimation with at most
    //! deinterleaved_max_sub_taps sub-taps per phase.
    int deinterleaved_min_decimation = 0;
    int deinterleaved_max_sub_taps = 0;
    //! fir_blocked's threads per block at decimation 1 and 2, 3 and 4, and above.
    int blocked_threads_d2 = 0;
    int blocked_threads_d4 = 0;
    int blocked_threads_more = 0;
    //! fir_deinterleaved's threads per block at decimation up to 8, and above.
    int deinterleaved_threads_d8 = 0;
    int deinterleaved_threads_more = 0;
    //! FFT path: input samples per batched group of segments (the largest cuFFT batch
    //! holds about this many).
    long long fft_group_samples = 0;
    //! FFT path, the automatic size (fir_fft_size_for): the smallest power of two
    //! >= fft_taps_factor * ntaps, clamped to [fft_min_size, fft_max_auto_size].
    int fft_taps_factor = 0;
    int fft_min_size = 0;
    int fft_max_auto_size = 0;
    //! FFT path, the fused kernel (one pass per call, fft_fir_fused_kernels.cuh): it
    //! runs sizes up to fused_max_size (0: never; at most 16384, and only where the
    //! device's shared memory holds the points). The automatic size is first the
    //! smallest power of two >= fused_taps_factor * ntaps, clamped to
    //! [fused_min_size, fused_max_size], where that leaves at least half of a
    //! segment new samples; filters of at most fused_tight_max_taps taps (0: none)
    //! take the smallest size from fused_min_size that does.
    //! Longer filters, up to fused_max_partitions * partition_size / 2 taps, are cut
    //! into partitions of partition_size / 2 (uniformly partitioned overlap-save) at
    //! the automatic size partition_size (4096 or 8192); about
    //! partition_group_samples input samples go through each group of its launches.
    int fused_max_size = 0;
    int fused_taps_factor = 0;
    int fused_min_size = 0;
    int fused_tight_max_taps = 0;
    int fused_max_partitions = 0;
    long long partition_group_samples = 0;
    int partition_size = 0;
    //! FFT path, the cluster kernel (sm_90 and later, fft_fir_cluster_kernels.cuh):
    //! 32768 points in one pass, each transform shared by a cluster of 2 blocks, where
    //! cluster_size is 32768 and the fused kernel runs (0 or fused_max_size 0: never).
    //! The automatic size takes it before the partitions where it leaves half of a
    //! segment new.
    int cluster_size = 0;
};

//! The partition sizes the partitioned path has kernels for
//! (fft_fir_partitioned_kernels.cuh): the values partition_size may take.
inline bool fir_partition_size_supported(int n) { return n == 4096 || n == 8192; }

//! The size the cluster kernel runs (fft_fir_cluster_kernels.cuh): the value
//! cluster_size may take besides 0.
inline bool fir_cluster_size_supported(int n) { return n == 32768; }

//! The table's tuning for architecture `arch` (10 * major + minor, 0 for no device)
//! and these sample types, every choice automatic; below sm_90 (no thread block
//! clusters) without the cluster kernel.
fir_tuning fir_tuning_for(int arch, fir_types types);

//! The engines' default: the table's tuning for the current device and In, Tap.
template <class In, class Tap>
fir_tuning fir_tuning_for_device()
{
    return fir_tuning_for(current_device_arch(), fir_types_of<In, Tap>());
}

//! Throws std::invalid_argument naming the first field an engine cannot use: a rule
//! not set (< 1), a block size other than 32, 64, 128 or 256 (block_threads: or 0),
//! an fft_min_size that is not a power of two.
void check_fir_tuning(const fir_tuning& t);

//! direct or fft, never automatic: `requested` unless automatic, else the crossover.
fir_method fir_method_for(const fir_tuning& t,
                          std::size_t ntaps,
                          int decimation,
                          fir_method requested);

//! fir_method_for with the current device's tuning unless one is given: the method a
//! fir_auto_engine picks for its taps.
template <class In, class Tap>
fir_method choose_fir_method(std::size_t ntaps,
                             int decimation,
                             fir_method requested,
                             const fir_tuning& t = fir_tuning_for_device<In, Tap>())
{
    return fir_method_for(t, ntaps, decimation, requested);
}

//! The direct form's kernel for ntaps taps at this decimation, never automatic:
//! t.kernel unless automatic, else the rules (untiled, tiled, deinterleaved, blocked,
//! the first that applies).
fir_kernel fir_kernel_for(const fir_tuning& t, int ntaps, int decimation);

//! Threads per block of `kernel` (blocked or deinterleaved) at this decimation:
//! t.block_threads unless 0, else the rule.
int fir_block_threads_for(const fir_tuning& t, fir_kernel kernel, int decimation);

//! The FFT path's automatic size: the fused size (see fir_tuning) where it leaves half
//! of a segment new samples (N >= 2 * (ntaps - 1 + decimation)); else the clamped
//! power of two, doubled while less than half of a segment would be new samples.
//! Unbounded: the engine checks its largest size.
long long fir_fft_size_for(const fir_tuning& t, int ntaps, int decimation);

//! "auto", "direct" or "fft": what a block reports (the block layer parses the
//! names users give, parse_filter_method).
const char* fir_method_name(fir_method m);

//! "tiled", "untiled", "blocked", "deinterleaved" or "" / "auto"; throws
//! std::invalid_argument naming `kernel` otherwise.
fir_kernel parse_fir_kernel(const std::string& name);

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
