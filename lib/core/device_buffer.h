/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_DEVICE_BUFFER_H
#define INCLUDED_GPUFILTER_DEVICE_BUFFER_H

#include "cuda/stream/ring_memory.h"
#include "cuda/stream/stream_handoff.h"
#include <gnuradio/buffer.h>
#include <gnuradio/buffer_type.h>
#include <gnuradio/io_signature.h>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace gr {
namespace gpufilter {

/*!
 * \brief What a GPU block tells the device buffers it writes and reads: its device
 * and whether it uses device buffers (fixed when the block is made).
 */
struct transfer_account {
    int device = cuda::ring_memory::emulated; // a CUDA index, or emulated
    bool device_buffers = false;
};

//! Implemented by every block that may use device buffers (gpu_block).
class device_buffer_client
{
public:
    virtual ~device_buffer_client() = default;
    virtual std::shared_ptr<transfer_account> transfer_account_ptr() const = 0;
};

/*!
 * \brief The GNU Radio buffer on a GPU block's output: in device memory when every
 * block that reads it is a GPU block with device buffers on the same device, in host
 * memory otherwise.
 *
 * GPU blocks declare this type on their outputs only. GNU Radio 3.10 then gives every
 * edge from a GPU block this buffer, and every edge from a host block its usual
 * buffer, so a host block's output is never replaced (which in 3.10.5 hangs a host
 * output fanned out to several GPU blocks) and readers never need different transfer
 * types of one buffer. The buffer decides its home itself, from all its readers, the
 * first time it is used in a flowgraph (readers change only while a flowgraph is
 * stopped): device memory for a chain of GPU blocks, host memory (page-locked by the
 * GPU blocks for DMA) as soon as one reader is a host block. Writer and readers
 * always see the same side, so post_work() copies nothing: the GPU blocks move
 * samples across PCIe themselves, once, where a host block is at the other end.
 *
 * Both homes are double-mapped rings (cuda::ring_memory), as GNU Radio's default
 * buffers are: every window is contiguous, so the buffer is a double-mapped buffer to
 * the scheduler. GNU Radio 3.10's single-mapped buffers realign their items by
 * copying them while the scheduler runs, with history, several readers and several
 * threads; that is slow, and with several readers it lost or corrupted items in
 * our tests. A double mapping never moves an item.
 *
 * It stays in host memory whatever its readers when its device ring would be far
 * larger than the buffer (an item size with a large odd factor) or cannot be made
 * (docs/architecture.md, "How the scheduler sees the buffers").
 */
class device_buffer : public gr::buffer
{
public:
    static gr::buffer_type type;

    static gr::buffer_sptr make_buffer(int nitems,
                                       std::size_t sizeof_item,
                                       std::uint64_t downstream_lcm_nitems,
                                       std::uint32_t downstream_max_out_mult,
                                       gr::block_sptr link = gr::block_sptr(),
                                       gr::block_sptr buf_owner = gr::block_sptr());

    ~device_buffer() override;

    //! Whether the items are in device memory (decided from the readers now).
    bool on_device();
    //! A port's buffer is a device_buffer in device memory.
    static bool on_device(const gr::buffer_sptr& buf);
    //! The order of its writer's and readers' GPU work (cuda::stream_handoff) when
    //! `buf` is a device_buffer in device memory of a GPU, else null (host memory,
    //! or a device side emulated in host memory: block_observer.h).
    static cuda::stream_handoff* handoff(const gr::buffer_sptr& buf);
    //! A device_buffer's host side, both copies (page-locked by its users), or
    //! {nullptr, 0}.
    static std::pair<const void*, std::size_t> host_side(const gr::buffer_sptr& buf);

    //! The items a writer may hold in `buf` (GNU Radio's own buffer of the size it
    //! asked for would hold as many); fewer than bufsize() for a device_buffer whose
    //! ring was rounded up to the device's granularity.
    static int capacity(const gr::buffer_sptr& buf);

    //! The same signature, with this buffer type on every port.
    static gr::io_signature::sptr with_type(const gr::io_signature::sptr& sig);

    int space_available() override;
    void post_work(int nitems) override;
    void* write_pointer() override;
    const void* _read_pointer(unsigned int read_index) override;

protected:
    bool allocate_buffer(int nitems) override;
    unsigned index_add(unsigned a, unsigned b) override;
    unsigned index_sub(unsigned a, unsigned b) override;

private:
    device_buffer(int nitems,
                  std::size_t sizeof_item,
                  std::uint64_t downstream_lcm_nitems,
                  std::uint32_t downstream_max_out_mult,
                  gr::block_sptr link,
                  std::shared_ptr<transfer_account> account);

    //! The items' memory for the readers attached now.
    char* home();
    //! Whether the readers attached now want the items in device memory.
    bool readers_want_device() const;
    //! Moves the ring's items to the other home (readers changed while stopped).
    void carry_items_over(bool to_device);

    //! Each reader with its block's unique_id (-1 when gone): a reader freed and
    //! another made at its address must not look like the same set of readers.
    using reader_ids = std::vector<std::pair<const gr::buffer_reader*, long>>;
    reader_ids current_readers() const;
    //! The alias of the block that writes this buffer, for messages.
    std::string writer_name() const;

    std::shared_ptr<transfer_account> d_account;
    std::unique_ptr<cuda::ring_memory> d_memory;
    std::unique_ptr<cuda::stream_handoff> d_handoff; // made with the device home
    std::mutex d_home_lock;
    reader_ids d_home_for; // the readers d_home was decided for
    char* d_home = nullptr;
    bool d_on_device = false;
    // Host memory whatever the readers: the device ring would be far larger than the
    // buffer (an item size with a large odd factor), or it could not be made.
    bool d_host_only = false;
    // What GNU Radio's double-mapped buffer for the same request holds (whole pages):
    // the writer is held to it, so a ring rounded up to 2 MiB granules adds no
    // latency, and set_max_output_buffer() still bounds it.
    unsigned d_capacity = 0;
};

} // namespace gpufilter
} // namespace gr

#endif
