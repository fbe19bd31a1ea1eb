/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_PROCESSOR_H
#define INCLUDED_GPUFILTER_CUDA_PROCESSOR_H

// The one interface between the host path (host_stream) and any engine: what a GPU
// computation on device-resident items must tell so that GNU Radio's samples can be
// moved through it, whatever its ports and rate.

#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief Item sizes of a computation's ports, in bytes: one entry per input port and
 * one per output port. A vector port's item is the whole vector.
 */
struct port_layout {
    std::vector<std::size_t> in_item_bytes;
    std::vector<std::size_t> out_item_bytes;
};

/*!
 * \brief A computation on device-resident items, with its state across calls.
 *
 * Every input port takes the same number n of new items per call (GNU Radio's sync
 * blocks and their decimating/interpolating kinds, N-to-1 and 1-to-N blocks); every
 * output port gets the same number of items, output_count(n), which may depend on the
 * state (a decimation phase, an arbitrary resampler's position). State carries across
 * calls, so any split of a stream into calls gives the output of one call. All work is
 * queued on the stream given; the caller keeps calls in order on it.
 */
class processor
{
public:
    virtual ~processor() = default;

    virtual const port_layout& ports() const = 0;

    //! Items each output port gets from n more items on each input port, now.
    virtual std::size_t output_count(std::size_t n) const = 0;
    //! The most output_count(n) can be in any state: sizes the device buffers.
    virtual std::size_t max_output_count(std::size_t n) const = 0;

    //! Queues the computation of n items of each input port (in[p], device memory)
    //! into output_count(n) items of each output port (out[q], device memory);
    //! returns that count.
    virtual std::size_t
    process(const void* const* in, std::size_t n, void* const* out, cudaStream_t s) = 0;

    //! Input items of history a block's window holds before its new items (GNU Radio's
    //! history() - 1); 0 for a computation with no history.
    virtual std::size_t history_items() const { return 0; }
    //! Replaces the history with history_items() host items per input port (oldest
    //! first) and restarts the phase, so the next item is the newest of the next
    //! output, as GNU Radio's window says. Waits for the copy.
    virtual void set_history(const void* const* /*host*/, cudaStream_t /*s*/) {}

    //! The algorithm, for the block's report ("direct", "fft", "pfb", ...).
    virtual const char* method() const = 0;

    /*!
     * The device and the stream its controls (a family's `*_controls` interface: new
     * taps, a channel map, a gain) queue their work on: the stream process() runs on,
     * so a control takes effect in order with the computation. Set by the host path
     * (host_stream) that runs the processor; a processor used on its own (an engine
     * test) keeps the stream-taking versions of its controls.
     */
    void attach(int device, cudaStream_t control_stream)
    {
        d_device = device;
        d_control_stream = control_stream;
    }

protected:
    //! For a control: makes the attached device current and gives the stream.
    cudaStream_t control_stream() const;

private:
    int d_device = -1;
    cudaStream_t d_control_stream = nullptr;
};

/*!
 * \brief A processor that is also its family's controls (Controls: the interface the
 * block holds, which the family's CPU kernel implements too), so a block's setter
 * reaches the engine in one virtual call, whichever of the two computes.
 */
template <class Controls>
class controlled_processor : public processor, public Controls
{
public:
    using controls_type = Controls;
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
