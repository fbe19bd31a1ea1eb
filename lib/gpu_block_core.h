/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_GPU_BLOCK_CORE_H
#define INCLUDED_GPUFILTER_GPU_BLOCK_CORE_H

#include "batch_gate.h"
#include "cuda/stream/fir_stream.h"
#include <gnuradio/block.h>
#include <gnuradio/logger.h>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpufilter {

/*!
 * \brief What every FIR-based GPU block does around its engine, written once.
 *
 * A block owns one core. The core owns the batch gate (batching from the neighbours'
 * buffers), the GPU filter (absent on the CPU fallback), the rule that the GPU takes
 * its history from GNU Radio's window after a (re)start or new taps, the in-place
 * DMA to GNU Radio's buffers, and the error path: a CUDA failure is logged with
 * CUDA's message and ends the stream instead of killing the block's thread (which
 * would hang the flowgraph).
 */
template <class In, class Tap>
class gpu_block_core
{
public:
    using out_type = typename cuda::fir_stream<In, Tap>::out_type;

    //! device: a CUDA index or device_cpu (already resolved by select_device).
    gpu_block_core(gr::block& block,
                   gr::logger_ptr logger,
                   int device,
                   const std::vector<Tap>& gpu_taps,
                   int decimation,
                   int batch_size,
                   const std::string& method = "auto");

    bool on_gpu() const { return d_gpu != nullptr; }
    int device() const { return d_device; }
    //! "direct" or "fft" (the GPU's algorithm), or "cpu" on the CPU fallback.
    std::string fir_method() const { return d_gpu ? d_gpu->method() : "cpu"; }
    cuda::fir_stream<In, Tap>& gpu() { return *d_gpu; }
    const cuda::fir_stream<In, Tap>& gpu() const { return *d_gpu; }
    int batch_size() const { return d_gate.batch_size(); }
    uint64_t largest_batch() const { return d_largest_batch; }

    void start(); //!< from the block's start()
    void stop();  //!< from the block's stop()
    //! gr-filter's forecast, raised to a whole batch while upstream is running.
    void forecast(int noutput_items, gr_vector_int& ninput_items_required) const;
    //! The block's history (length) changed: reload the GPU's from the next window.
    void history_changed() { d_history_stale = true; }
    //! Counts a work() call's new samples (largest_batch()).
    void note_batch(std::size_t nnew);

    //! Filters a GNU Radio window (history()-1 old samples, then nnew new ones) on
    //! the GPU. False when the GPU failed: the error is logged; return WORK_DONE.
    bool filter(const In* window, std::size_t nnew, out_type* out);

    //! Runs f(); an exception from it (a CUDA failure) is logged and gives false.
    template <class F>
    bool guarded(F&& f)
    {
        try {
            f();
            return true;
        } catch (const std::exception& e) {
            log_failure(e);
            return false;
        }
    }

private:
    void register_buffers();
    void log_failure(const std::exception& e) const;

    gr::block& d_block;
    gr::logger_ptr d_logger; // the block's own, so messages carry its name
    int d_device;
    int d_decimation;
    std::unique_ptr<cuda::fir_stream<In, Tap>> d_gpu;
    batch_gate d_gate;
    bool d_history_stale = true;
    uint64_t d_largest_batch = 0;
};

} // namespace gpufilter
} // namespace gr

#endif
