/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_RING_MEMORY_H
#define INCLUDED_GPUFILTER_CUDA_RING_MEMORY_H

// The memory of the block layer's GNU Radio buffer for GPU outputs
// (lib/device_buffer.h). This header has no CUDA types, so the block layer can use
// it without seeing CUDA.

#include <cstddef>
#include <memory>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief A ring of `bytes` mapped twice, back to back, like GNU Radio's own
 * double-mapped buffers: the items at [bytes, 2 bytes) are those at [0, bytes), so a
 * window that runs past the end of the ring is contiguous, and nothing ever has to be
 * moved to realign a reader or a writer.
 *
 * Two homes: the host side (shared memory mapped twice, made with the ring) and the
 * device side (device memory mapped twice through CUDA's virtual memory management,
 * made on the first call to device()). Both start zeroed (GNU Radio's history before
 * a stream). The host side is page-locked by the GPU blocks that use it.
 *
 * device emulated (-1): the device side is host memory too, so the scheduler's side
 * of device buffers can be tested without a GPU. device host_only (-2): no device
 * side at all.
 */
class ring_memory
{
public:
    static constexpr int emulated = -1;
    static constexpr int host_only = -2;

    //! The size a ring's bytes must be a multiple of on `device`: the page size of
    //! both homes (2 MiB on current GPUs; a host page when emulated, unless the
    //! stream_observer asks for another; a host page for host_only).
    static std::size_t granularity(int device);

    //! `bytes`: a multiple of granularity(device).
    ring_memory(int device, std::size_t bytes);
    ~ring_memory();
    ring_memory(const ring_memory&) = delete;
    ring_memory& operator=(const ring_memory&) = delete;

    //! The host side: 2 * bytes() addresses, the second half mirroring the first.
    char* host() const;
    //! The device side, likewise, made (zeroed) on the first call. Not thread-safe.
    //! Throws when the device memory cannot be made (none left, a driver without
    //! virtual memory management, or the stream_observer refused it); the host side
    //! stays usable.
    char* device();
    std::size_t bytes() const;

    //! Copies the ring's bytes from one home to the other (to the device side when
    //! to_device, which is made first if need be), and waits for the copy: items
    //! written on one side are read on the other. Nothing may use the ring meanwhile.
    void copy_between_homes(bool to_device);

private:
    struct impl;
    std::unique_ptr<impl> d_impl;
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
