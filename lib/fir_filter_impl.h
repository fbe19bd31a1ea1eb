/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_FIR_FILTER_IMPL_H
#define INCLUDED_GPUFILTER_FIR_FILTER_IMPL_H

#include "batch_gate.h"
#include "cuda/fir_stream.h"
#include <gnuradio/filter/fir_filter.h>
#include <gnuradio/gpufilter/fir_filter.h>
#include <memory>

namespace gr {
namespace gpufilter {

template <class IN_T, class OUT_T, class TAP_T>
class fir_filter_impl : public fir_filter<IN_T, OUT_T, TAP_T>
{
public:
    fir_filter_impl(int decimation,
                    const std::vector<TAP_T>& taps,
                    int device,
                    int batch_size);

    void set_taps(const std::vector<TAP_T>& taps) override;
    std::vector<TAP_T> taps() const override;
    bool on_gpu() const override { return d_gpu != nullptr; }
    int device() const override { return d_device; }
    int batch_size() const override { return d_gate.batch_size(); }
    uint64_t largest_batch() const override { return d_largest_batch; }

    bool start() override;
    bool stop() override;
    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override;
    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    std::vector<TAP_T> d_taps;
    int d_device;
    // Exactly one of the two computes: the GPU path, or gr-filter's own CPU kernel.
    std::unique_ptr<cuda::fir_stream<IN_T, TAP_T>> d_gpu;
    std::unique_ptr<gr::filter::kernel::fir_filter<IN_T, OUT_T, TAP_T>> d_cpu;
    batch_gate d_gate;
    bool d_updated = false;      // taps changed: history must follow first
    bool d_history_stale = true; // the GPU must take its history from GNU Radio's window
    uint64_t d_largest_batch = 0;
};

} // namespace gpufilter
} // namespace gr

#endif
