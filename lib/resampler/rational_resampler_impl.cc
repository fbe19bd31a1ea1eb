/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/parameter_checks.h"
#include "resampler/rational_resampler_impl.h"
#include <gnuradio/io_signature.h>
#include <cstdint>
#include <string>

namespace gr {
namespace gpufilter {

template <class IN_T, class OUT_T, class TAP_T>
typename rational_resampler<IN_T, OUT_T, TAP_T>::sptr
rational_resampler<IN_T, OUT_T, TAP_T>::make(unsigned interpolation,
                                             unsigned decimation,
                                             const std::vector<TAP_T>& taps,
                                             float fractional_bw,
                                             int device,
                                             int batch_size,
                                             double max_latency)
{
    return gnuradio::make_block_sptr<rational_resampler_impl<IN_T, OUT_T, TAP_T>>(
        interpolation, decimation, taps, fractional_bw, device, batch_size, max_latency);
}

template <class IN_T, class OUT_T, class TAP_T>
rational_resampler_impl<IN_T, OUT_T, TAP_T>::rational_resampler_impl(
    unsigned interpolation,
    unsigned decimation,
    const std::vector<TAP_T>& taps,
    float fractional_bw,
    int device,
    int batch_size,
    double max_latency)
    : gr::block(std::string("gpu_rational_resampler_") +
                    type_suffix<IN_T, OUT_T, TAP_T>(),
                gr::io_signature::make(1, 1, sizeof(IN_T)),
                gr::io_signature::make(1, 1, sizeof(OUT_T))),
      rational_block_impl<rational_resampler<IN_T, OUT_T, TAP_T>, IN_T, OUT_T, TAP_T>(
          design_rational(interpolation, decimation, taps, fractional_bw),
          1,
          device,
          batch_size,
          max_latency)
{
}

rational_resampler_vff::sptr rational_resampler_vff::make(unsigned vlen,
                                                          unsigned interpolation,
                                                          unsigned decimation,
                                                          const std::vector<float>& taps,
                                                          float fractional_bw,
                                                          int device,
                                                          int batch_size,
                                                          double max_latency)
{
    checked_count("vlen", vlen); // before GNU Radio's io_signature sees it
    return gnuradio::make_block_sptr<rational_resampler_vff_impl>(vlen,
                                                                  interpolation,
                                                                  decimation,
                                                                  taps,
                                                                  fractional_bw,
                                                                  device,
                                                                  batch_size,
                                                                  max_latency);
}

rational_resampler_vff_impl::rational_resampler_vff_impl(unsigned vlen,
                                                         unsigned interpolation,
                                                         unsigned decimation,
                                                         const std::vector<float>& taps,
                                                         float fractional_bw,
                                                         int device,
                                                         int batch_size,
                                                         double max_latency)
    : gr::block("gpu_rational_resampler_vff",
                gr::io_signature::make(1, 1, sizeof(float) * vlen),
                gr::io_signature::make(1, 1, sizeof(float) * vlen)),
      rational_block_impl<rational_resampler_vff, float, float, float>(
          design_rational(interpolation, decimation, taps, fractional_bw),
          vlen,
          device,
          batch_size,
          max_latency),
      d_vlen(vlen)
{
}

template class rational_resampler<gr_complex, gr_complex, gr_complex>;
template class rational_resampler<gr_complex, gr_complex, float>;
template class rational_resampler<float, gr_complex, gr_complex>;
template class rational_resampler<float, float, float>;
template class rational_resampler<float, std::int16_t, float>;
template class rational_resampler<std::int16_t, gr_complex, gr_complex>;

} // namespace gpufilter
} // namespace gr
