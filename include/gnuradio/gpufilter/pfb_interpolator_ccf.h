/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_PFB_INTERPOLATOR_CCF_H
#define INCLUDED_GPUFILTER_PFB_INTERPOLATOR_CCF_H

#include <gnuradio/gpufilter/api.h>
#include <gnuradio/gpufilter/device.h>
#include <gnuradio/gpufilter/gpu_options.h>
#include <gnuradio/sync_interpolator.h>
#include <vector>

namespace gr {
namespace gpufilter {

/*!
 * \brief Polyphase interpolator computed on a GPU: a drop-in for
 * gr::filter::pfb_interpolator_ccf(interp, taps). \ingroup gpufilter
 *
 * \details
 * interp outputs per input: output i*interp + j is branch filter j (taps
 * h[j + k*interp]) over the inputs up to i, as gr-filter computes it. Tags move to
 * offset*interp. With no usable CUDA device (or device = device_cpu) it runs
 * gr-filter's own filterbank kernel and logs one warning.
 */
class GPUFILTER_API pfb_interpolator_ccf : virtual public gr::sync_interpolator,
                                           public gpu_options
{
public:
    typedef std::shared_ptr<pfb_interpolator_ccf> sptr;

    /*!
     * \param interp       interpolation, the number of filterbank branches (>= 1)
     * \param taps         prototype filter taps (not empty, finite)
     * \param device       CUDA device index, device_auto (-1) or device_cpu (-2)
     * \param batch_size   output samples per GPU transfer (>= 1): the input sends
     *                     batch_size/interp, and batch_size() reports that count
     * \param max_latency  seconds of input the block may hold before it computes (>= 0,
     *                     default 10 ms): batches shrink to what arrives in that time on
     *                     a live stream; 0 computes whatever has arrived, infinity always
     *                     whole batches
     */
    static sptr make(unsigned int interp,
                     const std::vector<float>& taps,
                     int device = device_auto,
                     int batch_size = default_batch_size,
                     double max_latency = default_max_latency);

    //! New prototype taps; applied from the next work() call, as in gr-filter.
    virtual void set_taps(const std::vector<float>& taps) = 0;
    //! The prototype taps split over the branch filters, as gr-filter's taps().
    virtual std::vector<std::vector<float>> taps() const = 0;
};

} // namespace gpufilter
} // namespace gr

#endif /* INCLUDED_GPUFILTER_PFB_INTERPOLATOR_CCF_H */
