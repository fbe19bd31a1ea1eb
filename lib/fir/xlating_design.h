/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_XLATING_DESIGN_H
#define INCLUDED_GPUFILTER_XLATING_DESIGN_H

// gr-filter's freq_xlating_fir_filter conventions, in one place for the GPU and the
// CPU paths. gr-filter turns "mix by exp(-j*w*n), low-pass, decimate by D" into
// "band-pass (the low-pass moved up to w), decimate, rotate by exp(-j*w*D*k)":
//   ctaps[i] = taps[i] * exp(j*i*w),  w = 2*pi*center_freq/sampling_freq,
// and a rotator whose phase starts at -w*(ntaps-1)/2 (its "previous" frequency is 0)
// and jumps by -(w_new - w_old)*(ntaps-1)/2 on every retune.

#include "cuda/common/rotation.h"
#include <gnuradio/gr_complex.h>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gr {
namespace gpufilter {

//! The band-pass taps, computed exactly as gr-filter computes them (float angle
//! i*fwT0, float complex exp), so both filter with bit-identical taps.
template <class TAP_T>
std::vector<gr_complex> xlating_bandpass_taps(const std::vector<TAP_T>& proto,
                                              double center_freq,
                                              double sampling_freq);

//! Rotator phase step per kept output, in cycles: -center_freq*D/sampling_freq.
//! In double: gr-filter's float step is off by up to ~1e-7 rad per output.
double xlating_step_cycles(double center_freq, double sampling_freq, int decimation);

//! The phase jump (cycles) gr-filter gives its rotator when the centre frequency goes
//! from old_freq to new_freq with ntaps taps (also at construction, from 0 Hz).
double xlating_retune_cycles(double new_freq,
                             double old_freq,
                             double sampling_freq,
                             std::size_t ntaps);

//! out[k] *= exp(j*2*pi*phase(first + k)) for k < n: the CPU path's rotation, from
//! the same count-derived phase as the GPU's (never an accumulated phasor).
void rotate_outputs(gr_complex* out, int n, const cuda::rotation& r, std::uint64_t first);

} // namespace gpufilter
} // namespace gr

#endif
