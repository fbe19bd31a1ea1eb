/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_RATIONAL_CPU_KERNEL_H
#define INCLUDED_GPUFILTER_RATIONAL_CPU_KERNEL_H

#include "core/cpu_kernel.h"
#include "cuda/resampler/rational_controls.h"
#include "cuda/resampler/rational_position.h"
#include <gnuradio/filter/fir_filter.h>
#include <memory>
#include <vector>

namespace gr {
namespace gpufilter {

/*!
 * \brief gr-filter's rational resampler on the CPU: one gr-filter FIR kernel per arm,
 * called as gr-filter's general_work() calls them, so the results are gr-filter's
 * (and its interp_fir_filter's, and with interpolation 1 its decimating fir_filter's).
 * Vector items (vlen > 1) are resampled lane by lane. With
 * rational_start::first_window the kernel keeps the T-1 samples before the new ones
 * itself, as GNU Radio's window does not hold them (rational_position.h).
 */
template <class In, class Out, class Tap>
class rational_cpu_kernel final
    : public controlled_cpu_kernel<cuda::rational_controls<Tap>>
{
public:
    rational_cpu_kernel(unsigned interpolation,
                        unsigned decimation,
                        const std::vector<Tap>& taps,
                        cuda::rational_start start,
                        unsigned vlen = 1);

    std::size_t
    process(const void* const* windows, std::size_t nnew, void* const* out) override;
    void restart() override;

    void set_taps(const std::vector<Tap>& taps) override;
    void set_rotation(const cuda::rotation& r) override;
    cuda::rotation next_rotation() const override { return {}; }
    std::size_t output_count(std::size_t n) const override
    {
        return d_position.output_count(n);
    }
    std::size_t inputs_for(std::size_t nout) const override
    {
        return d_position.inputs_for(nout);
    }
    std::size_t next_input(std::size_t n) const override
    {
        return d_position.next_input(n);
    }

private:
    //! Outputs for one lane: `in` its window (contiguous), `out` stride apart.
    void resample(const In* in, std::size_t count, Out* out, std::size_t stride) const;

    //! One lane of [kept history (first_window) | GNU Radio's window of `items`
    //! items] as contiguous samples: the window itself for a scalar stream with no
    //! kept history, else d_lane.
    const In* lane_window(const In* window, std::size_t items, unsigned lane);
    //! After a call: the kept history's newest samples from the nnew new items.
    void keep_history(const In* window, std::size_t nnew);

    unsigned d_vlen;
    cuda::rational_start d_start;
    unsigned d_taps_per_arm = 0;
    cuda::rational_position d_position;
    std::vector<std::unique_ptr<gr::filter::kernel::fir_filter<In, Out, Tap>>> d_arms;
    std::vector<In> d_history; // the T-1 items before the next new one (first_window)
    std::vector<In> d_lane;    // zeros (lane_lead), then one lane's window
};

} // namespace gpufilter
} // namespace gr

#endif
