/* SPDX-License-Identifier: GPL-3.0-or-later */
// The demodulation blocks' GPU paths: each engine behind a host_stream.
#include "../stream/gpu_path.h"
#include "complex_to_real_engine.h"
#include "demod_controls.h"
#include "fm_demod_bank_engine.h"
#include "quadrature_demod_engine.h"

namespace gr {
namespace gpufilter {
namespace cuda {

gpu_path<quadrature_demod_controls> make_quadrature_demod_path(int device,
                                                               std::size_t max_chunk,
                                                               float gain,
                                                               unsigned channels)
{
    return make_gpu_path<quadrature_demod_controls, quadrature_demod_engine>(
        device, max_chunk, gain, channels);
}

gpu_path<no_controls>
make_complex_to_real_path(int device, std::size_t max_chunk, unsigned vlen)
{
    return make_gpu_path<no_controls, complex_to_real_engine>(device, max_chunk, vlen);
}

gpu_path<no_controls> make_fm_demod_bank_path(int device,
                                              std::size_t max_chunk,
                                              unsigned nchan,
                                              const std::vector<unsigned>& channels,
                                              unsigned decimation,
                                              const std::vector<float>& taps,
                                              float gain,
                                              deemphasis deemph)
{
    // The host path never hands the engine more than a sub-chunk.
    return make_gpu_path<no_controls, fm_demod_bank_engine>(device,
                                                            max_chunk,
                                                            nchan,
                                                            channels,
                                                            decimation,
                                                            taps,
                                                            gain,
                                                            deemph,
                                                            sub_chunk_for(max_chunk));
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
