/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_HILBERT_FC_H
#define INCLUDED_GPUFILTER_HILBERT_FC_H

#include <gnuradio/fft/window.h>
#include <gnuradio/gpufilter/api.h>
#include <gnuradio/gpufilter/device.h>
#include <gnuradio/gpufilter/gpu_options.h>
#include <gnuradio/sync_block.h>
#include <cstdint>

namespace gr {
namespace gpufilter {

/*!
 * \brief Analytic signal (Hilbert transformer) computed on a GPU, a drop-in for
 * gr::filter::hilbert_fc.
 * \ingroup gpufilter
 *
 * \details
 * Same arguments, output, alignment and tags as gr-filter's block: with
 * n = ntaps | 1 (an even ntaps becomes odd) and h = firdes::hilbert(n, window, param),
 * output i is  in[i - n/2] + j * sum_m h[m] in[i - m]  (zero history). On the GPU both
 * parts come from one FIR pass with complex taps delta(m - n/2) + j*h[m], so the
 * real part is the delayed input exactly. With no usable CUDA device (or device =
 * device_cpu) the block runs gr-filter's CPU kernel.
 */
class GPUFILTER_API hilbert_fc : virtual public gr::sync_block, public gpu_options
{
public:
    typedef std::shared_ptr<hilbert_fc> sptr;

    /*!
     * \param ntaps        number of taps (>= 2; made odd as in gr-filter)
     * \param window       window of the Hilbert filter design
     * \param param        Kaiser/Exp/Gaussian/Tukey window parameter
     * \param device       CUDA device index, device_auto (-1) or device_cpu (-2)
     * \param batch_size   input samples per GPU transfer (>= 1)
     * \param max_latency  seconds of input the block may hold before it computes (>= 0,
     *                     default 10 ms): batches shrink to what arrives in that time on
     *                     a live stream; 0 computes whatever has arrived, infinity always
     *                     whole batches
     */
    static sptr make(unsigned int ntaps,
                     fft::window::win_type window = fft::window::win_type::WIN_HAMMING,
                     double param = 6.76,
                     int device = device_auto,
                     int batch_size = default_batch_size,
                     double max_latency = default_max_latency);

    //! The Hilbert filter's taps (the imaginary part's filter).
    virtual std::vector<float> taps() const = 0;
};

} // namespace gpufilter
} // namespace gr

#endif /* INCLUDED_GPUFILTER_HILBERT_FC_H */
