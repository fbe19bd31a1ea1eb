/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR_STREAM_H
#define INCLUDED_GPUFILTER_CUDA_FIR_STREAM_H

// Host-to-host FIR filtering on a GPU. This header has no CUDA types, so the block
// layer can use it without seeing CUDA.

#include "../common/rotation.h"
#include "../common/sample_types.h"
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief Filters host samples on one GPU, with copies overlapped with compute.
 *
 * Each process() call is cut into sub-chunks that go round a ring of slots on three
 * streams (host->device copies, kernels, device->host copies), so the upload of
 * chunk k+1, the filter of chunk k and the download of chunk k-1 run at once. Host
 * memory that was registered with register_host_memory() (GNU Radio's own buffers)
 * is copied by DMA in place; other host memory goes through pinned staging buffers,
 * never through a pageable copy. State carries across calls (see fir_engine).
 * Not thread-safe: one caller at a time.
 */
template <class In, class Tap>
class fir_stream
{
public:
    using out_type = filter_output_t<In, Tap>;

    //! method: "auto", "direct" or "fft" (see fir_processor.h). max_chunk bounds
    //! the device memory: process() takes any n, max_chunk samples at a time.
    fir_stream(int device,
               const std::vector<Tap>& taps,
               int decimation,
               std::size_t max_chunk,
               const std::string& method = "auto");
    ~fir_stream();
    fir_stream(fir_stream&&) noexcept;
    fir_stream& operator=(fir_stream&&) noexcept;

    //! New taps from the next sample on. With method "auto" the algorithm may change
    //! with the tap count; the history then restarts from zeros, so a caller that
    //! owns the history (the blocks) sets it again, as it always does after new taps.
    void set_taps(const std::vector<Tap>& taps);
    //! Exactly ntaps()-1 samples, oldest first; restarts the decimation phase.
    void set_history(const In* samples);
    //! Output rotation, as fir_engine::set_rotation / next_rotation (complex output).
    void set_rotation(const rotation& r);
    rotation next_rotation() const;
    std::size_t output_count(std::size_t n) const;
    //! Filters n samples into out (output_count(n) samples); returns that count.
    std::size_t process(const In* in, std::size_t n, out_type* out);

    //! Page-locks [base, base + bytes) so process() can DMA to and from it in place.
    //! Returns whether the range is usable that way (false: staging is used; the
    //! reason is in registration_note()). fir_streams that register the same range
    //! share it: it stays locked until the last of them unregisters.
    bool register_host_memory(const void* base, std::size_t bytes);
    //! Releases what register_host_memory() locked. Call before that memory goes.
    void unregister_host_memory();
    const std::string& registration_note() const;

    int ntaps() const;
    int device() const;
    //! "direct" or "fft": the algorithm now running.
    const char* method() const;

private:
    struct impl;
    std::unique_ptr<impl> d_impl;
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
