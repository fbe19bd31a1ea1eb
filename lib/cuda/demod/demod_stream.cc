/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/resources.h"
#include "complex_to_real_engine.h"
#include "demod_stream.h"
#include "fm_demod_bank_engine.h"
#include "quadrature_demod_engine.h"
#include <memory>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {
template <class Engine, class... Args>
std::unique_ptr<processor> make_on(int device, Args&&... args)
{
    use_device(device);
    return std::make_unique<Engine>(std::forward<Args>(args)...);
}
} // namespace

quadrature_demod_stream::quadrature_demod_stream(int device,
                                                 float gain,
                                                 unsigned channels,
                                                 std::size_t max_chunk)
    : host_stream(
          device, make_on<quadrature_demod_engine>(device, gain, channels), max_chunk)
{
}

void quadrature_demod_stream::set_gain(float gain)
{
    // A kernel argument read when the next call is queued: nothing to synchronize.
    static_cast<quadrature_demod_engine&>(current()).set_gain(gain);
}

float quadrature_demod_stream::gain() const
{
    return static_cast<const quadrature_demod_engine&>(current()).gain();
}

complex_to_real_stream::complex_to_real_stream(int device,
                                               unsigned vlen,
                                               std::size_t max_chunk)
    : host_stream(device, make_on<complex_to_real_engine>(device, vlen), max_chunk)
{
}

fm_demod_bank_stream::fm_demod_bank_stream(int device,
                                           unsigned nchan,
                                           const std::vector<unsigned>& channels,
                                           unsigned decimation,
                                           const std::vector<float>& taps,
                                           float gain,
                                           deemphasis deemph,
                                           std::size_t max_chunk)
    : host_stream(device,
                  // The host path never hands the engine more than a sub-chunk.
                  make_on<fm_demod_bank_engine>(device,
                                                nchan,
                                                channels,
                                                decimation,
                                                taps,
                                                gain,
                                                deemph,
                                                sub_chunk_for(max_chunk)),
                  max_chunk)
{
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
