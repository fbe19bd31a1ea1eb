/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_GPU_BLOCK_H
#define INCLUDED_GPUFILTER_GPU_BLOCK_H

#include "core/block_core.h"
#include "core/cpu_kernel.h"
#include "cuda/stream/host_stream.h"
#include <functional>
#include <memory>
#include <string>

namespace gr {
namespace gpufilter {

/*!
 * \brief How a block family computes: makers of its GPU path (an engine behind a
 * host_stream, cuda::make_*_path) and of its CPU kernel, each of which is also the
 * family's Controls. The block's core calls exactly one.
 */
template <class Controls>
struct computation {
    std::function<cuda::gpu_path<Controls>(int device, std::size_t max_chunk)> gpu;
    std::function<std::unique_ptr<controlled_cpu_kernel<Controls>>()> cpu;
};

/*!
 * \brief The base of every block implementation: the public block class (Public,
 * e.g. fir_filter<...>) plus its block_core, with the gpu_options accessors and
 * start/stop/forecast written once. A block derives from it, initialises GNU Radio's
 * virtual base (sync_block, sync_decimator, ...) itself, and keeps only its setters
 * and a work() of a few lines.
 */
template <class Public, class Controls = cuda::no_controls>
class gpu_block : public Public, public device_buffer_client
{
    // Before d_core: set while d_core is made (by the maker it calls).
    Controls* d_controls = nullptr;

public:
    bool on_gpu() const override { return d_core.on_gpu(); }
    int device() const override { return d_core.device(); }
    int batch_size() const override { return d_core.batch_size(); }
    double max_latency() const override { return d_core.max_latency(); }
    void set_max_latency(double seconds) override { d_core.set_max_latency(seconds); }
    int current_batch_size() const override { return d_core.current_batch_size(); }
    double input_rate() const override { return d_core.input_rate(); }
    uint64_t largest_batch() const override { return d_core.largest_batch(); }
    std::string method() const override { return d_core.method(); }
    uint64_t bytes_to_device() const override { return d_core.bytes_to_device(); }
    uint64_t bytes_from_device() const override { return d_core.bytes_from_device(); }
    std::shared_ptr<transfer_account> transfer_account_ptr() const override
    {
        return d_core.account();
    }

    bool start() override
    {
        d_core.start();
        return Public::start();
    }
    bool stop() override
    {
        d_core.stop();
        return Public::stop();
    }
    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override
    {
        d_core.forecast(noutput_items, ninput_items_required);
    }

protected:
    //! GNU Radio's virtual base is built first (by the most derived class), so the
    //! block and its logger exist here. `device` is the make() argument.
    gpu_block(int device,
              block_rate rate,
              int batch_size,
              double max_latency,
              const computation<Controls>& make)
        : d_core(
              *this, this->d_logger, device, rate, batch_size, max_latency, untyped(make))
    {
        // With device buffers, the outputs declare them (inputs keep GNU Radio's, so
        // a host block's output is never replaced): an output read only by GPU
        // blocks lives in device memory. The core finds out in start() what each
        // port got.
        if (d_core.device_buffers())
            this->set_output_signature(
                device_buffer::with_type(this->output_signature()));
    }

    //! The family's controls on whichever computation the core made: a setter is
    //! one call through them to the engine or the CPU kernel.
    Controls& controls() { return *d_controls; }
    const Controls& controls() const { return *d_controls; }

    block_core d_core;

private:
    block_core::backends untyped(const computation<Controls>& make)
    {
        return { [this, gpu = make.gpu](int device, std::size_t max_chunk) {
                    auto path = gpu(device, max_chunk);
                    d_controls = path.controls;
                    return std::move(path.stream);
                },
                 [this, cpu = make.cpu]() -> std::unique_ptr<cpu_kernel> {
                     auto kernel = cpu();
                     d_controls = kernel.get();
                     return kernel;
                 } };
    }
};

} // namespace gpufilter
} // namespace gr

#endif
