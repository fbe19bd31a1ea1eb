/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR_TUNING_H
#define INCLUDED_GPUFILTER_CUDA_FIR_TUNING_H

// The FIR engines' choices, as one typed value: which algorithm and kernel run, and
// their launch shapes. The defaults are the measured rules (docs/kernels.md); tests
// and the benchmark harness set other values to check or time each choice.

#include <string>

namespace gr {
namespace gpufilter {
namespace cuda {

//! The FIR algorithm: automatic picks from the measured crossover.
enum class fir_method { automatic, direct, fft };

//! The direct form's kernel: automatic picks by shape (docs/kernels.md); the others
//! force one kernel for every shape ("blocked": the per-phase polyphase kernel).
enum class fir_kernel { automatic, tiled, untiled, blocked, deinterleaved };

struct fir_tuning {
    fir_kernel kernel = fir_kernel::automatic;
    //! Threads per block of the blocked and deinterleaved kernels: 0 (the rule), or
    //! 32, 64, 128 or 256.
    int block_threads = 0;
    //! Input samples per batched group of FFT segments: 0 (the default, about 2^22).
    long long fft_group_samples = 0;
};

/*!
 * The tuning new engines start from: the defaults, unless a test or the benchmark
 * harness changed it. Each engine copies it when it is made, so a change applies to
 * engines made afterwards. Not for concurrent change while engines are being made.
 */
fir_tuning& default_fir_tuning();

//! The one parser of method names: "auto", "direct" or "fft"; throws
//! std::invalid_argument naming `method` otherwise.
fir_method parse_fir_method(const std::string& name);
const char* fir_method_name(fir_method m);

//! "tiled", "untiled", "blocked", "deinterleaved" or "" / "auto"; throws
//! std::invalid_argument naming `kernel` otherwise.
fir_kernel parse_fir_kernel(const std::string& name);

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
