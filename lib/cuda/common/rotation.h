/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_ROTATION_H
#define INCLUDED_GPUFILTER_CUDA_ROTATION_H

// Phase bookkeeping of an output rotation (a frequency shift after a filter). Host
// code only, shared by the GPU engine and the CPU fallback so both rotate alike.
//
// Phases are kept in cycles (1 cycle = 2*pi rad) and derived from an output count,
// never accumulated: a float phasor multiplied once per sample drifts by its rounding
// error every sample, a phase derived from the count does not drift at all.

#include <cmath>
#include <cstdint>

namespace gr {
namespace gpufilter {
namespace cuda {

//! Output k (counted from a reference output, k = 0) is multiplied by
//! exp(j*2*pi*(start_cycles + k*step_cycles)).
struct rotation {
    double start_cycles = 0.0;
    double step_cycles = 0.0;
};

//! x minus the nearest integer: the same phase, in [-0.5, 0.5]. Exact in floating point.
inline double wrap_cycles(double x) { return x - std::nearbyint(x); }

/*!
 * Phase (cycles, wrapped) of output k of rotation r: start + k*step. The product
 * k*step is formed exactly (its rounding error is recovered with an fma), so the
 * phase is as accurate (~1e-16 cycles) at k = 10^15 as at k = 1. Exact for
 * k < 2^53, i.e. for over a hundred days of outputs at 1 GS/s.
 */
inline double phase_cycles(const rotation& r, std::uint64_t k)
{
    const double kd = static_cast<double>(k);
    const double step = wrap_cycles(r.step_cycles); // whole cycles do not matter
    const double product = kd * step;
    const double error = std::fma(kd, step, -product); // product + error == kd * step
    return wrap_cycles(wrap_cycles(product) + error + wrap_cycles(r.start_cycles));
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
