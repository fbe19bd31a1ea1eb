/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_FIR_FILTER_2D_IMPL_H
#define INCLUDED_GPUFILTER_FIR_FILTER_2D_IMPL_H

#include "core/gpu_block.h"
#include "cuda/fir2d/fir2d_controls.h"
#include <gnuradio/gpufilter/fir_filter_2d.h>
#include <algorithm>

namespace gr {
namespace gpufilter {

//! The kernel from rows of taps: not empty, rectangular, finite; std::invalid_argument
//! naming `taps` otherwise, or naming `method` for a method that cannot run it.
//! The engine's method for a block's (automatic: the module's default first).
cuda::fir2d_method fir2d_engine_method(filter_method m);

template <class Tap>
cuda::kernel2d<Tap> checked_kernel2d(const std::vector<std::vector<Tap>>& rows,
                                     filter_method method);

template <class IN_T, class OUT_T, class TAP_T>
class fir_filter_2d_impl
    : public gpu_block<fir_filter_2d<IN_T, OUT_T, TAP_T>, cuda::fir2d_controls<TAP_T>>
{
public:
    fir_filter_2d_impl(unsigned vlen,
                       const cuda::kernel2d<TAP_T>& kernel,
                       int device,
                       int batch_size,
                       filter_method method,
                       double max_latency);

    void set_taps(const std::vector<std::vector<TAP_T>>& taps) override;
    std::vector<std::vector<TAP_T>> taps() const override;
    unsigned vlen() const override { return d_vlen; }
    int delay() const override;
    // The core counts rows; the block's options count samples, as every block's.
    int batch_size() const override { return d_batch_size; }
    int current_batch_size() const override
    {
        return static_cast<int>(std::min<long long>(
            static_cast<long long>(this->d_core.current_batch_size()) * d_vlen,
            d_batch_size));
    }
    uint64_t largest_batch() const override
    {
        return this->d_core.largest_batch() * d_vlen;
    }

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    unsigned d_vlen;
    int d_batch_size; // samples, as given
    filter_method d_method;
    cuda::kernel2d<TAP_T> d_kernel;
    bool d_updated = false; // taps changed: history must follow first
};

} // namespace gpufilter
} // namespace gr

#endif
