/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_PFB_CPU_KERNELS_H
#define INCLUDED_GPUFILTER_PFB_CPU_KERNELS_H

// The polyphase blocks' CPU fallbacks: gr-filter's own kernels, run as its blocks
// run them, each also its block's controls (cuda/pfb/pfb_controls.h).

#include "core/cpu_kernel.h"
#include "cuda/pfb/arb_schedule.h"
#include "cuda/pfb/pfb_controls.h"
#include <gnuradio/fft/fft.h>
#include <gnuradio/filter/fir_filter_with_buffer.h>
#include <gnuradio/filter/pfb_arb_resampler.h>
#include <gnuradio/filter/polyphase_filterbank.h>
#include <gnuradio/gr_complex.h>
#include <type_traits>
#include <cstddef>
#include <vector>

namespace gr {
namespace gpufilter {

/*!
 * \brief gr-filter's channelizer (stream_to_streams then pfb_channelizer_ccf's
 * general_work) on a wideband window: the CPU fallback. In is the stored sample
 * type (gr_complex or an IQ pair), converted as the GPU converts it.
 */
template <class In>
class pfb_channelizer_cpu_kernel final
    : public controlled_cpu_kernel<cuda::pfb_channelizer_controls>,
      private gr::filter::kernel::polyphase_filterbank
{
public:
    pfb_channelizer_cpu_kernel(unsigned numchans,
                               const std::vector<float>& taps,
                               int rate_ratio,
                               bool vector_layout,
                               const std::vector<int>& map);

    //! nnew: a multiple of numchans and of R (the block's output_multiple).
    std::size_t
    process(const void* const* windows, std::size_t nnew, void* const* out) override;

    void set_taps(const std::vector<float>& taps) override
    {
        polyphase_filterbank::set_taps(taps);
    }
    void set_channel_map(const std::vector<int>& map) override { d_map = map; }

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
class pfb_decimator_cpu_kernel final
    : public controlled_cpu_kernel<cuda::pfb_decimator_controls>,
      private gr::filter::kernel::polyphase_filterbank
{
public:
    pfb_decimator_cpu_kernel(unsigned decim,
                             const std::vector<float>& taps,
                             unsigned channel,
                             bool use_fft_rotator);

    std::size_t
    process(const void* const* windows, std::size_t nnew, void* const* out) override;

    void set_taps(const std::vector<float>& taps) override
    {
        polyphase_filterbank::set_taps(taps);
    }
    void set_channel(unsigned channel) override;

private:
    unsigned d_channel;
    bool d_use_fft_rotator;
    std::vector<gr_complex> d_rotator;
    std::vector<std::vector<gr_complex>> d_streams;
};

/*!
 * \brief gr-filter's pfb_interpolator_ccf work() on a window (history T-1 old
 * inputs): the CPU fallback.
 */
class pfb_interpolator_cpu_kernel final
    : public controlled_cpu_kernel<cuda::pfb_interpolator_controls>,
      private gr::filter::kernel::polyphase_filterbank
{
public:
    pfb_interpolator_cpu_kernel(unsigned interp, const std::vector<float>& taps);
    std::size_t
    process(const void* const* windows, std::size_t nnew, void* const* out) override;
    void set_taps(const std::vector<float>& taps) override
    {
        polyphase_filterbank::set_taps(taps);
    }
};

/*!
 * \brief gr-filter's pfb_synthesizer_ccf work() (its filters with buffers, its
 * fft_complex_rev, its 2x mode's d_state) on one window per connected input: the
 * CPU fallback.
 */
class pfb_synthesizer_cpu_kernel final
    : public controlled_cpu_kernel<cuda::pfb_synthesizer_controls>
{
public:
    //! port_map: the bin of each connected input.
    pfb_synthesizer_cpu_kernel(unsigned numchans,
                               const std::vector<float>& taps,
                               bool twox,
                               const std::vector<int>& port_map);
    std::size_t
    process(const void* const* windows, std::size_t nnew, void* const* out) override;
    void set_taps(const std::vector<float>& taps) override;
    void set_channel_map(const std::vector<int>& port_map) override;

private:
    unsigned d_numchans;
    unsigned d_twox;
    std::vector<int> d_map;
    std::vector<gr::filter::kernel::fir_filter_with_buffer_ccf> d_filters;
    gr::fft::fft_complex_rev d_fft;
    unsigned d_state = 0;
};

/*!
 * \brief gr-filter's arbitrary resampler kernel (pfb_arb_resampler_ccf/fff/ccc::filter)
 * on a window: the CPU fallback. Beside it the same schedule the GPU uses
 * (cuda::arb_schedule) gives output counts before a call, and checks after each call
 * that it followed gr-filter's kernel exactly. Tap: float, or gr_complex for ccc.
 */
template <class T, class Tap = float>
class pfb_arb_resampler_cpu_kernel final
    : public controlled_cpu_kernel<cuda::pfb_arb_resampler_controls>
{
public:
    using kernel_type =
        std::conditional_t<std::is_same_v<Tap, gr_complex>,
                           gr::filter::kernel::pfb_arb_resampler_ccc,
                           std::conditional_t<std::is_same_v<T, gr_complex>,
                                              gr::filter::kernel::pfb_arb_resampler_ccf,
                                              gr::filter::kernel::pfb_arb_resampler_fff>>;

    pfb_arb_resampler_cpu_kernel(float rate,
                                 const std::vector<Tap>& taps,
                                 unsigned nfilts);

    //! nnew new samples after the window's history; outputs at positions < nnew.
    std::size_t
    process(const void* const* windows, std::size_t nnew, void* const* out) override;

    void set_taps(const std::vector<float>& taps) override
    {
        d_kernel.set_taps(std::vector<Tap>(taps.begin(), taps.end()));
    }
    void set_complex_taps(const std::vector<gr_complex>& taps) override;
    void set_rate(float rate) override;
    void set_phase(float phase) override;
    unsigned filter() const override { return d_sched.filter(); }
    std::size_t skip() const override { return d_sched.skip(); }
    std::size_t output_count(std::size_t n) const override;
    std::size_t inputs_for(std::size_t k) const override;
    std::size_t next_position(std::size_t n) const override;
    void clear_skip() override { d_sched.clear_skip(); }

private:
    kernel_type d_kernel;
    unsigned d_nfilts;
    cuda::arb_schedule d_sched; // the same state: counts, and the input position
};

} // namespace gpufilter
} // namespace gr

#endif
