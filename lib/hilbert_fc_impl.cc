/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "device_selection.h"
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
      d_ntaps(checked_ntaps(ntaps)),
      d_hilb(gr::filter::firdes::hilbert(d_ntaps, window, param)),
      d_device(select_device(device, this->d_logger)),
      d_gate(*this, checked_batch_size(batch_size), 1)
{
    if (d_device == device_cpu)
        d_cpu =
            std::make_unique<gr::filter::kernel::fir_filter<float, float, float>>(d_hilb);
    else
        d_gpu = std::make_unique<cuda::fir_stream<float, gr_complex>>(
            d_device, analytic_taps(d_hilb), 1, static_cast<std::size_t>(batch_size));
    set_history(d_ntaps);
}

bool hilbert_fc_impl::start()
{
    d_gate.start();
    d_history_stale = true; // fresh buffers: take the history from GNU Radio's window
    return gr::sync_block::start();
}

bool hilbert_fc_impl::stop()
{
    d_gate.stop();
    return gr::sync_block::stop();
}

void hilbert_fc_impl::forecast(int noutput_items, gr_vector_int& ninput_items_required)
{
    const int needed = noutput_items + history() - 1;
    ninput_items_required[0] = std::max(needed, d_gate.min_input_items());
}

int hilbert_fc_impl::work(int noutput_items,
                          gr_vector_const_void_star& input_items,
                          gr_vector_void_star& output_items)
{
    const auto in = static_cast<const float*>(input_items[0]);
    const auto out = static_cast<gr_complex*>(output_items[0]);
    d_largest_batch = std::max<uint64_t>(d_largest_batch, noutput_items);

    if (d_cpu) { // gr-filter's hilbert_fc work(), for identical results
        for (int i = 0; i < noutput_items; i++)
            out[i] = gr_complex(in[i + d_ntaps / 2], d_cpu->filter(&in[i]));
        return noutput_items;
    }

    try {
        if (d_history_stale) {
            d_gpu->set_history(in);
            d_history_stale = false;
        }
        d_gpu->process(in + history() - 1, noutput_items, out);
    } catch (const std::exception& e) {
        // An exception leaving work() would kill this thread silently and hang the
        // flowgraph; WORK_DONE ends the stream so the flowgraph stops.
        d_logger->error("GPU filtering failed, stopping this flowgraph: {}", e.what());
        return gr::block::WORK_DONE;
    }
    return noutput_items;
}

} // namespace gpufilter
} // namespace gr
