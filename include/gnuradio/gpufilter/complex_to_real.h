/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_COMPLEX_TO_REAL_H
#define INCLUDED_GPUFILTER_COMPLEX_TO_REAL_H

#include <gnuradio/gpufilter/api.h>
#include <gnuradio/gpufilter/device.h>
#include <gnuradio/gpufilter/gpu_options.h>
#include <gnuradio/sync_block.h>

namespace gr {
namespace gpufilter {

/*!
 * \brief The real part of complex samples, computed on a GPU: a drop-in for
 * gr::blocks::complex_to_real.
 * \ingroup gpufilter
 *
 * \details
 * Items of vlen complex samples in, vlen floats out, exactly (a copy of the real
 * parts), tags as gr-blocks. On its own it only moves samples to the GPU and back;
 * it is there so that a chain of GPU blocks (a translating filter, then a Hilbert
 * transformer, as in an FM receiver) has no CPU block in the middle. With no usable
 * CUDA device (or device = device_cpu) it runs volk's deinterleave, as gr-blocks.
 */
class GPUFILTER_API complex_to_real : virtual public gr::sync_block, public gpu_options
{
public:
    typedef std::shared_ptr<complex_to_real> sptr;

    /*!
     * \param vlen         samples per item (1 to 2^20)
     * \param device       CUDA device index, device_auto (-1) or device_cpu (-2)
     * \param batch_size   input items per GPU transfer (>= 1)
     * \param max_latency  seconds of input the block may hold before it computes (>= 0,
     *                     default 10 ms): batches shrink to what arrives in that time on
     *                     a live stream; 0 computes whatever has arrived, infinity always
     *                     whole batches
     */
    static sptr make(int vlen = 1,
                     int device = device_auto,
                     int batch_size = default_batch_size,
                     double max_latency = default_max_latency);

    virtual int vlen() const = 0;
};

} // namespace gpufilter
} // namespace gr

#endif /* INCLUDED_GPUFILTER_COMPLEX_TO_REAL_H */
