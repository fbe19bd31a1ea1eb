/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_DEMOD_CONTROLS_H
#define INCLUDED_GPUFILTER_CUDA_DEMOD_CONTROLS_H

// The demodulation blocks' controls (one interface for the GPU engine and the CPU
// kernel alike) and their GPU paths. No CUDA types.

#include "../stream/host_stream.h"
#include "deemphasis.h"
#include <cstddef>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

//! The quadrature demodulator: its gain, from the next call on.
class quadrature_demod_controls
{
public:
    virtual ~quadrature_demod_controls() = default;
    virtual void set_gain(float gain) = 0;
};

//! quadrature_demod_engine on `device` behind a host_stream: `channels` channels as
//! items of that many samples (GNU Radio's vector stream; 1 for a plain stream).
gpu_path<quadrature_demod_controls> make_quadrature_demod_path(int device,
                                                               std::size_t max_chunk,
                                                               float gain,
                                                               unsigned channels);

//! complex_to_real_engine behind a host_stream (items of vlen samples).
gpu_path<no_controls>
make_complex_to_real_path(int device, std::size_t max_chunk, unsigned vlen);

//! fm_demod_bank_engine behind a host_stream: items of nchan samples in, items of
//! channels.size() floats out, one per `decimation` items.
gpu_path<no_controls> make_fm_demod_bank_path(int device,
                                              std::size_t max_chunk,
                                              unsigned nchan,
                                              const std::vector<unsigned>& channels,
                                              unsigned decimation,
                                              const std::vector<float>& taps,
                                              float gain,
                                              deemphasis deemph);

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
