/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR_STREAM_H
#define INCLUDED_GPUFILTER_CUDA_FIR_STREAM_H

// Host-to-host FIR filtering on a GPU. This header has no CUDA types, so the block
// layer can use it without seeing CUDA.

#include "rotation.h"
#include "sample_types.h"
#include <cstddef>
#include <memory>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief Filters host samples on one GPU: host -> pinned staging -> device -> FIR
 * engine -> pinned staging -> host, in chunks of at most max_chunk input samples.
 * State carries across calls (see fir_engine). Not thread-safe: one caller at a time.
 */
template <class In, class Tap>
class fir_stream
{
public:
    using out_type = filter_output_t<In, Tap>;

    fir_stream(int device,
               const std::vector<Tap>& taps,
               int decimation,
               std::size_t max_chunk);
    ~fir_stream();
    fir_stream(fir_stream&&) noexcept;
    fir_stream& operator=(fir_stream&&) noexcept;

    void set_taps(const std::vector<Tap>& taps);
    //! Exactly ntaps()-1 samples, oldest first; restarts the decimation phase.
    void set_history(const In* samples);
    //! Output rotation, as fir_engine::set_rotation / next_rotation (complex output).
    void set_rotation(const rotation& r);
    rotation next_rotation() const;
    std::size_t output_count(std::size_t n) const;
    //! Filters n samples into out (output_count(n) samples); returns that count.
    std::size_t process(const In* in, std::size_t n, out_type* out);

    int ntaps() const;
    int device() const;

private:
    struct impl;
    std::unique_ptr<impl> d_impl;
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
