/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_PFB_ARB_COMPLEX_TAPS_H
#define INCLUDED_GPUFILTER_CUDA_PFB_ARB_COMPLEX_TAPS_H

#include "../common/resources.h"
#include "pfb_arb_resampler_engine.h"
#include "pfb_controls.h"
#include <cstddef>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief The arbitrary resampler with complex taps (gr-filter's pfb_arb_resampler_ccc):
 * two resamplers of the same complex input, one with the taps' real parts and one
 * with their imaginary parts, added as re + j*im. Every output is a sum of products of
 * taps (and their differences, which are as linear) with inputs, so this is the
 * complex-tap resampler up to float rounding; the two share rate, arms and schedule,
 * so their counts are one.
 */
class pfb_arb_complex_taps_engine final
    : public controlled_processor<pfb_arb_resampler_controls>
{
public:
    //! Uses the current device; throws as pfb_arb_resampler_engine does.
    pfb_arb_complex_taps_engine(float rate,
                                const std::vector<complex>& taps,
                                unsigned filter_size);

    void set_complex_taps(const std::vector<complex>& taps) override;
    void set_taps(const std::vector<float>& taps) override
    {
        set_complex_taps(std::vector<complex>(taps.begin(), taps.end()));
    }
    void set_rate(float rate) override;
    void set_phase(float phase) override;
    unsigned filter() const override { return d_re.filter(); }
    std::size_t skip() const override { return d_re.skip(); }
    std::size_t output_count(std::size_t n) const override
    {
        return d_re.output_count(n);
    }
    std::size_t inputs_for(std::size_t k) const override { return d_re.inputs_for(k); }
    std::size_t next_position(std::size_t n) const override
    {
        return d_re.next_position(n);
    }
    void clear_skip() override;

    const port_layout& ports() const override { return d_re.ports(); }
    std::size_t max_output_count(std::size_t n) const override
    {
        return d_re.max_output_count(n);
    }
    std::size_t process(const void* const* in,
                        std::size_t n,
                        void* const* out,
                        cudaStream_t s) override;
    std::size_t history_items() const override { return d_re.history_items(); }
    void set_history(const void* const* host, cudaStream_t s) override;
    const char* method() const override { return "pfb"; }

private:
    pfb_arb_resampler_engine<complex> d_re, d_im;
    device_buffer<complex> d_im_out; // the imaginary taps' outputs of a call
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
