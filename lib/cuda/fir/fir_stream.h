/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR_STREAM_H
#define INCLUDED_GPUFILTER_CUDA_FIR_STREAM_H

// Host-to-host FIR filtering on a GPU: the host path with a FIR processor, and the
// FIR's controls. This header has no CUDA types, so the block layer can use it
// without seeing CUDA.

#include "../common/rotation.h"
#include "../common/sample_types.h"
#include "../stream/host_stream.h"
#include "fir_tuning.h"
#include <cstddef>
#include <string>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief A decimating FIR filter of host samples on one GPU (see host_stream for the
 * path, fir_engine for the filter's definition and state), which picks and, when new
 * taps call for it, changes its algorithm (direct form or FFT overlap-save).
 */
template <class In, class Tap>
class fir_stream : public host_stream
{
public:
    using out_type = filter_output_t<In, Tap>;

    //! max_chunk bounds the device memory: process() takes any n, max_chunk samples
    //! at a time.
    fir_stream(int device,
               const std::vector<Tap>& taps,
               int decimation,
               std::size_t max_chunk,
               fir_method method = fir_method::automatic);
    //! method by name: "auto", "direct" or "fft" (parse_fir_method).
    fir_stream(int device,
               const std::vector<Tap>& taps,
               int decimation,
               std::size_t max_chunk,
               const std::string& method);

    //! New taps from the next sample on. With method automatic the algorithm may
    //! change with the tap count; the history then restarts from zeros, so a caller
    //! that owns the history (the blocks) sets it again, as it always does after new
    //! taps. The rotation carries on.
    void set_taps(const std::vector<Tap>& taps);
    //! Exactly ntaps()-1 samples, oldest first; restarts the decimation phase.
    void set_history(const In* samples);
    using host_stream::set_history;
    //! Output rotation, as fir_engine::set_rotation / next_rotation (complex output).
    void set_rotation(const rotation& r);
    rotation next_rotation() const;
    //! Filters n samples into out (output_count(n) samples); returns that count.
    std::size_t process(const In* in, std::size_t n, out_type* out);
    using host_stream::process;

    int ntaps() const;

private:
    int d_decimation;
    fir_method d_requested;
    bool d_rotating = false;
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
