/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "fir/fir_filter_impl.h"
#include <gnuradio/io_signature.h>
#include <cstdint>
#include <string>

namespace gr {
namespace gpufilter {

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

template class fir_filter<float, float, float>;
template class fir_filter<gr_complex, gr_complex, float>;
template class fir_filter<gr_complex, gr_complex, gr_complex>;
template class fir_filter<float, gr_complex, gr_complex>;
template class fir_filter<float, std::int16_t, float>;
template class fir_filter<std::int16_t, gr_complex, gr_complex>;

} // namespace gpufilter
} // namespace gr
