/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_FIR_FILTER_IMPL_H
#define INCLUDED_GPUFILTER_FIR_FILTER_IMPL_H

#include "core/gpu_block.h"
#include "fir/fir_backend.h"
#include <gnuradio/gpufilter/fft_filter.h>
#include <gnuradio/gpufilter/fir_filter.h>

namespace gr {
namespace gpufilter {

/*!
 * \brief A decimating FIR block on the block core, whatever its public class
 * (fir_filter_XXX, fft_filter_XXX): taps, gr-filter's set_taps rule, work().
 * GNU Radio's virtual base (sync_decimator) is built by the most derived class.
 */
template <class Public, class IN_T, class OUT_T, class TAP_T>
class fir_block_impl : public gpu_block<Public>
{
public:
    void set_taps(const std::vector<TAP_T>& taps) override;
    std::vector<TAP_T> taps() const override;

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

protected:
    fir_block_impl(int decimation,
                   const std::vector<TAP_T>& taps,
                   int device,
                   int batch_size,
                   filter_method method,
                   double max_latency);

private:
    using backend = fir_backend<IN_T, OUT_T, TAP_T>;
    std::vector<TAP_T> d_taps;
    bool d_updated = false; // taps changed: history must follow first
};

template <class IN_T, class OUT_T, class TAP_T>
class fir_filter_impl
    : public fir_block_impl<fir_filter<IN_T, OUT_T, TAP_T>, IN_T, OUT_T, TAP_T>
{
public:
    fir_filter_impl(int decimation,
                    const std::vector<TAP_T>& taps,
                    int device,
                    int batch_size,
                    filter_method method,
                    double max_latency);
};

template <class IN_T, class OUT_T, class TAP_T>
class fft_filter_impl
    : public fir_block_impl<fft_filter<IN_T, OUT_T, TAP_T>, IN_T, OUT_T, TAP_T>
{
public:
    fft_filter_impl(int decimation,
                    const std::vector<TAP_T>& taps,
                    int nthreads,
                    int device,
                    int batch_size,
                    filter_method method,
                    double max_latency);

    void set_nthreads(int n) override;
    int nthreads() const override { return d_nthreads; }

private:
    int d_nthreads;
};

} // namespace gpufilter
} // namespace gr

#endif
