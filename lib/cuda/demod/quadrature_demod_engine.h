/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_QUADRATURE_DEMOD_ENGINE_H
#define INCLUDED_GPUFILTER_CUDA_QUADRATURE_DEMOD_ENGINE_H

#include "../common/resources.h"
#include "../common/sample_types.h"
#include "../stream/processor.h"
#include "demod_controls.h"
#include <array>
#include <cstddef>

namespace gr {
namespace gpufilter {
namespace cuda {

//! How the samples of several channels lie in one call's buffers.
enum class demod_layout {
    //! GNU Radio's vector stream: item t holds sample t of every channel
    //! (x[t*channels + c]), as a channelizer's vector output gives them. Any split of
    //! the stream into calls works, so it suits host_stream.
    interleaved,
    //! One row per channel: a call of n items holds channel c's n samples at
    //! x[c*n .. c*n + n-1] (and writes its outputs the same way). For device-resident
    //! callers that hand over whole rows; host_stream's sub-chunks would cut the rows.
    channel_major,
};

//! The 257 floats of GNU Radio 3.10's gr::fast_atan2f table: atan(k/255) for
//! k = 0..255, printed with 7 significant digits, and the last entry repeated.
std::array<float, 257> fast_atan2f_table();

/*!
 * \brief Quadrature (FM) demodulator on device-resident samples: GNU Radio 3.10's
 * gr::analog::quadrature_demod_cf(gain), for one channel or many at once.
 *
 * Per channel, out[t] = gain * fast_atan2f(x[t] * conj(x[t-1])), computed as gr-analog
 * does, step by step (quadrature_math.h): the conjugate product as volk computes it on
 * x86-64 with FMA, gr::fast_atan2f's table lookup with linear interpolation (its
 * table, fast_atan2f_table()) with IEEE division, and the float product with the
 * gain. Where GNU Radio's volk runs that kernel the outputs are gr-analog's bit for
 * bit (on an x86-64 host with AVX2/FMA, 99.995 % of the block tests' outputs; the
 * others, and volk's plain SSE/AVX kernels, differ by about 1e-7 rad times the gain).
 * fast_atan2f itself is within 1.6e-6 rad of atan2.
 *
 * History: one item (the previous sample of every channel), zero at the start, as
 * GNU Radio's window gives it (the block's history() is 2); set_history() replaces it.
 */
class quadrature_demod_engine final
    : public controlled_processor<quadrature_demod_controls>
{
public:
    //! Uses the current device. Throws std::invalid_argument for a gain that is not
    //! finite or channels == 0.
    explicit quadrature_demod_engine(float gain,
                                     unsigned channels = 1,
                                     demod_layout layout = demod_layout::interleaved);

    //! The gain from the next process() call on (a kernel argument: no device work).
    //! A kernel argument read when the next call is queued: nothing to wait for.
    void set_gain(float gain) override;
    float gain() const { return d_gain; }
    unsigned channels() const { return d_channels; }
    demod_layout layout() const { return d_layout; }

    const port_layout& ports() const override { return d_ports; }
    std::size_t output_count(std::size_t n) const override { return n; }
    std::size_t max_output_count(std::size_t n) const override { return n; }
    std::size_t process(const void* const* in,
                        std::size_t n,
                        void* const* out,
                        cudaStream_t s) override;
    std::size_t history_items() const override { return 1; }
    //! host[0]: one item, the previous sample of each channel (channels samples).
    void set_history(const void* const* host, cudaStream_t s) override;
    const char* method() const override { return "quadrature_demod"; }

private:
    float d_gain;
    unsigned d_channels;
    demod_layout d_layout;
    port_layout d_ports;
    device_buffer<float> d_table;  // fast_atan2f_table()
    device_buffer<complex> d_prev; // two rows of channels samples, ping-pong
    int d_current = 0;             // the row that holds the previous samples
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
