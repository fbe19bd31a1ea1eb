/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_FIR_BLOCK_IMPL_H
#define INCLUDED_GPUFILTER_FIR_BLOCK_IMPL_H

#include "core/gpu_block.h"
#include "core/parameter_checks.h"
#include "fir/fir_computation.h"
#include <cstdint>
#include <vector>

namespace gr {
namespace gpufilter {

/*!
 * \brief A decimating FIR block on the block core, whatever its public class
 * (fir_filter_XXX, fft_filter_XXX): taps, gr-filter's set_taps rule, work().
 * GNU Radio's virtual base (sync_decimator) is built by the most derived class.
 */
template <class Public, class IN_T, class OUT_T, class TAP_T>
class fir_block_impl : public gpu_block<Public, cuda::fir_controls<TAP_T>>
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
    std::vector<TAP_T> d_taps;
    bool d_updated = false; // taps changed: history must follow first
};

template <class Public, class IN_T, class OUT_T, class TAP_T>
fir_block_impl<Public, IN_T, OUT_T, TAP_T>::fir_block_impl(int decimation,
                                                           const std::vector<TAP_T>& taps,
                                                           int device,
                                                           int batch_size,
                                                           filter_method method,
                                                           double max_latency)
    : gpu_block<Public, cuda::fir_controls<TAP_T>>(
          device,
          { 1, static_cast<std::uint64_t>(decimation) },
          checked_batch_size(batch_size),
          max_latency,
          fir_computation<IN_T, OUT_T, TAP_T>(checked_taps(taps), decimation, method)),
      d_taps(taps)
{
    this->set_history(taps.size());
}

template <class Public, class IN_T, class OUT_T, class TAP_T>
void fir_block_impl<Public, IN_T, OUT_T, TAP_T>::set_taps(const std::vector<TAP_T>& taps)
{
    checked_taps(taps);
    gr::thread::scoped_lock lock(this->d_setlock);
    // As gr-filter: the filter changes now, the history on the next work() call.
    d_taps = taps;
    this->controls().set_taps(taps);
    d_updated = true;
}

template <class Public, class IN_T, class OUT_T, class TAP_T>
std::vector<TAP_T> fir_block_impl<Public, IN_T, OUT_T, TAP_T>::taps() const
{
    return d_taps;
}

template <class Public, class IN_T, class OUT_T, class TAP_T>
int fir_block_impl<Public, IN_T, OUT_T, TAP_T>::work(
    int noutput_items,
    gr_vector_const_void_star& input_items,
    gr_vector_void_star& output_items)
{
    gr::thread::scoped_lock lock(this->d_setlock);
    if (d_updated) {
        this->set_history(d_taps.size());
        d_updated = false;
        this->d_core.history_changed();
        return 0; // the history requirement changed: let the scheduler re-window
    }
    return this->d_core.process(input_items,
                                static_cast<std::size_t>(noutput_items) *
                                    this->decimation(),
                                output_items);
}

} // namespace gpufilter
} // namespace gr

#endif
