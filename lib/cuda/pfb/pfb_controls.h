/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_PFB_CONTROLS_H
#define INCLUDED_GPUFILTER_CUDA_PFB_CONTROLS_H

// The polyphase blocks' controls, one interface per block kind for the GPU engine and
// the CPU kernel alike (a block holds it and never asks which one computes), and the
// GPU paths the blocks run. No CUDA types.

#include "../common/sample_types.h"
#include "../stream/host_stream.h"
#include <cstddef>
#include <stdexcept>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

//! Every polyphase block: new prototype taps from the next output on (the block then
//! sets its history again, as gr-filter).
class pfb_taps_controls
{
public:
    virtual ~pfb_taps_controls() = default;
    virtual void set_taps(const std::vector<float>& taps) = 0;
};

//! The channelizer: one map entry per output port. A map of another length changes
//! the number of ports and restarts the filters: only between runs.
class pfb_channelizer_controls : public pfb_taps_controls
{
public:
    virtual void set_channel_map(const std::vector<int>& map) = 0;
};

//! The decimator: the channel it keeps, from the next call on.
class pfb_decimator_controls : public pfb_taps_controls
{
public:
    virtual void set_channel(unsigned channel) = 0;
};

//! The interpolator: its taps only.
using pfb_interpolator_controls = pfb_taps_controls;

//! The synthesizer: one map entry (an FFT bin) per connected input. A map of another
//! length changes the number of inputs and restarts the filters: only between runs.
class pfb_synthesizer_controls : public pfb_taps_controls
{
public:
    virtual void set_channel_map(const std::vector<int>& map) = 0;
};

//! The arbitrary resampler: gr-filter's controls, and the counts its block's
//! scheduling needs (positions are relative to the next call's first new sample).
class pfb_arb_resampler_controls : public pfb_taps_controls
{
public:
    virtual void set_rate(float rate) = 0;
    //! gr-filter's set_phase (already checked to be in [0, 2 pi)).
    virtual void set_phase(float phase) = 0;
    //! The next output's arm (gr-filter's d_last_filter).
    virtual unsigned filter() const = 0;
    //! Input position of the next output past the consumed samples.
    virtual std::size_t skip() const = 0;
    //! Outputs the next n new samples give.
    virtual std::size_t output_count(std::size_t n) const = 0;
    //! New samples that give at most k outputs.
    virtual std::size_t inputs_for(std::size_t k) const = 0;
    //! The position of the output after those the next n new samples give (>= n).
    virtual std::size_t next_position(std::size_t n) const = 0;
    //! A restarted stream starts at the next output.
    virtual void clear_skip() = 0;
    //! Complex prototype taps (pfb_arb_resampler_ccc's); a resampler of real taps
    //! throws std::logic_error.
    virtual void set_complex_taps(const std::vector<complex>& /*taps*/)
    {
        throw std::logic_error("set_complex_taps: this resampler's taps are real");
    }
};

//! gr-filter's set_phase arithmetic: the arm of a phase in [0, 2 pi) of nfilts.
unsigned arb_filter_of_phase(float phase, unsigned nfilts);

// The GPU paths: each engine on `device` behind a host_stream of max_chunk input
// items a sub-chunk ring (pfb_*_engine.h has each one's definition). In: complex
// (std::complex<float>) or the channelizer's interleaved IQ types (pfb_types.h).

template <class In>
gpu_path<pfb_channelizer_controls>
make_pfb_channelizer_path(int device,
                          std::size_t max_chunk,
                          unsigned numchans,
                          const std::vector<float>& taps,
                          float oversample_rate,
                          bool vector_layout,
                          const std::vector<int>& map);

gpu_path<pfb_decimator_controls> make_pfb_decimator_path(int device,
                                                         std::size_t max_chunk,
                                                         unsigned decim,
                                                         const std::vector<float>& taps,
                                                         unsigned channel,
                                                         bool use_fft_rotator,
                                                         bool use_fft_filters);

gpu_path<pfb_interpolator_controls> make_pfb_interpolator_path(
    int device, std::size_t max_chunk, unsigned interp, const std::vector<float>& taps);

gpu_path<pfb_synthesizer_controls>
make_pfb_synthesizer_path(int device,
                          std::size_t max_chunk,
                          unsigned numchans,
                          const std::vector<float>& taps,
                          bool twox,
                          const std::vector<int>& port_map);

//! T: float or std::complex<float>.
template <class T>
gpu_path<pfb_arb_resampler_controls>
make_pfb_arb_resampler_path(int device,
                            std::size_t max_chunk,
                            float rate,
                            const std::vector<float>& taps,
                            unsigned filter_size);

//! pfb_arb_resampler_ccc's: complex input, output and taps (pfb_arb_complex_taps.h).
gpu_path<pfb_arb_resampler_controls>
make_pfb_arb_resampler_ccc_path(int device,
                                std::size_t max_chunk,
                                float rate,
                                const std::vector<complex>& taps,
                                unsigned filter_size);

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
