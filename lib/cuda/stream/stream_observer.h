/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_STREAM_OBSERVER_H
#define INCLUDED_GPUFILTER_CUDA_STREAM_OBSERVER_H

// What the engine's host path tells an observer about the GPU resources it uses: its
// streams and their calls, the host memory it page-locks, the device memory of device
// buffers. No CUDA types, so code that never sees CUDA can implement it.

#include <cstddef>

struct CUstream_st; // cudaStream_t is CUstream_st*

namespace gr {
namespace gpufilter {
namespace cuda {

//! One process() or process_resident() call of a host_stream, about to run.
struct gpu_call {
    const void* source;  //!< the host_stream, as given to stream_made()
    int device;          //!< the CUDA device current in the calling thread
    CUstream_st* stream; //!< the CUDA stream its computation is queued on
};

/*!
 * \brief Told what the engine does with GPU resources. Every member does nothing by
 * default, so an observer overrides only what it wants.
 *
 * Members are called from any thread (GNU Radio's block threads, the thread that makes
 * or destroys a flowgraph), possibly at once: an observer guards its own state. Some
 * come while the engine holds a lock of its own, so a member must not call back into
 * the library; it asks what it wants to know later, outside the event. Each
 * *_made() / *_locked() event and its *_destroyed() / *_freed() / *_unlocked() event go
 * to the same observer, even when another was installed in between.
 *
 * Its answers change behaviour only as a GPU or its driver could, and through the path
 * that failure takes anyway: a before_*() member that throws makes that operation fail
 * with its exception (a block stops its flowgraph with the message; a device buffer
 * stays in host memory). The other members must not throw. emulated_ring_granularity()
 * sizes only rings whose device side is emulated, which no GPU block uses.
 */
class stream_observer
{
public:
    virtual ~stream_observer() = default;

    //! A host_stream on `device` made / about to be destroyed; `source` names it in
    //! gpu_call while it lives.
    virtual void stream_made(const void* /*source*/, int /*device*/) {}
    virtual void stream_destroyed(const void* /*source*/) {}
    //! Before each GPU call. Throwing fails the call, as a CUDA error in it would.
    virtual void before_call(const gpu_call& /*call*/) {}

    //! Host memory page-locked for DMA by the first of its users / unlocked by the last.
    virtual void host_memory_locked(const void* /*base*/, std::size_t /*bytes*/) {}
    virtual void host_memory_unlocked(const void* /*base*/, std::size_t /*bytes*/) {}

    //! Before the device side of a device buffer's ring is made (`device`: a CUDA
    //! index, or ring_memory::emulated). Throwing refuses it, as a full GPU would.
    virtual void before_device_memory(int /*device*/, std::size_t /*bytes*/) {}
    //! The device side of a ring made / freed (emulated ones included); `ring` names it.
    virtual void
    device_memory_made(const void* /*ring*/, int /*device*/, std::size_t /*bytes*/)
    {
    }
    virtual void
    device_memory_freed(const void* /*ring*/, int /*device*/, std::size_t /*bytes*/)
    {
    }

    //! The granularity of rings whose device side is emulated in host memory, rounded
    //! up to whole host pages; 0: one host page. A GPU's (2 MiB) makes emulated rings
    //! as large as a GPU's would be.
    virtual std::size_t emulated_ring_granularity() { return 0; }
};

//! Installs `observer` for the whole process (null: none, the default) and returns the
//! one it replaces. An observer must outlive every call into it and every event still
//! owed to it (see above); one that lives as long as the process does.
stream_observer* set_stream_observer(stream_observer* observer);
//! The observer installed now, or null.
stream_observer* current_stream_observer();

//! Tells the installed observer, if any, of a GPU call about to run; throws what it
//! throws.
void observe_gpu_call(const gpu_call& call);

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
