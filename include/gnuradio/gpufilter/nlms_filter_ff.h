/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_NLMS_FILTER_FF_H
#define INCLUDED_GPUFILTER_NLMS_FILTER_FF_H

#include <gnuradio/gpufilter/api.h>
#include <gnuradio/gpufilter/device.h>
#include <gnuradio/gpufilter/gpu_options.h>
#include <gnuradio/gpufilter/nlms.h>
#include <gnuradio/sync_block.h>
#include <vector>

namespace gr {
namespace gpufilter {

/*!
 * \brief NLMS adaptive FIR filter (an echo canceller) on a GPU, one filter or many
 * independent ones at once.
 * \ingroup gpufilter
 *
 * \details
 * Input 0 is x (the reference, e.g. the far-end signal), input 1 is d (e.g. the
 * microphone), output 0 is the error e. With taps w (ntaps of them, zero at the start),
 * x_n = [x[n], x[n-1], ..., x[n-ntaps+1]] (zeros before the stream starts):
 *   y[n] = w . x_n,  e[n] = d[n] - y[n],  w <- w + mu e[n] x_n / (eps + x_n . x_n).
 * w[j] multiplies x[n-j], so a converged filter's taps are the echo path's impulse
 * response. With nfilters > 1 every item is a vector of nfilters floats and each lane
 * is its own filter with its own taps. The adaptation carries across work() calls as
 * in one long call. Without a usable CUDA device (or with device = device_cpu) the same
 * algorithm runs on the CPU (VOLK).
 */
class GPUFILTER_API nlms_filter_ff : virtual public gr::sync_block, public gpu_options
{
public:
    typedef std::shared_ptr<nlms_filter_ff> sptr;

    /*!
     * \param ntaps        taps per filter, in [1, nlms_max_taps]
     * \param mu           step size in (0, 2] (NLMS diverges beyond 2; 0.1 to 1 usual)
     * \param nfilters     independent filters, the vector length of every port (>= 1)
     * \param eps          regulariser of the normalisation, finite and > 0
     *                     (default nlms_default_eps = 1e-6)
     * \param device       CUDA device index, device_auto (-1) or device_cpu (-2)
     * \param batch_size   input items per GPU transfer (>= 1)
     * \param max_latency  seconds of input the block may hold before it computes (>= 0,
     *                     default 10 ms): batches shrink to what arrives in that time on
     *                     a live stream; 0 computes whatever has arrived, infinity always
     *                     whole batches
     */
    static sptr make(int ntaps,
                     double mu,
                     int nfilters = 1,
                     double eps = nlms_default_eps,
                     int device = device_auto,
                     int batch_size = default_batch_size,
                     double max_latency = default_max_latency);

    //! Step size of every filter from the next sample on (in (0, 2]).
    virtual void set_mu(double mu) = 0;
    virtual double mu() const = 0;
    //! Filter k's taps now (w[j] multiplies x[n-j]).
    virtual std::vector<float> taps(int k = 0) = 0;
    //! Filter k's taps from the next sample on (ntaps values); the x history stays.
    virtual void set_taps(const std::vector<float>& taps, int k = 0) = 0;
    //! Every filter back to zero taps and zero x history.
    virtual void reset() = 0;

    virtual int ntaps() const = 0;
    virtual int nfilters() const = 0;
    virtual double eps() const = 0;
};

} // namespace gpufilter
} // namespace gr

#endif /* INCLUDED_GPUFILTER_NLMS_FILTER_FF_H */
