/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_FREQ_XLATING_FIR_FILTER_H
#define INCLUDED_GPUFILTER_FREQ_XLATING_FIR_FILTER_H

#include <gnuradio/gpufilter/api.h>
#include <gnuradio/gpufilter/device.h>
#include <gnuradio/gpufilter/gpu_options.h>
#include <gnuradio/gr_complex.h>
#include <gnuradio/sync_decimator.h>
#include <cstdint>
#include <vector>

namespace gr {
namespace gpufilter {

/*!
 * \brief Frequency-translating decimating FIR filter computed on a GPU, a drop-in for
 * gr::filter::freq_xlating_fir_filter_XXX.
 * \ingroup gpufilter
 *
 * \details
 * Shifts \p center_freq down to 0 Hz, low-pass filters with \p taps and keeps every
 * decimation-th output, with gr-filter's arguments and conventions: the band-pass
 * taps taps[i]*exp(j*i*w) (w = 2*pi*center_freq/sampling_freq) filter the input and
 * the kept output k is rotated by exp(-j*w*decimation*k), starting from phase
 * -w*(ntaps-1)/2; a retune adds -(w_new - w_old)*(ntaps-1)/2 to the phase, so that a
 * symmetric filter's output stays phase-continuous. On the GPU the mixing, filtering
 * and decimation are one kernel pass that computes only the kept outputs, and the
 * rotation's phase is derived in double precision from a 64-bit output count: it
 * never drifts (gr-filter's float rotator drifts by its rounding error per sample).
 *
 * Message port "freq": a dict with key "freq", or a pair whose cdr is a real number,
 * retunes the block, as in gr-filter. Every retune and every set_taps() writes a tag
 * "freq" (double, the centre frequency) on the first output it applies to.
 *
 * Samples travel to the GPU in batches of up to \p batch_size input samples, fewer
 * on a slow live stream so that no input waits longer than \p max_latency (see
 * fir_filter). With no usable CUDA device (or device = device_cpu) the block filters
 * with gr-filter's CPU kernel and rotates with the same double-precision phase.
 */
template <class IN_T, class OUT_T, class TAP_T>
class GPUFILTER_API freq_xlating_fir_filter : virtual public gr::sync_decimator,
                                              public gpu_options
{
public:
    typedef std::shared_ptr<freq_xlating_fir_filter<IN_T, OUT_T, TAP_T>> sptr;

    /*!
     * \param decimation     keep every decimation-th output (>= 1)
     * \param taps           low-pass prototype taps (not empty, finite)
     * \param center_freq    frequency shifted down to 0 Hz (Hz)
     * \param sampling_freq  input sample rate (Hz, > 0)
     * \param device         CUDA device index, device_auto (-1) or device_cpu (-2)
     * \param batch_size     input samples per GPU transfer (>= 1)
     * \param max_latency    seconds of input the block may hold before it computes (>= 0,
     *                       default 10 ms): batches shrink to what arrives in that time
     *                       on a live stream; 0 computes whatever has arrived, infinity
     *                       always whole batches
     */
    static sptr make(int decimation,
                     const std::vector<TAP_T>& taps,
                     double center_freq,
                     double sampling_freq,
                     int device = device_auto,
                     int batch_size = default_batch_size,
                     double max_latency = default_max_latency);

    //! New centre frequency; applied from the next work() call, with a "freq" tag.
    virtual void set_center_freq(double center_freq) = 0;
    virtual double center_freq() const = 0;

    //! New prototype taps; applied from the next work() call, with a "freq" tag.
    virtual void set_taps(const std::vector<TAP_T>& taps) = 0;
    virtual std::vector<TAP_T> taps() const = 0;
};

typedef freq_xlating_fir_filter<gr_complex, gr_complex, gr_complex>
    freq_xlating_fir_filter_ccc;
typedef freq_xlating_fir_filter<gr_complex, gr_complex, float>
    freq_xlating_fir_filter_ccf;
typedef freq_xlating_fir_filter<float, gr_complex, gr_complex>
    freq_xlating_fir_filter_fcc;
typedef freq_xlating_fir_filter<float, gr_complex, float> freq_xlating_fir_filter_fcf;
typedef freq_xlating_fir_filter<std::int16_t, gr_complex, float>
    freq_xlating_fir_filter_scf;
typedef freq_xlating_fir_filter<std::int16_t, gr_complex, gr_complex>
    freq_xlating_fir_filter_scc;

} // namespace gpufilter
} // namespace gr

#endif /* INCLUDED_GPUFILTER_FREQ_XLATING_FIR_FILTER_H */
