/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_PFB_CHANNELIZER_CCF_H
#define INCLUDED_GPUFILTER_PFB_CHANNELIZER_CCF_H

#include <gnuradio/gpufilter/api.h>
#include <gnuradio/gpufilter/device.h>
#include <gnuradio/gpufilter/gpu_options.h>
#include <gnuradio/sync_decimator.h>
#include <vector>

namespace gr {
namespace gpufilter {

/*!
 * \brief Polyphase filterbank channelizer computed on a GPU, from one wideband
 * input: a drop-in for `stream_to_streams(numchans) ->
 * gr::filter::pfb_channelizer_ccf(numchans, taps, oversample_rate)`.
 * \ingroup gpufilter
 *
 * \details
 * The output equals gr-filter's pair sample for sample: output port k carries
 * channel channel_map()[k] (by default 0..numchans-1), numchans/oversample_rate
 * input samples per output sample. Connect 1 to numchans outputs; the channel map
 * must have at least as many entries as connected outputs. Tags go to every output
 * at offset/R (R = numchans/oversample_rate), as gr-filter's pair places them when
 * oversample_rate is 1. With no usable CUDA device (or device = device_cpu) it runs
 * gr-filter's own filterbank kernel and FFT, and logs one warning.
 */
class GPUFILTER_API pfb_channelizer_ccf : virtual public gr::sync_decimator,
                                          public gpu_options
{
public:
    typedef std::shared_ptr<pfb_channelizer_ccf> sptr;

    /*!
     * \param numchans         number of channels (>= 1)
     * \param taps             prototype filter taps (not empty)
     * \param oversample_rate  output rate per channel over input rate / numchans;
     *                         numchans/oversample_rate must be an integer in
     *                         [1, numchans]
     * \param device           CUDA device index, device_auto (-1) or device_cpu (-2)
     * \param batch_size       input samples per GPU transfer (>= 1)
     * \param max_latency      seconds of input the block may hold before it computes
     *                         (>= 0, default 10 ms): batches shrink to what arrives in
     *                         that time on a live stream; 0 computes whatever has
     *                         arrived, infinity always whole batches
     */
    static sptr make(unsigned int numchans,
                     const std::vector<float>& taps,
                     float oversample_rate = 1.0f,
                     int device = device_auto,
                     int batch_size = default_batch_size,
                     double max_latency = default_max_latency);

    //! New prototype taps; applied from the next work() call, as in gr-filter.
    virtual void set_taps(const std::vector<float>& taps) = 0;
    //! The prototype taps split over the branch filters, as gr-filter's taps().
    virtual std::vector<std::vector<float>> taps() const = 0;
    //! Output port k carries channel map[k]; an empty map is ignored (gr-filter).
    virtual void set_channel_map(const std::vector<int>& map) = 0;
    virtual std::vector<int> channel_map() const = 0;
};

} // namespace gpufilter
} // namespace gr

#endif /* INCLUDED_GPUFILTER_PFB_CHANNELIZER_CCF_H */
