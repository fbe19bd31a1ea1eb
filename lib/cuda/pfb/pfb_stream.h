/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_PFB_STREAM_H
#define INCLUDED_GPUFILTER_CUDA_PFB_STREAM_H

// Host-to-host polyphase channelizing and decimating on a GPU: the host path with a
// PFB engine, and the engine's controls. No CUDA types here, so the block layer can
// use it without seeing CUDA.

#include "../stream/host_stream.h"
#include <cstddef>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief pfb_channelizer_engine<In> behind a host_stream. \p vector_layout: one port
 * of numchans-sample vectors; otherwise one port per channel_map entry (an empty map
 * is 0..numchans-1).
 */
template <class In>
class pfb_channelizer_stream : public host_stream
{
public:
    pfb_channelizer_stream(int device,
                           unsigned numchans,
                           const std::vector<float>& taps,
                           float oversample_rate,
                           bool vector_layout,
                           const std::vector<int>& channel_map,
                           std::size_t max_chunk);

    //! New taps from the next output on; the caller sets the history again.
    void set_taps(const std::vector<float>& taps);
    //! A map of the current length changes the ports' channels from the next call
    //! on; a map of another length changes the number of ports, with a fresh engine
    //! (zero history, restarted phase): only between runs, before set_history().
    void set_channel_map(const std::vector<int>& map);
    //! Calls of up to max_chunk input samples in whole sub-chunks: the engine's memory
    //! does not depend on them.
    using host_stream::set_max_chunk;
    std::size_t nports() const;

private:
    unsigned d_numchans;
    float d_oversample_rate;
    bool d_vector;
};

/*!
 * \brief pfb_decimator_engine<In> behind a host_stream.
 */
template <class In>
class pfb_decimator_stream : public host_stream
{
public:
    pfb_decimator_stream(int device,
                         unsigned decim,
                         const std::vector<float>& taps,
                         unsigned channel,
                         bool use_fft_rotator,
                         bool use_fft_filters,
                         std::size_t max_chunk);

    void set_taps(const std::vector<float>& taps);
    void set_channel(unsigned channel);
};

/*!
 * \brief pfb_interpolator_engine behind a host_stream.
 */
class pfb_interpolator_stream : public host_stream
{
public:
    pfb_interpolator_stream(int device,
                            unsigned interp,
                            const std::vector<float>& taps,
                            std::size_t max_chunk);

    //! New taps from the next call on; the caller sets the history again.
    void set_taps(const std::vector<float>& taps);
};

/*!
 * \brief pfb_synthesizer_engine behind a host_stream: one input port per entry of
 * the map it is given (the block's connected inputs).
 */
class pfb_synthesizer_stream : public host_stream
{
public:
    pfb_synthesizer_stream(int device,
                           unsigned numchans,
                           const std::vector<float>& taps,
                           bool twox,
                           const std::vector<int>& port_map,
                           std::size_t max_chunk);

    void set_taps(const std::vector<float>& taps);
    //! A map of the current length changes the bins from the next call on; another
    //! length changes the number of input ports, with a fresh engine (zero state):
    //! only between runs.
    void set_channel_map(const std::vector<int>& port_map);

private:
    unsigned d_numchans;
    bool d_twox;
};

/*!
 * \brief pfb_arb_resampler_engine<T> (T: float or complex) behind a host_stream, with
 * gr-filter's resampler controls. output_count(n) depends on the state; skip() is the
 * input position of the next output past the consumed samples.
 */
template <class T>
class pfb_arb_resampler_stream : public host_stream
{
public:
    pfb_arb_resampler_stream(int device,
                             float rate,
                             const std::vector<float>& taps,
                             unsigned filter_size,
                             std::size_t max_chunk);

    //! New taps from the next output on; the caller sets the history again.
    void set_taps(const std::vector<float>& taps);
    void set_rate(float rate);
    void set_filter(unsigned filter);
    unsigned filter() const;
    float acc() const;
    std::size_t skip() const;
    //! A call of this many samples gives at most k outputs (the position of output k).
    std::size_t inputs_for(std::size_t k) const;
    //! The position of the output after those n samples give (>= n).
    std::size_t next_position(std::size_t n) const;
    void clear_skip();
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
