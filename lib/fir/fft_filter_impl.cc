/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "fir/fft_filter_impl.h"
#include <gnuradio/io_signature.h>
#include <string>

namespace gr {
namespace gpufilter {

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

template class fft_filter<gr_complex, gr_complex, gr_complex>;
template class fft_filter<gr_complex, gr_complex, float>;
template class fft_filter<float, float, float>;

} // namespace gpufilter
} // namespace gr
