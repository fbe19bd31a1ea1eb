/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_RATIONAL_RESAMPLER_H
#define INCLUDED_GPUFILTER_RATIONAL_RESAMPLER_H

#include <gnuradio/block.h>
#include <gnuradio/gpufilter/api.h>
#include <gnuradio/gpufilter/device.h>
#include <gnuradio/gpufilter/gpu_options.h>
#include <gnuradio/gr_complex.h>
#include <cstdint>
#include <vector>

namespace gr {
namespace gpufilter {

/*!
 * \brief Rational resampler computed on a GPU, a drop-in for
 * gr::filter::rational_resampler_XXX. \ingroup gpufilter
 *
 * \details
 * Same arguments, default taps, output, phase and tags as gr-filter's block: output
 * k is sum_j taps[j*I + p] * in[n - j] with n = floor(k*D/I), p = (k*D) mod I
 * (I = interpolation, D = decimation), from zero history. A polyphase filter computes
 * only the outputs kept. With no taps, taps are designed as gr-filter designs them
 * (a Kaiser low-pass, beta 7, for fractional_bw, default 0.4), after I and D are
 * divided by their greatest common divisor. Batching, latency and the CPU fallback
 * are those of every gpufilter block (see fir_filter).
 */
template <class IN_T, class OUT_T, class TAP_T>
class GPUFILTER_API rational_resampler : virtual public gr::block, public gpu_options
{
public:
    typedef std::shared_ptr<rational_resampler<IN_T, OUT_T, TAP_T>> sptr;

    /*!
     * \param interpolation  interpolation factor I (>= 1)
     * \param decimation     decimation factor D (>= 1)
     * \param taps           prototype filter taps at I times the input rate; empty:
     *                       designed from fractional_bw, as gr-filter does
     * \param fractional_bw  passband of the designed taps as a fraction of the lower of
     *                       the two rates, in (0, 0.5); 0 (default): 0.4
     * \param device         CUDA device index, device_auto (-1) or device_cpu (-2)
     * \param batch_size     input samples per GPU transfer, at most (>= 1)
     * \param max_latency    seconds of input the block may hold before it computes
     */
    static sptr make(unsigned interpolation,
                     unsigned decimation,
                     const std::vector<TAP_T>& taps = std::vector<TAP_T>(),
                     float fractional_bw = 0.0f,
                     int device = device_auto,
                     int batch_size = default_batch_size,
                     double max_latency = default_max_latency);

    virtual unsigned interpolation() const = 0;
    virtual unsigned decimation() const = 0;
    //! New taps; applied from the next work() call, as in gr-filter.
    virtual void set_taps(const std::vector<TAP_T>& taps) = 0;
    //! The taps in use, zero-padded to a multiple of interpolation() as gr-filter's.
    virtual std::vector<TAP_T> taps() const = 0;
};

typedef rational_resampler<gr_complex, gr_complex, gr_complex> rational_resampler_ccc;
typedef rational_resampler<gr_complex, gr_complex, float> rational_resampler_ccf;
typedef rational_resampler<float, gr_complex, gr_complex> rational_resampler_fcc;
typedef rational_resampler<float, float, float> rational_resampler_fff;
typedef rational_resampler<float, std::int16_t, float> rational_resampler_fsf;
typedef rational_resampler<std::int16_t, gr_complex, gr_complex> rational_resampler_scc;

/*!
 * \brief Many float streams resampled at once: items are vectors of vlen floats, and
 * lane l of the output is lane l of the input through rational_resampler_fff with the
 * same arguments. One block and one GPU pass for a bank of channels (the whole-band
 * FM receiver's stations), where vlen scalar blocks would each take a thread and a
 * transfer. \ingroup gpufilter
 */
class GPUFILTER_API rational_resampler_vff : virtual public gr::block, public gpu_options
{
public:
    typedef std::shared_ptr<rational_resampler_vff> sptr;

    //! \param vlen  floats an item (>= 1); the rest as rational_resampler_fff's, with
    //!              batch_size in items
    static sptr make(unsigned vlen,
                     unsigned interpolation,
                     unsigned decimation,
                     const std::vector<float>& taps = std::vector<float>(),
                     float fractional_bw = 0.0f,
                     int device = device_auto,
                     int batch_size = default_batch_size,
                     double max_latency = default_max_latency);

    virtual unsigned vlen() const = 0;
    virtual unsigned interpolation() const = 0;
    virtual unsigned decimation() const = 0;
    virtual void set_taps(const std::vector<float>& taps) = 0;
    virtual std::vector<float> taps() const = 0;
};

} // namespace gpufilter
} // namespace gr

#endif /* INCLUDED_GPUFILTER_RATIONAL_RESAMPLER_H */
