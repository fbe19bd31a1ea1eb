/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/parameter_checks.h"
#include "fir/cpu/hilbert_cpu_kernel.h"
#include "fir/fir_computation.h"
#include "fir/hilbert_fc_impl.h"
#include <gnuradio/filter/firdes.h>
#include <gnuradio/io_signature.h>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {

namespace {
//! gr-filter's Hilbert taps; refused where the window's param makes them NaN or
//! infinite (a Kaiser window with beta = nan, say), which gr-filter would run.
std::vector<float>
hilbert_design(unsigned int ntaps, fft::window::win_type window, double param)
{
    const unsigned int n = checked_hilbert_ntaps(ntaps);
    auto taps = gr::filter::firdes::hilbert(n, window, param);
    for (const float t : taps)
        if (!std::isfinite(t))
            throw std::invalid_argument("param: the window gives taps that are not "
                                        "finite with param = " +
                                        std::to_string(param));
    return taps;
}


//! Taps whose real part is a unit impulse at the centre (the delayed input) and
//! whose imaginary part is the Hilbert filter: the analytic signal in one FIR pass.
std::vector<gr_complex> analytic_taps(const std::vector<float>& hilb)
{
    std::vector<gr_complex> taps(hilb.size());
    for (std::size_t m = 0; m < hilb.size(); m++)
        taps[m] = gr_complex(m == hilb.size() / 2 ? 1.0f : 0.0f, hilb[m]);
    return taps;
}

//! The GPU's complex-tap FIR, always the direct form (the real part stays the delayed
//! input, bit for bit), and gr-filter's own kernel on the CPU.
computation<cuda::no_controls> hilbert_computation(const std::vector<float>& hilb)
{
    const auto gpu = fir_computation<float, gr_complex, gr_complex>(
                         analytic_taps(hilb), 1, filter_method::direct)
                         .gpu;
    return { [gpu](int device, std::size_t max_chunk) {
                return cuda::gpu_path<cuda::no_controls>{ gpu(device, max_chunk).stream,
                                                          nullptr };
            },
             [hilb] { return std::make_unique<hilbert_cpu_kernel>(hilb); } };
}
} // namespace

hilbert_fc::sptr hilbert_fc::make(unsigned int ntaps,
                                  fft::window::win_type window,
                                  double param,
                                  int device,
                                  int batch_size,
                                  double max_latency)
{
    return gnuradio::make_block_sptr<hilbert_fc_impl>(
        ntaps, window, param, device, batch_size, max_latency);
}

hilbert_fc_impl::hilbert_fc_impl(unsigned int ntaps,
                                 fft::window::win_type window,
                                 double param,
                                 int device,
                                 int batch_size,
                                 double max_latency)
    : gr::sync_block("gpu_hilbert_fc",
                     gr::io_signature::make(1, 1, sizeof(float)),
                     gr::io_signature::make(1, 1, sizeof(gr_complex))),
      gpu_block<hilbert_fc>(device,
                            { 1, 1 },
                            checked_batch_size(batch_size),
                            max_latency,
                            hilbert_computation(hilbert_design(ntaps, window, param))),
      d_ntaps(checked_hilbert_ntaps(ntaps)),
      d_hilb(hilbert_design(ntaps, window, param))
{
    set_history(d_ntaps);
}

int hilbert_fc_impl::work(int noutput_items,
                          gr_vector_const_void_star& input_items,
                          gr_vector_void_star& output_items)
{
    return d_core.process(input_items, noutput_items, output_items);
}

} // namespace gpufilter
} // namespace gr
