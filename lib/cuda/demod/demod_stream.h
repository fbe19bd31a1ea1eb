/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_DEMOD_STREAM_H
#define INCLUDED_GPUFILTER_CUDA_DEMOD_STREAM_H

// Host-to-host demodulation on a GPU: the host path with a demod-family engine, and
// the engine's controls. No CUDA types here, so the block layer can use it.

#include "../stream/host_stream.h"
#include "deemphasis.h"
#include <cstddef>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief quadrature_demod_engine behind a host_stream: `channels` channels as items
 * of that many samples (GNU Radio's vector stream; 1 for a plain stream).
 */
class quadrature_demod_stream : public host_stream
{
public:
    quadrature_demod_stream(int device,
                            float gain,
                            unsigned channels,
                            std::size_t max_chunk);
    //! The gain from the next process() call on.
    void set_gain(float gain);
    float gain() const;
};

/*!
 * \brief complex_to_real_engine behind a host_stream (items of vlen samples).
 */
class complex_to_real_stream : public host_stream
{
public:
    complex_to_real_stream(int device, unsigned vlen, std::size_t max_chunk);
};

/*!
 * \brief fm_demod_bank_engine behind a host_stream: items of nchan samples in, items
 * of channels.size() floats out, one per `decimation` items.
 */
class fm_demod_bank_stream : public host_stream
{
public:
    fm_demod_bank_stream(int device,
                         unsigned nchan,
                         const std::vector<unsigned>& channels,
                         unsigned decimation,
                         const std::vector<float>& taps,
                         float gain,
                         deemphasis deemph,
                         std::size_t max_chunk);
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
