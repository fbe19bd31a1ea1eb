/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_PFB_TUNING_H
#define INCLUDED_GPUFILTER_CUDA_PFB_TUNING_H

// The polyphase filterbank's choice of path, as one typed value. The default is the
// measured rule (docs/kernels.md, "Polyphase channelizer and decimator"); tests and
// the benchmark harness set other values to check or time each path.

namespace gr {
namespace gpufilter {
namespace cuda {

//! automatic: the fused kernel where the measured rule (pfb_fused_rule) picks it,
//! else two passes. two_pass: branch FIR kernel, then batched cuFFT. fused: the
//! one-kernel FIR + in-block FFT wherever it applies (elsewhere two passes, as
//! automatic).
enum class pfb_path { automatic, two_pass, fused };

//! The synthesizer's kernels. rows: the transformed rows go through device memory
//! (a gather + inverse FFT kernel or kernels, as `path` picks, then the branch filter
//! kernel). one_pass: gather, inverse FFT and branch filters in one kernel
//! (synth_one_pass) wherever it applies (synth_one_pass_regions), else rows.
//! automatic: the measured rule, one_pass up to 512 points, rows above.
enum class synth_path { automatic, rows, one_pass };

struct pfb_tuning {
    pfb_path path = pfb_path::automatic;
    synth_path synth = synth_path::automatic;
    //! The one-pass kernel's regions of 4096 samples a block: 0 the rule of
    //! synth_one_pass_regions, 1 or 2 that many wherever they fit (for timing both).
    int synth_regions = 0;
};

/*!
 * The tuning new channelizers start from: the defaults, unless a test or the
 * benchmark harness changed it. Each engine copies it when it is made. Not for
 * concurrent change while engines are being made.
 */
pfb_tuning& default_pfb_tuning();

//! Puts default_pfb_tuning() back as it was when made, however the scope is left
//! (a test or benchmark that forces a path).
class pfb_tuning_scope
{
public:
    pfb_tuning_scope() : d_saved(default_pfb_tuning()) {}
    ~pfb_tuning_scope() { default_pfb_tuning() = d_saved; }
    pfb_tuning_scope(const pfb_tuning_scope&) = delete;
    pfb_tuning_scope& operator=(const pfb_tuning_scope&) = delete;

private:
    pfb_tuning d_saved;
};

//! Whether the fused kernel handles N channels: a power of two in [2, 4096].
inline bool pfb_fused_supported(int N)
{
    return N >= 2 && N <= 4096 && (N & (N - 1)) == 0;
}

/*!
 * How many regions of 4096 samples (1 or 2) a block of the synthesizer's one-pass
 * kernel transforms for FFT size P and T taps per branch, or 0 where that kernel does
 * not apply. It needs P a power of two in [2, 1024] and the T - 1 steps before a
 * block's own (its halo, transformed twice) at most half of the block's rows (4096/P a
 * region). The rule (regions 0): one region where the halo is at most an eighth of its
 * rows, else two. regions 1 or 2: that many where they fit. (Four regions a block, one
 * block an SM, measured slower than two at every size: docs/kernels.md.)
 */
inline int synth_one_pass_regions(int P, int T, int regions = 0)
{
    if (P < 2 || P > 1024 || (P & (P - 1)) != 0 || T < 1 || regions < 0 || regions > 2)
        return 0;
    const int rows = 4096 / P;
    const auto fits = [&](int g) { return 2 * (T - 1) <= g * rows; };
    if (regions > 0)
        return fits(regions) ? regions : 0;
    if (8 * (T - 1) <= rows)
        return 1;
    return fits(2) ? 2 : 0;
}

//! The measured rule of pfb_path::automatic (docs/kernels.md): whether the fused
//! kernel is the faster path for N channels, R input samples per step and T taps per
//! branch.
bool pfb_fused_rule(int N, int R, int T);

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
