/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_BLOCK_CORE_H
#define INCLUDED_GPUFILTER_BLOCK_CORE_H

#include "core/batch_gate.h"
#include "core/cpu_kernel.h"
#include "core/device_buffer.h"
#include "cuda/stream/host_stream.h"
#include <gnuradio/block.h>
#include <gnuradio/logger.h>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpufilter {

class observed_core;

/*!
 * \brief What every GPU block does around its computation, written once, whatever
 * its ports (one or many inputs and outputs, vector items) and its rate.
 *
 * A block owns one core and gives it two ways to compute: a host_stream (the GPU
 * path with the block's processor) and a cpu_kernel (gr-filter's kernel). The core
 * picks one from the device argument (select_device) and is the only place that
 * knows which: the block's work() hands it GNU Radio's windows and gets outputs.
 * Around that it owns the batching (batch_gate), the page-locking of every port's
 * buffer for in-place DMA, the rule that the GPU takes its history from GNU Radio's
 * window after a (re)start or a history change (the CPU kernel is told of a
 * (re)start: cpu_kernel::restart), and the error path: a CUDA failure
 * is logged with CUDA's message (and written to stderr when the logger would drop
 * it) and ends the stream instead of killing the block's thread (which would hang
 * the flowgraph). A GPU that cannot hold the block's buffers fails make() with an
 * error naming the block, its batch_size and the device's free memory.
 */
class block_core
{
public:
    //! Makers of the two computations; the core calls exactly one of them.
    struct backends {
        std::function<std::unique_ptr<cuda::host_stream>(int device,
                                                         std::size_t max_chunk)>
            gpu;
        std::function<std::unique_ptr<cpu_kernel>()> cpu;
    };

    //! device: the make() argument (device_auto, device_cpu or an index).
    block_core(gr::block& block,
               gr::logger_ptr logger,
               int device,
               block_rate rate,
               int batch_size,
               double max_latency,
               const backends& make);

    ~block_core();
    block_core(const block_core&) = delete;
    block_core& operator=(const block_core&) = delete;

    bool on_gpu() const { return d_gpu != nullptr; }
    int device() const { return d_device; }
    //! The GPU's algorithm ("direct", "fft", ...), or "cpu" on the CPU fallback.
    std::string method() const;
    int batch_size() const { return d_gate.batch_size(); }
    double max_latency() const { return d_gate.max_latency(); }
    void set_max_latency(double seconds);
    int current_batch_size() const { return d_gate.current_batch_size(); }
    double input_rate() const { return d_gate.input_rate(); }
    uint64_t largest_batch() const { return d_largest_batch; }
    //! PCIe bytes so far (sample streams): every host<->device copy is the block's
    //! own (host_stream), device buffers never copy.
    uint64_t bytes_to_device() const;
    uint64_t bytes_from_device() const;

    //! Whether the block declares buffers in device memory on its outputs: the
    //! module-wide switch (set_device_buffers) when the block was made, and a GPU.
    bool device_buffers() const { return d_device_buffers; }
    //! Shared with the device buffers on the block's ports (device_buffer_client).
    std::shared_ptr<transfer_account> account() const { return d_account; }

    //! The GPU path, or null on the CPU fallback (a block's controls are its family's
    //! interface, gpu_block::controls(), never this).
    const cuda::host_stream* gpu_stream() const { return d_gpu.get(); }
    //! Between runs: GPU transfers of up to this many items a port (a block whose
    //! many output ports each want long calls); nothing on the CPU.
    void set_max_chunk(std::size_t items);

    void start(); //!< from the block's start()
    void stop();  //!< from the block's stop()
    //! The rate's input for noutput_items, plus history, raised to the batch the
    //! latency budget allows while upstream is running; on every input port.
    void forecast(int noutput_items, gr_vector_int& ninput_items_required);
    //! Instead of gr::block::set_output_multiple: the block's own multiple survives.
    void set_output_multiple(int multiple) { d_gate.set_own_output_multiple(multiple); }
    //! The least input (items, history included) batching asks for right now: for a
    //! block with its own forecast rule (a variable-rate, general block).
    int batch_input_items() { return d_gate.min_input_items(); }
    //! The block's history (length) changed: the GPU reloads its history from the
    //! next window.
    void history_changed() { d_history_stale = true; }

    /*!
     * Between runs (from check_topology): the block's one input arrives as `streams`
     * ports, gr-filter's layout: blocks.stream_to_streams(itemsize, streams) of it,
     * port p carrying items p, p + streams, ... The core then interleaves them back
     * and computes exactly what the one input gives; batches and the latency budget
     * count per port. 1: the one input.
     */
    void set_input_streams(unsigned streams);
    unsigned input_streams() const { return d_streams; }
    //! Instead of gr::block::set_history: the history of the block's one input,
    //! spread over its input streams when it has several.
    void set_history(unsigned items);
    //! Each input port's items for each output port's (the block's rate per port).
    block_rate port_rate() const { return d_gate.port_rate(); }
    //! Between runs: whole batches of at least this many input items (of the one
    //! input), for a block whose many output ports each need a fair share of a call.
    void set_batch_floor(int items) { d_gate.set_batch_floor(items); }

    /*!
     * Computes one work() call: windows[p] is input port p's window (history()-1 old
     * items, then nnew new ones), out[q] output port q's room. Returns the outputs
     * written per port, or WORK_DONE when the GPU failed (the error is logged).
     */
    int process(const gr_vector_const_void_star& windows,
                std::size_t nnew,
                gr_vector_void_star& out);

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
    void find_resident_ports();
    std::size_t process_on_gpu(const gr_vector_const_void_star& windows,
                               std::size_t old_items,
                               std::size_t nnew,
                               gr_vector_void_star& out);
    //! The input streams' windows as the one input's window (set_input_streams).
    const void* interleave(const gr_vector_const_void_star& windows, std::size_t nnew);
    void register_buffers();
    void log_failure(const std::exception& e) const;
    std::unique_ptr<cuda::host_stream> make_gpu(const backends& make, int batch_size);

    gr::block& d_block;
    gr::logger_ptr d_logger; // the block's own, so messages carry its name
    int d_device;
    batch_gate d_gate;
    std::unique_ptr<cuda::host_stream> d_gpu; // exactly one of these two
    std::unique_ptr<cpu_kernel> d_cpu;
    bool d_history_stale = true;
    uint64_t d_largest_batch = 0;
    std::shared_ptr<transfer_account> d_account;
    bool d_device_buffers = false;
    // Per port, found in start(): the order between the blocks' GPU work on a port
    // whose items are in device memory of a GPU (a device_buffer's device side), null
    // for a host port. Any: work() runs the engine on them in place
    // (process_resident).
    std::vector<cuda::stream_handoff*> d_in_handoff, d_out_handoff;
    bool d_resident = false;
    bool d_orphaned = false; // an input buffer no block writes (see start())
    // Per-port pointers of one work() call, kept so that work() does not allocate.
    std::vector<const void*> d_fresh_items, d_history_items;
    unsigned d_streams = 1;          // input ports that carry the one input
    unsigned d_input_history = 0;    // of the one input; 0: the block's own history
    std::vector<char> d_interleaved; // the one input's window, from its streams
    gr_vector_const_void_star d_one_window;
    // Tells a block_observer of this block; destroyed first, while d_gpu is alive.
    std::unique_ptr<observed_core> d_observed;
};

} // namespace gpufilter
} // namespace gr

#endif
