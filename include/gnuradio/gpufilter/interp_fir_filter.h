/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_INTERP_FIR_FILTER_H
#define INCLUDED_GPUFILTER_INTERP_FIR_FILTER_H

#include <gnuradio/gpufilter/api.h>
#include <gnuradio/gpufilter/device.h>
#include <gnuradio/gpufilter/gpu_options.h>
#include <gnuradio/gr_complex.h>
#include <gnuradio/sync_interpolator.h>
#include <cstdint>
#include <vector>

namespace gr {
namespace gpufilter {

/*!
 * \brief Interpolating FIR filter computed on a GPU, a drop-in for
 * gr::filter::interp_fir_filter_XXX. \ingroup gpufilter
 *
 * \details
 * Same arguments, output, history and tags as gr-filter's block: output i*I + p is
 * sum_j taps[j*I + p] * in[i - j] (I = interpolation; the taps zero-padded to a
 * multiple of I), from zero history: the filter at I times the input rate with only
 * the non-zero inputs multiplied (a polyphase filter). Batching, latency and the CPU
 * fallback are those of every gpufilter block (see fir_filter); batch_size counts
 * output samples.
 */
template <class IN_T, class OUT_T, class TAP_T>
class GPUFILTER_API interp_fir_filter : virtual public gr::sync_interpolator,
                                        public gpu_options
{
public:
    typedef std::shared_ptr<interp_fir_filter<IN_T, OUT_T, TAP_T>> sptr;

    /*!
     * \param interpolation  interpolation factor (>= 1)
     * \param taps           filter taps at the output rate (not empty, finite)
     * \param device         CUDA device index, device_auto (-1) or device_cpu (-2)
     * \param batch_size     output samples per GPU transfer, at most (>= 1)
     * \param max_latency    seconds of input the block may hold before it computes
     */
    static sptr make(unsigned interpolation,
                     const std::vector<TAP_T>& taps,
                     int device = device_auto,
                     int batch_size = default_batch_size,
                     double max_latency = default_max_latency);

    //! New taps; applied from the next work() call, as in gr-filter.
    virtual void set_taps(const std::vector<TAP_T>& taps) = 0;
    //! The taps in use, zero-padded to a multiple of the interpolation as gr-filter's.
    virtual std::vector<TAP_T> taps() const = 0;
};

typedef interp_fir_filter<gr_complex, gr_complex, gr_complex> interp_fir_filter_ccc;
typedef interp_fir_filter<gr_complex, gr_complex, float> interp_fir_filter_ccf;
typedef interp_fir_filter<float, gr_complex, gr_complex> interp_fir_filter_fcc;
typedef interp_fir_filter<float, float, float> interp_fir_filter_fff;
typedef interp_fir_filter<float, std::int16_t, float> interp_fir_filter_fsf;
typedef interp_fir_filter<std::int16_t, gr_complex, gr_complex> interp_fir_filter_scc;

} // namespace gpufilter
} // namespace gr

#endif /* INCLUDED_GPUFILTER_INTERP_FIR_FILTER_H */
