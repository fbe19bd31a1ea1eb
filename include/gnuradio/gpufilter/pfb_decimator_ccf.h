/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_PFB_DECIMATOR_CCF_H
#define INCLUDED_GPUFILTER_PFB_DECIMATOR_CCF_H

#include <gnuradio/gpufilter/api.h>
#include <gnuradio/gpufilter/device.h>
#include <gnuradio/gpufilter/gpu_options.h>
#include <gnuradio/sync_decimator.h>
#include <vector>

namespace gr {
namespace gpufilter {

/*!
 * \brief Polyphase filterbank decimator computed on a GPU, from one wideband input:
 * a drop-in for `stream_to_streams(decim) -> gr::filter::pfb_decimator_ccf(decim,
 * taps, channel, use_fft_rotator, use_fft_filters)`. \ingroup gpufilter
 *
 * \details
 * One output sample per decim input samples: channel \p channel of the filterbank,
 * as gr-filter computes it for each setting of the two flags (use_fft_rotator: the
 * channel's bin of an inverse FFT, or gr-filter's rotate-and-add table). The branch
 * filters are direct-form on the GPU and on the CPU; use_fft_filters gives the
 * output length of gr-filter's FFT filters (whole blocks of their FFT size). Tags
 * move to offset/decim. With no usable CUDA device (or device = device_cpu) it runs
 * gr-filter's own filterbank kernel and FFT, and logs one warning.
 */
class GPUFILTER_API pfb_decimator_ccf : virtual public gr::sync_decimator,
                                        public gpu_options
{
public:
    typedef std::shared_ptr<pfb_decimator_ccf> sptr;

    /*!
     * \param decim            decimation, the number of filterbank branches (>= 1)
     * \param taps             prototype filter taps (not empty)
     * \param channel          the channel to output, < decim
     * \param use_fft_rotator  rotate by an inverse FFT (else a table of rotations)
     * \param use_fft_filters  gr-filter's FFT branch filters' output length
     * \param device           CUDA device index, device_auto (-1) or device_cpu (-2)
     * \param batch_size       input samples per GPU transfer (>= 1)
     * \param max_latency      seconds of input the block may hold before it computes
     *                         (>= 0, default 10 ms): batches shrink to what arrives in
     *                         that time on a live stream; 0 computes whatever has
     *                         arrived, infinity always whole batches
     */
    static sptr make(unsigned int decim,
                     const std::vector<float>& taps,
                     unsigned int channel,
                     bool use_fft_rotator = true,
                     bool use_fft_filters = true,
                     int device = device_auto,
                     int batch_size = default_batch_size,
                     double max_latency = default_max_latency);

    //! New prototype taps; applied from the next work() call, as in gr-filter.
    virtual void set_taps(const std::vector<float>& taps) = 0;
    //! The prototype taps split over the branch filters, as gr-filter's taps().
    virtual std::vector<std::vector<float>> taps() const = 0;
    //! The channel from the next work() call on (< decim).
    virtual void set_channel(unsigned int channel) = 0;
    virtual unsigned int channel() const = 0;
};

} // namespace gpufilter
} // namespace gr

#endif /* INCLUDED_GPUFILTER_PFB_DECIMATOR_CCF_H */
