/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_HOST_STREAM_H
#define INCLUDED_GPUFILTER_CUDA_HOST_STREAM_H

// Host-to-host processing on a GPU through any processor (processor.h). This header
// has no CUDA types, so the block layer can use it without seeing CUDA.

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>

struct CUstream_st; // cudaStream_t is CUstream_st*; no CUDA header needed here

namespace gr {
namespace gpufilter {
namespace cuda {

class processor;
class stream_handoff;

/*!
 * \brief Moves host items through a processor on one GPU, with copies overlapped with
 * compute.
 *
 * Each process() call is cut into sub-chunks that go round a ring of slots on three
 * streams (host->device copies, compute, device->host copies), so the upload of
 * chunk k+1, the computation of chunk k and the download of chunk k-1 run at once.
 * Host memory registered with register_host_memory() (GNU Radio's own buffers) is
 * copied by DMA in place; other host memory goes through pinned staging buffers,
 * never through a pageable copy. Every input and output port of the processor is
 * moved this way. Not thread-safe: one caller at a time.
 */
class host_stream final
{
public:
    //! Takes the processor, made on `device`, and attaches it to the stream it
    //! computes on (processor::attach), so its controls queue there. max_chunk bounds
    //! the device memory: process() takes any n, at most max_chunk items per
    //! sub-chunk ring. The processor's controls may change its ports or its outputs
    //! per input between calls: the next call makes slots to fit.
    host_stream(int device, std::unique_ptr<processor> p, std::size_t max_chunk);
    ~host_stream();
    host_stream(const host_stream&) = delete;
    host_stream& operator=(const host_stream&) = delete;

    //! n items of each input port (in[p]) into output_count(n) items of each output
    //! port (out[q]), all host memory; returns that count.
    std::size_t process(const void* const* in, std::size_t n, void* const* out);
    std::size_t output_count(std::size_t n) const;

    //! The processor's history_items() host items per input port (oldest first).
    void set_history(const void* const* host);
    std::size_t history_items() const;

    /*!
     * Like process(), but each port's items may already be in device memory of this
     * GPU (a GNU Radio buffer in device memory): device_in[p] / device_out[q] is then
     * that buffer's stream_handoff, else null (host memory). Device ports are read
     * and written in place; host ports go round the slots' device buffers as in
     * process(). Returns when every host port's items are copied; work on device
     * ports may still be queued then, ordered with the other blocks' work on the
     * same buffers by the handoffs, so a block whose ports are all in device memory
     * does not wait for the GPU at all.
     */
    std::size_t process_resident(const void* const* in,
                                 stream_handoff* const* device_in,
                                 std::size_t n,
                                 void* const* out,
                                 stream_handoff* const* device_out);
    //! set_history() from items that may be in device memory (device_in[p] not null).
    void set_history_resident(const void* const* items, stream_handoff* const* device_in);

    //! Bytes copied from host to device and back so far, sample streams only (the
    //! history reload after a (re)start or new taps is not counted).
    std::uint64_t bytes_to_device() const;
    std::uint64_t bytes_from_device() const;

    //! Page-locks [base, base + bytes) so process() can DMA to and from it in place.
    //! Returns whether the range is usable that way (false: staging is used; the
    //! reason is in registration_note()). Shared with other host_streams that
    //! register the same range: it stays locked until the last of them unregisters.
    bool register_host_memory(const void* base, std::size_t bytes);
    //! Releases what register_host_memory() locked. Call before that memory goes.
    void unregister_host_memory();
    //! Waits for all work queued on the stream's CUDA streams, ignoring errors (a call
    //! that failed midway has reported them): before the buffers it may still read
    //! or write (host or device memory) go.
    void wait_for_queued_work();
    const std::string& registration_note() const;

    int device() const;
    //! The device that holds this stream's device buffers (cudaPointerGetAttributes),
    //! and the device current in the thread of the last process() call, or -1 before
    //! one: what the tests check against device().
    int memory_device() const;
    int last_call_device() const;
    //! The processor's algorithm ("direct", "fft", ...).
    const char* method() const;

    //! Between calls, for a processor whose memory does not depend on the size of its
    //! calls: sub-chunks for process() calls of up to max_chunk items (the slots are
    //! made again), e.g. a channelizer whose many output ports want longer calls.
    void set_max_chunk(std::size_t max_chunk);

private:
    struct impl;
    std::unique_ptr<impl> d_impl;
};

//! A host path and the controls of the engine in it (its family's `*_controls`
//! interface; null for an engine with none): what a family's make_*_path gives the
//! block that runs it.
template <class Controls>
struct gpu_path {
    std::unique_ptr<host_stream> stream;
    Controls* controls = nullptr;
};

//! The controls of an engine that has none.
struct no_controls {
};

//! The most items one processor::process() call gets from a host_stream made with
//! max_chunk (its sub-chunk, whatever the call's n): what an engine behind one needs
//! its buffers for.
std::size_t sub_chunk_for(std::size_t max_chunk);

//! True for the error of a CUDA or cuFFT allocation that found too little memory.
bool is_out_of_memory(const std::exception& e);

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
