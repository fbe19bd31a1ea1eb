/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_GPU_OPTIONS_H
#define INCLUDED_GPUFILTER_GPU_OPTIONS_H

#include <gnuradio/gpufilter/api.h>
#include <cstdint>
#include <string>

namespace gr {
namespace gpufilter {

/*!
 * \brief What every gpufilter block tells about where and how it computes.
 * \ingroup gpufilter
 */
class GPUFILTER_API gpu_options
{
public:
    virtual ~gpu_options() = default;

    //! True when the block computes on a GPU, false on the CPU fallback.
    virtual bool on_gpu() const = 0;
    //! The CUDA device in use, or device_cpu.
    virtual int device() const = 0;
    //! Input samples per GPU transfer.
    virtual int batch_size() const = 0;
    //! Most input samples handled in one work() call so far (shows batching at work).
    virtual uint64_t largest_batch() const = 0;
    //! The filter algorithm running: "direct", "fft", or "cpu" on the CPU fallback.
    virtual std::string fir_method() const = 0;
    //! Bytes this block has copied from host to device memory so far (its own copies
    //! and the uploads of the device buffers on its ports), sample streams only.
    virtual uint64_t bytes_to_device() const = 0;
    //! Bytes copied from device to host memory so far, counted the same way.
    virtual uint64_t bytes_from_device() const = 0;
};

} // namespace gpufilter
} // namespace gr

#endif /* INCLUDED_GPUFILTER_GPU_OPTIONS_H */
