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
    //! Input samples per GPU transfer, at most (the throughput batch).
    virtual int batch_size() const = 0;
    //! Seconds of input the block may hold before it computes (its latency budget).
    virtual double max_latency() const = 0;
    //! A new latency budget in seconds (>= 0), from the block's next look at its
    //! input: 0 computes whatever has arrived, as gr-filter's blocks do; infinity
    //! always waits for whole batches of batch_size.
    virtual void set_max_latency(double seconds) = 0;
    //! Input samples per call that the budget allows at the input rate measured now:
    //! batch_size when input arrives fast enough, fewer on a slower live stream.
    virtual int current_batch_size() const = 0;
    //! The rate at which input has been arriving, items per second (0 until known).
    virtual double input_rate() const = 0;
    //! Most input samples handled in one work() call so far (shows batching at work).
    virtual uint64_t largest_batch() const = 0;
    //! The GPU algorithm this block runs, or "cpu" on the CPU fallback: "direct" or
    //! "fft" (the FIR filters, freq_xlating_fir_filter, hilbert_fc), "pfb" (the
    //! polyphase blocks), "nlms", "quadrature_demod", "fm_demod_bank" or
    //! "complex_to_real".
    virtual std::string method() const = 0;
    //! \deprecated Use method(), which answers the same. This name dates from when only
    //! the FIR filters had it; it is kept so that existing code keeps working.
    std::string fir_method() const { return method(); }
    //! Bytes this block has copied from host to device memory so far (its own copies
    //! and the uploads of the device buffers on its ports), sample streams only.
    virtual uint64_t bytes_to_device() const = 0;
    //! Bytes copied from device to host memory so far, counted the same way.
    virtual uint64_t bytes_from_device() const = 0;
};

} // namespace gpufilter
} // namespace gr

#endif /* INCLUDED_GPUFILTER_GPU_OPTIONS_H */
