/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_FFT_FILTER_H
#define INCLUDED_GPUFILTER_FFT_FILTER_H

#include <gnuradio/gpufilter/api.h>
#include <gnuradio/gpufilter/device.h>
#include <gnuradio/gpufilter/filter_method.h>
#include <gnuradio/gpufilter/gpu_options.h>
#include <gnuradio/gr_complex.h>
#include <gnuradio/sync_decimator.h>
#include <cstdint>
#include <vector>

namespace gr {
namespace gpufilter {

/*!
 * \brief Decimating FFT filter computed on a GPU, a drop-in for
 * gr::filter::fft_filter_XXX. \ingroup gpufilter
 *
 * \details
 * gr-filter's fast-convolution filter names, so that flowgraphs using them migrate by
 * the same one-word change as the FIR filters. Output k is
 * sum_j taps[j] * in[k*decimation - j], starting from zero history, exactly the
 * convolution gr-filter's block computes. It runs the same GPU engines as
 * fir_filter_XXX: FFT overlap-save (cuFFT) unless \p method says otherwise. \p nthreads
 * is gr-filter's FFTW thread count; it is accepted, kept and reported, and has no
 * effect on the GPU (nor on the CPU fallback, which runs gr-filter's FIR kernel).
 */
template <class IN_T, class OUT_T, class TAP_T>
class GPUFILTER_API fft_filter : virtual public gr::sync_decimator, public gpu_options
{
public:
    typedef std::shared_ptr<fft_filter<IN_T, OUT_T, TAP_T>> sptr;

    /*!
     * \param decimation   keep every decimation-th output (>= 1)
     * \param taps         filter taps (not empty, finite)
     * \param nthreads     gr-filter's FFTW threads (>= 1); unused on the GPU
     * \param device       CUDA device index, device_auto (-1) or device_cpu (-2)
     * \param batch_size   input samples per GPU transfer (>= 1)
     * \param method       filter_method::fft (default), direct or automatic
     * \param max_latency  seconds of input the block may hold before it computes (>= 0,
     *                     default 10 ms): batches shrink to what arrives in that time on
     *                     a live stream; 0 computes whatever has arrived, infinity always
     *                     whole batches
     */
    static sptr make(int decimation,
                     const std::vector<TAP_T>& taps,
                     int nthreads = 1,
                     int device = device_auto,
                     int batch_size = default_batch_size,
                     filter_method method = filter_method::fft,
                     double max_latency = default_max_latency);

    //! New taps; applied from the next work() call, as in gr-filter.
    virtual void set_taps(const std::vector<TAP_T>& taps) = 0;
    virtual std::vector<TAP_T> taps() const = 0;
    //! gr-filter's FFTW thread count (>= 1): kept and reported, unused on the GPU.
    virtual void set_nthreads(int n) = 0;
    virtual int nthreads() const = 0;
};

typedef fft_filter<gr_complex, gr_complex, gr_complex> fft_filter_ccc;
typedef fft_filter<gr_complex, gr_complex, float> fft_filter_ccf;
typedef fft_filter<float, float, float> fft_filter_fff;

} // namespace gpufilter
} // namespace gr

#endif /* INCLUDED_GPUFILTER_FFT_FILTER_H */
