/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_STREAM_HANDOFF_H
#define INCLUDED_GPUFILTER_CUDA_STREAM_HANDOFF_H

// The order between the GPU work of a device buffer's writer and readers (each a
// block with its own CUDA stream, in its own thread). This header has no CUDA types,
// so the block layer can use it without seeing CUDA.

#include <memory>

struct CUstream_st; // cudaStream_t is CUstream_st*

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief Lets the blocks around one device ring queue their GPU work without waiting
 * for it on the host.
 *
 * A block whose ports are all in device memory returns from work() as soon as its
 * kernels are queued: GNU Radio then sees items produced that the GPU has not
 * written yet, and space freed that the GPU is still reading. The events here keep
 * the GPU's order right instead: a reader's stream waits for the writer's last
 * queued write before it reads (after_write / before_read), and the writer's stream
 * waits for every reader's last queued read before it writes again (after_read /
 * before_write). GNU Radio makes items and space visible only after work() returns,
 * and each block records its event before it returns, so a waiting stream always
 * waits for at least the work that wrote the items (or read the space) it was given;
 * a wait never waits for work queued after it, so no cycle can form.
 *
 * Thread-safe: the writer and each reader call from their own threads.
 */
class stream_handoff
{
public:
    //! For a ring on `device`; events are made there.
    explicit stream_handoff(int device);
    ~stream_handoff();
    stream_handoff(const stream_handoff&) = delete;
    stream_handoff& operator=(const stream_handoff&) = delete;

    //! Writer: `s` waits for every read queued so far, then records its writes.
    void before_write(CUstream_st* s);
    void after_write(CUstream_st* s);
    //! Reader `reader` (any address that tells the readers apart, e.g. its GNU Radio
    //! buffer_reader): `s` waits for the writes queued so far, then records its reads.
    void before_read(CUstream_st* s);
    void after_read(const void* reader, CUstream_st* s);

private:
    struct impl;
    std::unique_ptr<impl> d_impl;
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
