/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_PFB_SYNTHESIZER_CCF_H
#define INCLUDED_GPUFILTER_PFB_SYNTHESIZER_CCF_H

#include <gnuradio/gpufilter/api.h>
#include <gnuradio/gpufilter/device.h>
#include <gnuradio/gpufilter/gpu_options.h>
#include <gnuradio/sync_interpolator.h>
#include <vector>

namespace gr {
namespace gpufilter {

/*!
 * \brief Polyphase synthesis filterbank computed on a GPU: a drop-in for
 * gr::filter::pfb_synthesizer_ccf(numchans, taps, twox). \ingroup gpufilter
 *
 * \details
 * 1 to numchans channel inputs, one output at numchans times their rate: per step,
 * input k goes to bin channel_map()[k] of an unscaled inverse FFT (numchans points,
 * 2*numchans with twox), whose outputs go through the polyphase branch filters, as
 * gr-filter computes it (in 2x mode with its two filter banks and their alternation).
 * The inverse of pfb_channelizer_ccf. Tags move to offset*numchans. With no usable
 * CUDA device (or device = device_cpu) it runs gr-filter's own filters and FFT and
 * logs one warning.
 */
class GPUFILTER_API pfb_synthesizer_ccf : virtual public gr::sync_interpolator,
                                          public gpu_options
{
public:
    typedef std::shared_ptr<pfb_synthesizer_ccf> sptr;

    /*!
     * \param numchans     number of channels, the output rate multiple (>= 1; even
     *                     with twox)
     * \param taps         prototype filter taps (not empty, finite)
     * \param twox         2x oversampled synthesis (a 2*numchans-point FFT)
     * \param device       CUDA device index, device_auto (-1) or device_cpu (-2)
     * \param batch_size   output (wideband) samples per GPU transfer (>= 1): each
     *                     input sends batch_size/numchans, and batch_size() reports
     *                     that per-input count
     * \param max_latency  seconds of input the block may hold before it computes (>= 0,
     *                     default 10 ms): batches shrink to what arrives in that time on
     *                     a live stream; 0 computes whatever has arrived, infinity always
     *                     whole batches
     */
    static sptr make(unsigned int numchans,
                     const std::vector<float>& taps,
                     bool twox = false,
                     int device = device_auto,
                     int batch_size = default_batch_size,
                     double max_latency = default_max_latency);

    //! New prototype taps from the next work() call on; the branch filters restart
    //! from zeros, as gr-filter's.
    virtual void set_taps(const std::vector<float>& taps) = 0;
    //! The branch filters' taps (numchans lists, 2*numchans with twox), as gr-filter's.
    virtual std::vector<std::vector<float>> taps() const = 0;
    //! Input k feeds FFT bin map[k] (each in [0, numchans), [0, 2*numchans) with
    //! twox); an empty map is ignored, as in gr-filter.
    virtual void set_channel_map(const std::vector<int>& map) = 0;
    virtual std::vector<int> channel_map() const = 0;
};

} // namespace gpufilter
} // namespace gr

#endif /* INCLUDED_GPUFILTER_PFB_SYNTHESIZER_CCF_H */
