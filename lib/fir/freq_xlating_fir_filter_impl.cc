/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/parameter_checks.h"
#include "fir/freq_xlating_fir_filter_impl.h"
#include "fir/xlating_design.h"
#include <gnuradio/io_signature.h>
#include <algorithm>
#include <cmath>
#include <string>

namespace gr {
namespace gpufilter {


template <class IN_T, class OUT_T, class TAP_T>
typename freq_xlating_fir_filter<IN_T, OUT_T, TAP_T>::sptr
freq_xlating_fir_filter<IN_T, OUT_T, TAP_T>::make(int decimation,
                                                  const std::vector<TAP_T>& taps,
                                                  double center_freq,
                                                  double sampling_freq,
                                                  int device,
                                                  int batch_size,
                                                  double max_latency)
{
    return gnuradio::make_block_sptr<freq_xlating_fir_filter_impl<IN_T, OUT_T, TAP_T>>(
        decimation, taps, center_freq, sampling_freq, device, batch_size, max_latency);
}

template <class IN_T, class OUT_T, class TAP_T>
freq_xlating_fir_filter_impl<IN_T, OUT_T, TAP_T>::freq_xlating_fir_filter_impl(
    int decimation,
    const std::vector<TAP_T>& taps,
    double center_freq,
    double sampling_freq,
    int device,
    int batch_size,
    double max_latency)
    : gr::sync_decimator(std::string("gpu_freq_xlating_fir_filter_") +
                             type_suffix<IN_T, OUT_T, TAP_T>(),
                         gr::io_signature::make(1, 1, sizeof(IN_T)),
                         gr::io_signature::make(1, 1, sizeof(OUT_T)),
                         checked_decimation(decimation)),
      // A complex band-pass FIR whose outputs rotate: one GPU pass, or gr-filter's
      // kernel and the same count-derived rotation on the CPU.
      gpu_block<freq_xlating_fir_filter<IN_T, OUT_T, TAP_T>,
                cuda::fir_controls<gr_complex>>(
          device,
          { 1, static_cast<std::uint64_t>(decimation) },
          checked_batch_size(batch_size),
          max_latency,
          fir_computation<IN_T, gr_complex, gr_complex>(
              std::vector<gr_complex>(checked_taps(taps).size()),
              decimation,
              filter_method::automatic)),
      d_proto_taps(taps),
      d_center_freq(checked_center_freq(center_freq)),
      d_sampling_freq(checked_sampling_freq(sampling_freq))
{
    // Short input goes to the GPU as int16 and is widened there: half the PCIe
    // traffic of converting on the host, and the conversion is free in the FIR's tile
    // load. The filter starts with any taps of the right length;
    // build_composite_fir() then sets the real ones and the rotation, as at every
    // retune.
    this->set_history(d_proto_taps.size());
    build_composite_fir();

    this->message_port_register_in(pmt::mp("freq"));
    this->set_msg_handler(pmt::mp("freq"),
                          [this](const pmt::pmt_t& msg) { handle_set_center_freq(msg); });
}

template <class IN_T, class OUT_T, class TAP_T>
void freq_xlating_fir_filter_impl<IN_T, OUT_T, TAP_T>::build_composite_fir()
{
    const auto ctaps =
        xlating_bandpass_taps(d_proto_taps, d_center_freq, d_sampling_freq);
    // The phase the next output gets, plus gr-filter's retune jump; then the new step.
    cuda::rotation r = this->controls().next_rotation();
    r.start_cycles =
        cuda::wrap_cycles(r.start_cycles + xlating_retune_cycles(d_center_freq,
                                                                 d_prev_center_freq,
                                                                 d_sampling_freq,
                                                                 d_proto_taps.size()));
    r.step_cycles =
        xlating_step_cycles(d_center_freq, d_sampling_freq, this->decimation());
    this->controls().set_taps(ctaps);
    this->controls().set_rotation(r);
    d_prev_center_freq = d_center_freq;
}

template <class IN_T, class OUT_T, class TAP_T>
void freq_xlating_fir_filter_impl<IN_T, OUT_T, TAP_T>::set_center_freq(double center_freq)
{
    checked_center_freq(center_freq);
    gr::thread::scoped_lock lock(this->d_setlock);
    d_center_freq = center_freq;
    d_updated = true;
}

template <class IN_T, class OUT_T, class TAP_T>
double freq_xlating_fir_filter_impl<IN_T, OUT_T, TAP_T>::center_freq() const
{
    return d_center_freq;
}

template <class IN_T, class OUT_T, class TAP_T>
void freq_xlating_fir_filter_impl<IN_T, OUT_T, TAP_T>::set_taps(
    const std::vector<TAP_T>& taps)
{
    checked_taps(taps);
    gr::thread::scoped_lock lock(this->d_setlock);
    d_proto_taps = taps;
    d_updated = true;
}

template <class IN_T, class OUT_T, class TAP_T>
std::vector<TAP_T> freq_xlating_fir_filter_impl<IN_T, OUT_T, TAP_T>::taps() const
{
    return d_proto_taps;
}

template <class IN_T, class OUT_T, class TAP_T>
void freq_xlating_fir_filter_impl<IN_T, OUT_T, TAP_T>::handle_set_center_freq(
    const pmt::pmt_t& msg)
{
    // gr-filter 3.10 accepts a dict with key "freq", or any pair whose cdr is real.
    pmt::pmt_t x = pmt::PMT_NIL;
    if (pmt::is_dict(msg) && pmt::dict_has_key(msg, pmt::intern("freq")))
        x = pmt::dict_ref(msg, pmt::intern("freq"), pmt::PMT_NIL);
    else if (pmt::is_pair(msg))
        x = pmt::cdr(msg);
    if (!pmt::is_real(x))
        return;
    // A message handler must not throw (it would end the block's thread).
    if (!std::isfinite(pmt::to_double(x))) {
        this->d_logger->warn("freq message ignored: center_freq must be finite");
        return;
    }
    set_center_freq(pmt::to_double(x));
}

template <class IN_T, class OUT_T, class TAP_T>
int freq_xlating_fir_filter_impl<IN_T, OUT_T, TAP_T>::work(
    int noutput_items,
    gr_vector_const_void_star& input_items,
    gr_vector_void_star& output_items)
{
    gr::thread::scoped_lock lock(this->d_setlock);
    const int decimation = this->decimation();
    if (d_updated) { // as gr-filter: rebuild, tag, and let the history settle
        this->set_history(d_proto_taps.size());
        if (!this->d_core.guarded(
                [this] { build_composite_fir(); })) // taps reach the GPU
            return gr::block::WORK_DONE;
        d_updated = false;
        this->d_core.history_changed();
        this->add_item_tag(0,
                           this->nitems_written(0),
                           pmt::intern("freq"),
                           pmt::from_double(d_center_freq),
                           this->alias_pmt());
        return 0;
    }

    return this->d_core.process(
        input_items, static_cast<std::size_t>(noutput_items) * decimation, output_items);
}

template class freq_xlating_fir_filter<gr_complex, gr_complex, gr_complex>;
template class freq_xlating_fir_filter<gr_complex, gr_complex, float>;
template class freq_xlating_fir_filter<float, gr_complex, gr_complex>;
template class freq_xlating_fir_filter<float, gr_complex, float>;
template class freq_xlating_fir_filter<std::int16_t, gr_complex, float>;
template class freq_xlating_fir_filter<std::int16_t, gr_complex, gr_complex>;

} // namespace gpufilter
} // namespace gr
