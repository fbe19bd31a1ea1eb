/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/parameter_checks.h"
#include "resampler/interp_fir_filter_impl.h"
#include <gnuradio/io_signature.h>
#include <algorithm>
#include <cstdint>
#include <string>

namespace gr {
namespace gpufilter {

template <class IN_T, class OUT_T, class TAP_T>
typename interp_fir_filter<IN_T, OUT_T, TAP_T>::sptr
interp_fir_filter<IN_T, OUT_T, TAP_T>::make(unsigned interpolation,
                                            const std::vector<TAP_T>& taps,
                                            int device,
                                            int batch_size,
                                            double max_latency)
{
    return gnuradio::make_block_sptr<interp_fir_filter_impl<IN_T, OUT_T, TAP_T>>(
        interpolation, taps, device, batch_size, max_latency);
}

template <class IN_T, class OUT_T, class TAP_T>
interp_fir_filter_impl<IN_T, OUT_T, TAP_T>::interp_fir_filter_impl(
    unsigned interpolation,
    const std::vector<TAP_T>& taps,
    int device,
    int batch_size,
    double max_latency)
    : gr::sync_interpolator(std::string("gpu_interp_fir_filter_") +
                                type_suffix<IN_T, OUT_T, TAP_T>(),
                            gr::io_signature::make(1, 1, sizeof(IN_T)),
                            gr::io_signature::make(1, 1, sizeof(OUT_T)),
                            checked_count("interpolation", interpolation)),
      gpu_block<interp_fir_filter<IN_T, OUT_T, TAP_T>, cuda::rational_controls<TAP_T>>(
          device,
          { interpolation, 1 },
          // batch_size counts outputs: a large interpolation does not multiply memory
          std::max(1, checked_batch_size(batch_size) / static_cast<int>(interpolation)),
          max_latency,
          rational_computation<IN_T, OUT_T, TAP_T>(
              interpolation, 1, checked_taps(taps), cuda::rational_start::zero_history)),
      d_interpolation(interpolation),
      d_taps(cuda::padded_to_arms(taps, interpolation))
{
    this->set_history(d_taps.size() / interpolation); // gr-filter's history: T
    // Whole inputs per work() call (the output_multiple sync_interpolator sets), also
    // while batching.
    this->d_core.set_output_multiple(static_cast<int>(interpolation));
}

template <class IN_T, class OUT_T, class TAP_T>
void interp_fir_filter_impl<IN_T, OUT_T, TAP_T>::set_taps(const std::vector<TAP_T>& taps)
{
    checked_taps(taps);
    gr::thread::scoped_lock lock(this->d_setlock);
    d_taps = cuda::padded_to_arms(taps, d_interpolation);
    this->controls().set_taps(d_taps);
    d_updated = true;
}

template <class IN_T, class OUT_T, class TAP_T>
int interp_fir_filter_impl<IN_T, OUT_T, TAP_T>::work(
    int noutput_items,
    gr_vector_const_void_star& input_items,
    gr_vector_void_star& output_items)
{
    gr::thread::scoped_lock lock(this->d_setlock);
    if (d_updated) {
        this->set_history(d_taps.size() / d_interpolation);
        d_updated = false;
        this->d_core.history_changed();
        return 0; // the history requirement changed: let the scheduler re-window
    }
    return this->d_core.process(input_items,
                                static_cast<std::size_t>(noutput_items) / d_interpolation,
                                output_items);
}

template class interp_fir_filter<gr_complex, gr_complex, gr_complex>;
template class interp_fir_filter<gr_complex, gr_complex, float>;
template class interp_fir_filter<float, gr_complex, gr_complex>;
template class interp_fir_filter<float, float, float>;
template class interp_fir_filter<float, std::int16_t, float>;
template class interp_fir_filter<std::int16_t, gr_complex, gr_complex>;

} // namespace gpufilter
} // namespace gr
