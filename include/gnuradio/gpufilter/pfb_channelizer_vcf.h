/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_PFB_CHANNELIZER_VCF_H
#define INCLUDED_GPUFILTER_PFB_CHANNELIZER_VCF_H

#include <gnuradio/gpufilter/api.h>
#include <gnuradio/gpufilter/device.h>
#include <gnuradio/gpufilter/gpu_options.h>
#include <gnuradio/sync_decimator.h>
#include <string>
#include <vector>

namespace gr {
namespace gpufilter {

/*!
 * \brief Polyphase filterbank channelizer computed on a GPU with one vector output:
 * for large channel counts. \ingroup gpufilter
 *
 * \details
 * The same channels as pfb_channelizer_ccf (and gr-filter's
 * `stream_to_streams -> pfb_channelizer_ccf`), handed out as one stream of
 * numchans-sample vectors: output item s holds channel 0 .. numchans-1 of step s.
 * The input is complex float, or interleaved 8/16-bit IQ as SDR front ends deliver
 * it (one input item is one IQ pair), converted on the GPU:
 *   "complex" gr_complex, "int8" v/128, "uint8" (v - 127.5)/127.5 (rtl_sdr's offset
 *   binary), "int16" v/32768.
 * With no usable CUDA device (or device = device_cpu) it converts the same way and
 * runs gr-filter's own filterbank kernel and FFT, and logs one warning.
 */
class GPUFILTER_API pfb_channelizer_vcf : virtual public gr::sync_decimator,
                                          public gpu_options
{
public:
    typedef std::shared_ptr<pfb_channelizer_vcf> sptr;

    /*!
     * \param numchans         number of channels (>= 1)
     * \param taps             prototype filter taps (not empty)
     * \param oversample_rate  as pfb_channelizer_ccf
     * \param input_format     "complex", "int8", "uint8" or "int16"
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
                     const std::string& input_format = "complex",
                     int device = device_auto,
                     int batch_size = default_batch_size,
                     double max_latency = default_max_latency);

    //! New prototype taps; applied from the next work() call, as in gr-filter.
    virtual void set_taps(const std::vector<float>& taps) = 0;
    //! The prototype taps split over the branch filters, as gr-filter's taps().
    virtual std::vector<std::vector<float>> taps() const = 0;
    //! The input format given to make().
    virtual std::string input_format() const = 0;
};

} // namespace gpufilter
} // namespace gr

#endif /* INCLUDED_GPUFILTER_PFB_CHANNELIZER_VCF_H */
