/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_FIR_FILTER_H
#define INCLUDED_GPUFILTER_FIR_FILTER_H

#include <gnuradio/gpufilter/api.h>
#include <gnuradio/gpufilter/device.h>
#include <gnuradio/gpufilter/filter_method.h>
#include <gnuradio/gpufilter/gpu_options.h>
#include <gnuradio/gr_complex.h>
#include <gnuradio/sync_decimator.h>
#include <cstdint>
#include <string>
#include <vector>

namespace gr {
namespace gpufilter {

/*!
 * \brief Decimating FIR filter computed on a GPU, a drop-in for
 * gr::filter::fir_filter_XXX. \ingroup gpufilter
 *
 * \details
 * Same arguments, output, history, decimation phase and tags as gr-filter's block:
 * output k is sum_j taps[j] * in[k*decimation - j], starting from zero history.
 * Samples travel to the GPU in batches of up to \p batch_size input samples (fewer on
 * a slow live stream, so that no input waits longer than \p max_latency), by DMA
 * straight from and to GNU Radio's buffers, with copies overlapped with compute; the
 * block asks its neighbours' buffers for room for whole batches, and flushes what is
 * left at the end of a stream, so the output length is exactly gr-filter's. With no
 * usable CUDA device (or device = device_cpu) it runs gr-filter's CPU kernel and logs
 * one warning.
 */
template <class IN_T, class OUT_T, class TAP_T>
class GPUFILTER_API fir_filter : virtual public gr::sync_decimator, public gpu_options
{
public:
    typedef std::shared_ptr<fir_filter<IN_T, OUT_T, TAP_T>> sptr;

    /*!
     * \param decimation   keep every decimation-th output (>= 1)
     * \param taps         filter taps (not empty, finite)
     * \param device       CUDA device index, device_auto (-1) or device_cpu (-2)
     * \param batch_size   input samples per GPU transfer, at most (>= 1): the batch at
     *                     full throughput; max_latency bounds the wait for it
     * \param method       filter_method::automatic (the faster for these taps and
     *                     decimation, from the crossover measured in docs/kernels.md),
     *                     direct (direct form) or fft (overlap-save with cuFFT); from
     *                     Python also "auto", "direct" or "fft"
     * \param max_latency  seconds of input the block may hold before it computes (>= 0,
     *                     default 10 ms): batches shrink to what arrives in that time on
     *                     a live stream; 0 computes whatever has arrived, infinity always
     *                     whole batches
     */
    static sptr make(int decimation,
                     const std::vector<TAP_T>& taps,
                     int device = device_auto,
                     int batch_size = default_batch_size,
                     filter_method method = filter_method::automatic,
                     double max_latency = default_max_latency);

    //! New taps; applied from the next work() call, as in gr-filter.
    virtual void set_taps(const std::vector<TAP_T>& taps) = 0;
    virtual std::vector<TAP_T> taps() const = 0;
};

typedef fir_filter<float, float, float> fir_filter_fff;
typedef fir_filter<gr_complex, gr_complex, float> fir_filter_ccf;
typedef fir_filter<gr_complex, gr_complex, gr_complex> fir_filter_ccc;
typedef fir_filter<float, gr_complex, gr_complex> fir_filter_fcc;
//! int16 output, truncated toward zero as gr-filter's; computed in direct form whatever
//! the method (no FFT engine writes int16), and method() reports "direct".
typedef fir_filter<float, std::int16_t, float> fir_filter_fsf;
typedef fir_filter<std::int16_t, gr_complex, gr_complex> fir_filter_scc;

} // namespace gpufilter
} // namespace gr

#endif /* INCLUDED_GPUFILTER_FIR_FILTER_H */
