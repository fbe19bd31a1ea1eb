/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_MIRRORED_MEMORY_H
#define INCLUDED_GPUFILTER_CUDA_MIRRORED_MEMORY_H

// The memory of the block layer's GNU Radio buffer for GPU outputs
// (lib/device_buffer.h). This header has no CUDA types, so the block layer can use
// it without seeing CUDA.

#include <cstddef>
#include <memory>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief bytes of page-aligned host memory, and, once asked for, bytes of device
 * memory: the two homes a buffer's items can have. Both start zeroed (GNU Radio's
 * history before a stream). The host side is ordinary memory, page-locked by the
 * GPU blocks that use it (host_registration), like GNU Radio's own buffers.
 *
 * device emulated (-1): the device side is host memory too, so the scheduler's side
 * of device buffers can be tested without a GPU.
 */
class mirrored_memory
{
public:
    static constexpr int emulated = -1;

    mirrored_memory(int device, std::size_t bytes);
    ~mirrored_memory();
    mirrored_memory(const mirrored_memory&) = delete;
    mirrored_memory& operator=(const mirrored_memory&) = delete;

    char* host() const;
    //! The device side, allocated (zeroed) on the first call. Not thread-safe.
    char* device();
    std::size_t bytes() const;

    //! memmove within the device side (absolute device pointers); returns when done.
    void* move_on_device(void* dst, const void* src, std::size_t n);

    //! Bytes of device-side memory all mirrored_memory objects hold now (emulated
    //! ones included), for leak checks.
    static std::size_t live_device_bytes();

private:
    struct impl;
    std::unique_ptr<impl> d_impl;
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
