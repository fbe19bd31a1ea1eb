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

struct pfb_tuning {
    pfb_path path = pfb_path::automatic;
};

/*!
 * The tuning new channelizers start from: the defaults, unless a test or the
 * benchmark harness changed it. Each engine copies it when it is made. Not for
 * concurrent change while engines are being made.
 */
pfb_tuning& default_pfb_tuning();

//! Whether the fused kernel handles N channels: a power of two in [2, 4096].
inline bool pfb_fused_supported(int N)
{
    return N >= 2 && N <= 4096 && (N & (N - 1)) == 0;
}

//! The measured rule of pfb_path::automatic (docs/kernels.md): whether the fused
//! kernel is the faster path for N channels, R input samples per step and T taps per
//! branch.
bool pfb_fused_rule(int N, int R, int T);

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
