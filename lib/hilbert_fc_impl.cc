/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "hilbert_fc_impl.h"
#include "parameter_checks.h"
#include <gnuradio/filter/firdes.h>
#include <gnuradio/io_signature.h>
#include <algorithm>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {

namespace {
unsigned int checked_ntaps(unsigned int ntaps)
{
    if (ntaps == 0)
        throw std::invalid_argument("ntaps: must be >= 1, got 0");
    return ntaps | 1; // gr-filter makes it odd: the delay ntaps/2 is then whole
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
} // namespace

hilbert_fc::sptr hilbert_fc::make(unsigned int ntaps,
                                  fft::window::win_type window,
                                  double param,
                                  int device,
                                  int batch_size)
{
    return gnuradio::make_block_sptr<hilbert_fc_impl>(
        ntaps, window, param, device, batch_size);
}

hilbert_fc_impl::hilbert_fc_impl(unsigned int ntaps,
                                 fft::window::win_type window,
                                 double param,
                                 int device,
                                 int batch_size)
    : gr::sync_block("gpu_hilbert_fc",
                     gr::io_signature::make(1, 1, sizeof(float)),
                     gr::io_signature::make(1, 1, sizeof(gr_complex))),
      // The direct form always: the real part stays the delayed input, bit for bit.
      gpu_block<hilbert_fc, float, gr_complex>(
          device,
          analytic_taps(gr::filter::firdes::hilbert(checked_ntaps(ntaps), window, param)),
          1,
          checked_batch_size(batch_size),
          "direct"),
      d_ntaps(checked_ntaps(ntaps)),
      d_hilb(gr::filter::firdes::hilbert(d_ntaps, window, param))
{
    if (!d_core.on_gpu())
        d_cpu =
            std::make_unique<gr::filter::kernel::fir_filter<float, float, float>>(d_hilb);
    set_history(d_ntaps);
}

int hilbert_fc_impl::work(int noutput_items,
                          gr_vector_const_void_star& input_items,
                          gr_vector_void_star& output_items)
{
    const auto in = static_cast<const float*>(input_items[0]);
    const auto out = static_cast<gr_complex*>(output_items[0]);
    d_core.note_batch(noutput_items);

    if (d_cpu) { // gr-filter's hilbert_fc work(), for identical results
        for (int i = 0; i < noutput_items; i++)
            out[i] = gr_complex(in[i + d_ntaps / 2], d_cpu->filter(&in[i]));
        return noutput_items;
    }

    return d_core.filter(in, noutput_items, out) ? noutput_items : gr::block::WORK_DONE;
}

} // namespace gpufilter
} // namespace gr
