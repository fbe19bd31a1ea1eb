/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_FM_DEMOD_BANK_VCF_H
#define INCLUDED_GPUFILTER_FM_DEMOD_BANK_VCF_H

#include <gnuradio/gpufilter/api.h>
#include <gnuradio/gpufilter/device.h>
#include <gnuradio/gpufilter/gpu_options.h>
#include <gnuradio/sync_decimator.h>
#include <vector>

namespace gr {
namespace gpufilter {

/*!
 * \brief FM demodulation of many channels at once, after a channelizer's vector
 * output; computed on a GPU. \ingroup gpufilter
 *
 * \details
 * Input: items of `nchan` complex samples (pfb_channelizer_vcf's output). For each
 * entry of `channels` (an index into the item), the same as this chain of GNU Radio
 * blocks per channel:
 *   quadrature_demod_cf(channel_rate / (2 pi deviation))
 *   -> fir_filter_fff(decimation, taps) -> fm_deemph(channel_rate / decimation, tau)
 * Output: items of channels.size() floats (1.0 = full deviation), one per
 * `decimation` input items. tau = 0: no de-emphasis. With no usable CUDA device (or
 * device = device_cpu) it computes the same chain on the CPU, and logs one warning.
 */
class GPUFILTER_API fm_demod_bank_vcf : virtual public gr::sync_decimator,
                                        public gpu_options
{
public:
    typedef std::shared_ptr<fm_demod_bank_vcf> sptr;

    /*!
     * \param nchan         samples per input item (>= 1)
     * \param channels      the channels to demodulate (each < nchan, at least one)
     * \param decimation    the audio filter's decimation (>= 1)
     * \param taps          the audio filter's taps (not empty, finite)
     * \param channel_rate  the channels' sample rate, S/s (> 0)
     * \param deviation     full-scale frequency deviation, Hz (> 0)
     * \param tau           de-emphasis time constant, s (>= 0; 0: none)
     * \param device        CUDA device index, device_auto (-1) or device_cpu (-2)
     * \param batch_size    input vectors (items of nchan samples) per GPU transfer,
     *                      >= 1; 0 (the default): those of default_batch_size
     *                      samples, max(1, default_batch_size / nchan), so that a
     *                      batch and GNU Radio's buffers around the block stay a few
     *                      MB whatever nchan
     * \param max_latency   seconds of input the block may hold before it computes (>= 0,
     *                      default 10 ms): batches shrink to what arrives in that time on
     *                      a live stream; 0 computes whatever has arrived, infinity
     *                      always whole batches
     */
    static sptr make(unsigned int nchan,
                     const std::vector<unsigned int>& channels,
                     unsigned int decimation,
                     const std::vector<float>& taps,
                     double channel_rate,
                     double deviation = 75e3,
                     double tau = 75e-6,
                     int device = device_auto,
                     int batch_size = 0,
                     double max_latency = default_max_latency);

    virtual unsigned int nchan() const = 0;
    virtual std::vector<unsigned int> channels() const = 0;
    virtual std::vector<float> taps() const = 0;
};

} // namespace gpufilter
} // namespace gr

#endif /* INCLUDED_GPUFILTER_FM_DEMOD_BANK_VCF_H */
