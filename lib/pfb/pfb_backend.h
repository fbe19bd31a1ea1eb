/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_PFB_BACKEND_H
#define INCLUDED_GPUFILTER_PFB_BACKEND_H

#include "core/block_core.h"
#include "cuda/pfb/arb_schedule.h"
#include <gnuradio/fft/fft.h>
#include <gnuradio/filter/fir_filter_with_buffer.h>
#include <gnuradio/filter/pfb_arb_resampler.h>
#include <gnuradio/filter/polyphase_filterbank.h>
#include <gnuradio/gr_complex.h>
#include <type_traits>
#include <cstddef>
#include <string>
#include <vector>

namespace gr {
namespace gpufilter {

//! gr-filter's split of prototype taps over nfilts branch filters (its taps()).
std::vector<std::vector<float>> polyphase_split(unsigned nfilts,
                                                const std::vector<float>& taps);
//! Branch taps T = ceil(ntaps / nfilts): the blocks' history is nfilts*T.
unsigned taps_per_filter(unsigned nfilts, const std::vector<float>& taps);
//! Least number of steps m with m*R a multiple of numchans: a work() call of whole
//! multiples of it starts on a stream_to_streams row, as gr-filter's output_multiple.
int channelizer_output_multiple(unsigned numchans, int rate_ratio);
//! gr-filter's output_multiple of a decimator with FFT branch filters (its FFT size
//! minus the branch taps plus one).
int fft_filter_output_multiple(unsigned decim, const std::vector<float>& taps);

/*!
 * \brief gr-filter's channelizer (stream_to_streams then pfb_channelizer_ccf's
 * general_work) on a wideband window: the CPU fallback. In is the stored sample
 * type (gr_complex or an IQ pair), converted as the GPU converts it.
 */
template <class In>
class cpu_pfb_channelizer final : public cpu_kernel,
                                  private gr::filter::kernel::polyphase_filterbank
{
public:
    cpu_pfb_channelizer(unsigned numchans,
                        const std::vector<float>& taps,
                        int rate_ratio,
                        bool vector_layout,
                        const std::vector<int>& map);

    //! nnew: a multiple of numchans and of R (the block's output_multiple).
    std::size_t
    process(const void* const* windows, std::size_t nnew, void* const* out) override;

    void set_taps(const std::vector<float>& taps)
    {
        polyphase_filterbank::set_taps(taps);
    }
    void set_channel_map(const std::vector<int>& map) { d_map = map; }

private:
    int d_rate;
    bool d_vector;
    std::vector<int> d_map; // one entry per output port (streams layout)
    std::vector<int> d_idxlut;
    std::vector<std::vector<gr_complex>> d_streams; // stream_to_streams' outputs
};

/*!
 * \brief gr-filter's pfb_decimator_ccf work (the rotate-by-FFT and rotate-by-table
 * paths, direct-form branch filters) on a wideband window: the CPU fallback.
 */
class cpu_pfb_decimator final : public cpu_kernel,
                                private gr::filter::kernel::polyphase_filterbank
{
public:
    cpu_pfb_decimator(unsigned decim,
                      const std::vector<float>& taps,
                      unsigned channel,
                      bool use_fft_rotator);

    std::size_t
    process(const void* const* windows, std::size_t nnew, void* const* out) override;

    void set_taps(const std::vector<float>& taps)
    {
        polyphase_filterbank::set_taps(taps);
    }
    void set_channel(unsigned channel);

private:
    unsigned d_channel;
    bool d_use_fft_rotator;
    std::vector<gr_complex> d_rotator;
    std::vector<std::vector<gr_complex>> d_streams;
};

/*!
 * \brief The channelizer blocks' computation: cuda::pfb_channelizer_stream<In> or
 * cpu_pfb_channelizer<In>, made for a block_core and controlled through it.
 */
template <class In>
struct pfb_channelizer_backend {
    static block_core::backends make(unsigned numchans,
                                     const std::vector<float>& taps,
                                     float oversample_rate,
                                     bool vector_layout,
                                     const std::vector<int>& map);
    //! New taps from the next step on (the block sets its history, as gr-filter).
    static void set_taps(block_core& core, const std::vector<float>& taps);
    //! One entry per output port; another length only between runs.
    static void set_channel_map(block_core& core, const std::vector<int>& map);
    //! Between runs: GPU transfers of up to this many input samples (no effect on
    //! the CPU).
    static void set_max_chunk(block_core& core, std::size_t samples);
};

//! The decimator block's computation: cuda::pfb_decimator_stream or cpu_pfb_decimator.
struct pfb_decimator_backend {
    static block_core::backends make(unsigned decim,
                                     const std::vector<float>& taps,
                                     unsigned channel,
                                     bool use_fft_rotator,
                                     bool use_fft_filters);
    static void set_taps(block_core& core, const std::vector<float>& taps);
    static void set_channel(block_core& core, unsigned channel);
};

// ---- synthesis side: interpolator and synthesizer ----

//! gr-filter's pfb_synthesizer_ccf taps(): numchans lists (set_taps1), or with twox
//! 2*numchans lists, filter i the odd taps of branch i and numchans+i the even ones
//! (set_taps2), each ceil(ntaps/numchans) long.
std::vector<std::vector<float>>
synthesizer_split(unsigned numchans, const std::vector<float>& taps, bool twox);

/*!
 * \brief gr-filter's pfb_interpolator_ccf work() on a window (history T-1 old
 * inputs): the CPU fallback.
 */
class cpu_pfb_interpolator final : public cpu_kernel,
                                   private gr::filter::kernel::polyphase_filterbank
{
public:
    cpu_pfb_interpolator(unsigned interp, const std::vector<float>& taps);
    std::size_t
    process(const void* const* windows, std::size_t nnew, void* const* out) override;
    void set_taps(const std::vector<float>& taps)
    {
        polyphase_filterbank::set_taps(taps);
    }
};

/*!
 * \brief gr-filter's pfb_synthesizer_ccf work() (its filters with buffers, its
 * fft_complex_rev, its 2x mode's d_state) on one window per connected input: the
 * CPU fallback.
 */
class cpu_pfb_synthesizer final : public cpu_kernel
{
public:
    //! port_map: the bin of each connected input.
    cpu_pfb_synthesizer(unsigned numchans,
                        const std::vector<float>& taps,
                        bool twox,
                        const std::vector<int>& port_map);
    std::size_t
    process(const void* const* windows, std::size_t nnew, void* const* out) override;
    void set_taps(const std::vector<float>& taps);
    void set_channel_map(const std::vector<int>& port_map);

private:
    unsigned d_numchans;
    unsigned d_twox;
    std::vector<int> d_map;
    std::vector<gr::filter::kernel::fir_filter_with_buffer_ccf> d_filters;
    gr::fft::fft_complex_rev d_fft;
    unsigned d_state = 0;
};

//! The interpolator block's computation: cuda::pfb_interpolator_stream or
//! cpu_pfb_interpolator.
struct pfb_interpolator_backend {
    static block_core::backends make(unsigned interp, const std::vector<float>& taps);
    //! New taps from the next call on (the block sets its history, as gr-filter).
    static void set_taps(block_core& core, const std::vector<float>& taps);
};

//! The synthesizer block's computation: cuda::pfb_synthesizer_stream or
//! cpu_pfb_synthesizer, with one input port per port_map entry.
struct pfb_synthesizer_backend {
    static block_core::backends make(unsigned numchans,
                                     const std::vector<float>& taps,
                                     bool twox,
                                     const std::vector<int>& port_map);
    static void set_taps(block_core& core, const std::vector<float>& taps);
    //! One entry per connected input; another length only between runs.
    static void set_channel_map(block_core& core, const std::vector<int>& port_map);
};

/*!
 * \brief gr-filter's arbitrary resampler kernel (pfb_arb_resampler_ccf/fff::filter)
 * on a window: the CPU fallback. Beside it the same schedule the GPU uses
 * (cuda::arb_schedule) gives output counts before a call, and checks after each call
 * that it followed gr-filter's kernel exactly.
 */
template <class T>
class cpu_pfb_arb_resampler final : public cpu_kernel
{
public:
    using kernel_type = std::conditional_t<std::is_same_v<T, gr_complex>,
                                           gr::filter::kernel::pfb_arb_resampler_ccf,
                                           gr::filter::kernel::pfb_arb_resampler_fff>;

    cpu_pfb_arb_resampler(float rate, const std::vector<float>& taps, unsigned nfilts);

    //! nnew new samples after the window's history; outputs at positions < nnew.
    std::size_t
    process(const void* const* windows, std::size_t nnew, void* const* out) override;

    kernel_type& kernel() { return d_kernel; }
    cuda::arb_schedule& schedule() { return d_sched; }

private:
    kernel_type d_kernel;
    cuda::arb_schedule d_sched; // the same state: counts, and the input position
};

/*!
 * \brief The arbitrary resampler blocks' computation: cuda::pfb_arb_resampler_stream<T>
 * or cpu_pfb_arb_resampler<T>, and the resampler's state on whichever runs.
 */
template <class T>
struct pfb_arb_resampler_backend {
    static block_core::backends
    make(float rate, const std::vector<float>& taps, unsigned filter_size);
    static void set_taps(block_core& core, const std::vector<float>& taps);
    static void set_rate(block_core& core, float rate);
    //! gr-filter's set_phase (already checked): the next output's arm.
    static void set_phase(block_core& core, float ph, unsigned nfilts);
    //! The next output's arm (gr-filter's d_last_filter).
    static unsigned filter(block_core& core);
    //! Input position of the next output past the consumed samples.
    static std::size_t skip(block_core& core);
    //! Outputs the next n new samples give.
    static std::size_t output_count(block_core& core, std::size_t n);
    //! New samples that give at most k outputs.
    static std::size_t inputs_for(block_core& core, std::size_t k);
    //! The position of the output after those the next n new samples give (>= n).
    static std::size_t next_position(block_core& core, std::size_t n);
    //! A restarted stream starts at the next output.
    static void clear_skip(block_core& core);
};

} // namespace gpufilter
} // namespace gr

#endif
