/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_BLOCK_OBSERVER_H
#define INCLUDED_GPUFILTER_BLOCK_OBSERVER_H

// The one way to watch what GPU blocks do with the GPU from outside the library (the
// test suite's gpufilter_test_hooks module does). Not installed: the interface may
// change with the library.

#include "cuda/stream/stream_observer.h"
#include <gnuradio/gpufilter/api.h>

namespace gr {
namespace gpufilter {

namespace cuda {
class host_stream;
}

//! What an observer may ask of a GPU block between block_made() and
//! block_destroyed(), from any thread.
class observed_block
{
public:
    //! The block's gr::basic_block::unique_id().
    virtual long unique_id() const = 0;
    //! The CUDA device that holds the block's GPU buffers (cudaPointerGetAttributes),
    //! or device_cpu for a block on the CPU fallback.
    virtual int memory_device() const = 0;
    //! The CUDA device current in the block's work thread during its last GPU call
    //! that went through host memory (-1 before one), or device_cpu.
    virtual int last_call_device() const = 0;

protected:
    ~observed_block() = default;
};

/*!
 * \brief Told of GPU blocks as they are made and destroyed, and of everything the
 * engine tells a cuda::stream_observer (GPU calls, page-locked host memory, device
 * buffers' device memory); the rules there hold here too.
 */
class block_observer : public cuda::stream_observer
{
public:
    //! A block's core is made / about to be destroyed.
    virtual void block_made(const observed_block& /*block*/) {}
    virtual void block_destroyed(const observed_block& /*block*/) {}

    //! Whether blocks on the CPU fallback made from now on declare device buffers on
    //! their outputs as GPU blocks do, the device side emulated in host memory: the
    //! scheduler's side of device buffers (homes, windows across a ring's end,
    //! fan-out) then runs on a machine without a GPU. Outputs are the same either way.
    virtual bool emulate_device_buffers() { return false; }
};

//! Installs `observer` for the whole process (null: none, the default) and returns the
//! one it replaces. It must outlive every call into it and every event still owed to it
//! (cuda::stream_observer); one that lives as long as the process does.
GPUFILTER_API block_observer* set_block_observer(block_observer* observer);

// For block_core.

//! The installed observer's answer to emulate_device_buffers(); false without one.
bool emulate_device_buffers_on_cpu();

//! Tells the installed observer of a block's core while it lives (RAII).
class observed_core final : public observed_block
{
public:
    //! gpu: the core's GPU path, null on the CPU fallback; outlives this.
    observed_core(long unique_id, const cuda::host_stream* gpu);
    ~observed_core();
    observed_core(const observed_core&) = delete;
    observed_core& operator=(const observed_core&) = delete;

    long unique_id() const override { return d_unique_id; }
    int memory_device() const override;
    int last_call_device() const override;

private:
    long d_unique_id;
    const cuda::host_stream* d_gpu;
    block_observer* d_told; // of the block's making, so of its end too
};

} // namespace gpufilter
} // namespace gr

#endif
