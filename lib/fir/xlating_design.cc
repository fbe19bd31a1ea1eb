/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "fir/xlating_design.h"
#include <gnuradio/math.h>
#include <cmath>
#include <complex>

namespace gr {
namespace gpufilter {

template <class TAP_T>
std::vector<gr_complex> xlating_bandpass_taps(const std::vector<TAP_T>& proto,
                                              double center_freq,
                                              double sampling_freq)
{
    // Same expressions and types as gr-filter's build_composite_fir(): the float
    // rounding of fwT0 and of i*fwT0 is part of gr-filter's taps.
    const float fwT0 = 2 * GR_M_PI * center_freq / sampling_freq;
    std::vector<gr_complex> ctaps(proto.size());
    for (unsigned int i = 0; i < proto.size(); i++)
        ctaps[i] = proto[i] * std::exp(gr_complex(0, i * fwT0));
    return ctaps;
}

double xlating_step_cycles(double center_freq, double sampling_freq, int decimation)
{
    return cuda::wrap_cycles(-center_freq / sampling_freq * decimation);
}

double xlating_retune_cycles(double new_freq,
                             double old_freq,
                             double sampling_freq,
                             std::size_t ntaps)
{
    // The phase delay of a symmetric FIR, (ntaps-1)/2 samples, times the change of w.
    const double delta_cycles = (new_freq - old_freq) / sampling_freq;
    return cuda::wrap_cycles(-delta_cycles * ((static_cast<double>(ntaps) - 1.0) / 2.0));
}

void rotate_outputs(gr_complex* out, int n, const cuda::rotation& r, std::uint64_t first)
{
    for (int k = 0; k < n; k++) {
        const double phase = 2.0 * GR_M_PI * cuda::phase_cycles(r, first + k);
        const std::complex<double> z =
            std::complex<double>(out[k]) * std::polar(1.0, phase);
        out[k] = gr_complex(z);
    }
}

template std::vector<gr_complex>
xlating_bandpass_taps<float>(const std::vector<float>&, double, double);
template std::vector<gr_complex>
xlating_bandpass_taps<gr_complex>(const std::vector<gr_complex>&, double, double);

} // namespace gpufilter
} // namespace gr
