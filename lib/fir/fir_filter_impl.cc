/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/parameter_checks.h"
#include "fir/fir_filter_impl.h"
#include <gnuradio/io_signature.h>
#include <string>

namespace gr {
namespace gpufilter {

template <class Public, class IN_T, class OUT_T, class TAP_T>
fir_block_impl<Public, IN_T, OUT_T, TAP_T>::fir_block_impl(int decimation,
                                                           const std::vector<TAP_T>& taps,
                                                           int device,
                                                           int batch_size,
                                                           filter_method method,
                                                           double max_latency)
    : gpu_block<Public>(device,
                        { 1, static_cast<std::uint64_t>(decimation) },
                        checked_batch_size(batch_size),
                        max_latency,
                        backend::make(checked_taps(taps), decimation, method)),
      d_taps(taps)
{
    this->set_history(taps.size());
}

template <class Public, class IN_T, class OUT_T, class TAP_T>
void fir_block_impl<Public, IN_T, OUT_T, TAP_T>::set_taps(const std::vector<TAP_T>& taps)
{
    checked_taps(taps);
    gr::thread::scoped_lock lock(this->d_setlock);
    // As gr-filter: the filter changes now, the history on the next work() call.
    d_taps = taps;
    backend::set_taps(this->d_core, taps);
    d_updated = true;
}

template <class Public, class IN_T, class OUT_T, class TAP_T>
std::vector<TAP_T> fir_block_impl<Public, IN_T, OUT_T, TAP_T>::taps() const
{
    return d_taps;
}

template <class Public, class IN_T, class OUT_T, class TAP_T>
int fir_block_impl<Public, IN_T, OUT_T, TAP_T>::work(
    int noutput_items,
    gr_vector_const_void_star& input_items,
    gr_vector_void_star& output_items)
{
    gr::thread::scoped_lock lock(this->d_setlock);
    if (d_updated) {
        this->set_history(d_taps.size());
        d_updated = false;
        this->d_core.history_changed();
        return 0; // the history requirement changed: let the scheduler re-window
    }
    return this->d_core.process(input_items,
                                static_cast<std::size_t>(noutput_items) *
                                    this->decimation(),
                                output_items);
}

template <class IN_T, class OUT_T, class TAP_T>
typename fir_filter<IN_T, OUT_T, TAP_T>::sptr
fir_filter<IN_T, OUT_T, TAP_T>::make(int decimation,
                                     const std::vector<TAP_T>& taps,
                                     int device,
                                     int batch_size,
                                     filter_method method,
                                     double max_latency)
{
    return gnuradio::make_block_sptr<fir_filter_impl<IN_T, OUT_T, TAP_T>>(
        decimation, taps, device, batch_size, method, max_latency);
}

template <class IN_T, class OUT_T, class TAP_T>
fir_filter_impl<IN_T, OUT_T, TAP_T>::fir_filter_impl(int decimation,
                                                     const std::vector<TAP_T>& taps,
                                                     int device,
                                                     int batch_size,
                                                     filter_method method,
                                                     double max_latency)
    : gr::sync_decimator(std::string("gpu_fir_filter_") +
                             type_suffix<IN_T, OUT_T, TAP_T>(),
                         gr::io_signature::make(1, 1, sizeof(IN_T)),
                         gr::io_signature::make(1, 1, sizeof(OUT_T)),
                         checked_decimation(decimation)),
      fir_block_impl<fir_filter<IN_T, OUT_T, TAP_T>, IN_T, OUT_T, TAP_T>(
          decimation, taps, device, batch_size, method, max_latency)
{
}

template <class IN_T, class OUT_T, class TAP_T>
typename fft_filter<IN_T, OUT_T, TAP_T>::sptr
fft_filter<IN_T, OUT_T, TAP_T>::make(int decimation,
                                     const std::vector<TAP_T>& taps,
                                     int nthreads,
                                     int device,
                                     int batch_size,
                                     filter_method method,
                                     double max_latency)
{
    return gnuradio::make_block_sptr<fft_filter_impl<IN_T, OUT_T, TAP_T>>(
        decimation, taps, nthreads, device, batch_size, method, max_latency);
}

template <class IN_T, class OUT_T, class TAP_T>
fft_filter_impl<IN_T, OUT_T, TAP_T>::fft_filter_impl(int decimation,
                                                     const std::vector<TAP_T>& taps,
                                                     int nthreads,
                                                     int device,
                                                     int batch_size,
                                                     filter_method method,
                                                     double max_latency)
    : gr::sync_decimator(std::string("gpu_fft_filter_") +
                             type_suffix<IN_T, OUT_T, TAP_T>(),
                         gr::io_signature::make(1, 1, sizeof(IN_T)),
                         gr::io_signature::make(1, 1, sizeof(OUT_T)),
                         checked_decimation(decimation)),
      fir_block_impl<fft_filter<IN_T, OUT_T, TAP_T>, IN_T, OUT_T, TAP_T>(
          decimation, taps, device, batch_size, method, max_latency),
      d_nthreads(checked_nthreads(nthreads))
{
}

template <class IN_T, class OUT_T, class TAP_T>
void fft_filter_impl<IN_T, OUT_T, TAP_T>::set_nthreads(int n)
{
    d_nthreads = checked_nthreads(n);
}

template class fir_filter<float, float, float>;
template class fir_filter<gr_complex, gr_complex, float>;
template class fir_filter<gr_complex, gr_complex, gr_complex>;
template class fir_filter<float, gr_complex, gr_complex>;
template class fft_filter<gr_complex, gr_complex, gr_complex>;
template class fft_filter<gr_complex, gr_complex, float>;
template class fft_filter<float, float, float>;

} // namespace gpufilter
} // namespace gr
