/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_QUADRATURE_DEMOD_CF_H
#define INCLUDED_GPUFILTER_QUADRATURE_DEMOD_CF_H

#include <gnuradio/gpufilter/api.h>
#include <gnuradio/gpufilter/device.h>
#include <gnuradio/gpufilter/gpu_options.h>
#include <gnuradio/sync_block.h>

namespace gr {
namespace gpufilter {

/*!
 * \brief Quadrature (FM) demodulator computed on a GPU, a drop-in for
 * gr::analog::quadrature_demod_cf.
 * \ingroup gpufilter
 *
 * \details
 * Same argument, output, history (2) and tags as gr-analog's block:
 * out[i] = gain * arg(in[i] * conj(in[i-1])), with the arctangent of gr::fast_atan2f
 * (a table with linear interpolation, within 1.6e-6 rad of atan2), step by step as
 * gr-analog computes it. The GPU's outputs equal gr-analog's, or differ from them by
 * about 1e-7 rad times the gain where volk rounds the conjugate product otherwise
 * (volk picks its kernel by processor; on an x86-64 host with AVX2/FMA, 99.995 % of
 * the test outputs were equal, all within 5e-7 rad times the gain). With no usable CUDA
 * device (or device = device_cpu) it runs gr-analog's own arithmetic (volk and
 * gr::fast_atan2f).
 */
class GPUFILTER_API quadrature_demod_cf : virtual public gr::sync_block,
                                          public gpu_options
{
public:
    typedef std::shared_ptr<quadrature_demod_cf> sptr;

    /*!
     * \param gain         output per radian of phase step (finite)
     * \param device       CUDA device index, device_auto (-1) or device_cpu (-2)
     * \param batch_size   input samples per GPU transfer (>= 1)
     * \param max_latency  seconds of input the block may hold before it computes (>= 0,
     *                     default 10 ms): batches shrink to what arrives in that time on
     *                     a live stream; 0 computes whatever has arrived, infinity always
     *                     whole batches
     */
    static sptr make(float gain,
                     int device = device_auto,
                     int batch_size = default_batch_size,
                     double max_latency = default_max_latency);

    //! The gain from the next work() call on (finite).
    virtual void set_gain(float gain) = 0;
    virtual float gain() const = 0;
};

} // namespace gpufilter
} // namespace gr

#endif /* INCLUDED_GPUFILTER_QUADRATURE_DEMOD_CF_H */
