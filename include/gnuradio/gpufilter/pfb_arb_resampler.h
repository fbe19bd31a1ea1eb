/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_PFB_ARB_RESAMPLER_H
#define INCLUDED_GPUFILTER_PFB_ARB_RESAMPLER_H

#include <gnuradio/block.h>
#include <gnuradio/gpufilter/api.h>
#include <gnuradio/gpufilter/device.h>
#include <gnuradio/gpufilter/gpu_options.h>
#include <gnuradio/gr_complex.h>
#include <vector>

namespace gr {
namespace gpufilter {

/*!
 * \brief Polyphase filterbank arbitrary resampler computed on a GPU: a drop-in for
 * gr::filter::pfb_arb_resampler_ccf (IO_T = gr_complex) and pfb_arb_resampler_fff
 * (IO_T = float). \ingroup gpufilter
 * \details
 * Resamples by any real rate with filter_size arms of the prototype filter and of
 * its derivative, interpolating linearly between arms, exactly as gr-filter's
 * kernel: the same arm, input sample and fraction for every output (gr-filter's float
 * accumulator is reproduced step by step), the same history, forecast, relative rate
 * and tag offsets (offset * rate). A variable-rate block: each work() call consumes
 * and produces what gr-filter's would. With no usable CUDA device (or device =
 * device_cpu) it runs gr-filter's own kernel and logs one warning.
 */
template <class IO_T, class TAP_T = float>
class GPUFILTER_API pfb_arb_resampler : virtual public gr::block, public gpu_options
{
public:
    typedef std::shared_ptr<pfb_arb_resampler<IO_T, TAP_T>> sptr;

    /*!
     * \param rate         resampling rate, output over input, in [2^-24, 2^24]
     * \param taps         prototype filter taps at filter_size times the input rate
     * \param filter_size  number of filter arms (>= 1)
     * \param device       CUDA device index, device_auto (-1) or device_cpu (-2)
     * \param batch_size   samples per GPU transfer (>= 1): input samples at rates up
     *                     to 1, output samples above (a batch's outputs are bounded)
     * \param max_latency  seconds of input the block may hold before it computes (>= 0,
     *                     default 10 ms): batches shrink to what arrives in that time on
     *                     a live stream; 0 computes whatever has arrived, infinity always
     *                     whole batches
     */
    static sptr make(float rate,
                     const std::vector<TAP_T>& taps,
                     unsigned int filter_size = 32,
                     int device = device_auto,
                     int batch_size = default_batch_size,
                     double max_latency = default_max_latency);

    //! New prototype taps; the history changes from the next work() call on.
    virtual void set_taps(const std::vector<TAP_T>& taps) = 0;
    //! The prototype taps split over the filter arms, as gr-filter's taps().
    virtual std::vector<std::vector<TAP_T>> taps() const = 0;
    //! Prints the arms' taps, as gr-filter's print_taps().
    virtual void print_taps() = 0;
    //! The resampling rate from the next output on (in [2^-24, 2^24]).
    virtual void set_rate(float rate) = 0;
    //! The next output's arm from a phase in [0, 2 pi).
    virtual void set_phase(float ph) = 0;
    //! The next output's arm as a phase.
    virtual float phase() const = 0;
    //! filter_size, the number of arms.
    virtual unsigned int interpolation_rate() const = 0;
    //! floor(filter_size / rate), the stride through the arms.
    virtual unsigned int decimation_rate() const = 0;
    //! filter_size / rate - decimation_rate().
    virtual float fractional_rate() const = 0;
    //! Taps per arm, ceil(ntaps / filter_size).
    virtual unsigned int taps_per_filter() const = 0;
    //! The filter's group delay in output samples (from the construction's rate
    //! and taps, as gr-filter).
    virtual int group_delay() const = 0;
    //! gr-filter's estimate of the phase a sine of frequency freq (sample rate fs)
    //! picks up through the resampler.
    virtual float phase_offset(float freq, float fs) = 0;
};

typedef pfb_arb_resampler<gr_complex> pfb_arb_resampler_ccf;
typedef pfb_arb_resampler<float> pfb_arb_resampler_fff;
//! Complex taps: computed as two resamplers of the taps' real and imaginary parts.
typedef pfb_arb_resampler<gr_complex, gr_complex> pfb_arb_resampler_ccc;

} // namespace gpufilter
} // namespace gr

#endif /* INCLUDED_GPUFILTER_PFB_ARB_RESAMPLER_H */
