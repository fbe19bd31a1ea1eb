/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_GPU_BLOCK_H
#define INCLUDED_GPUFILTER_GPU_BLOCK_H

#include "device_selection.h"
#include "gpu_block_core.h"
#include <string>
#include <vector>

namespace gr {
namespace gpufilter {

/*!
 * \brief The base of every FIR-based block implementation: the public block class
 * (Public, e.g. fir_filter<...>) plus its gpu_block_core, with the parts that are the
 * same for every block written once: device selection, the gpu_options accessors,
 * and start/stop/forecast. A block derives from it, initialises GNU Radio's virtual
 * base (sync_block or sync_decimator) itself, and keeps only its own work().
 */
template <class Public, class In, class Tap>
class gpu_block : public Public
{
public:
    bool on_gpu() const override { return d_core.on_gpu(); }
    int device() const override { return d_core.device(); }
    int batch_size() const override { return d_core.batch_size(); }
    uint64_t largest_batch() const override { return d_core.largest_batch(); }
    std::string fir_method() const override { return d_core.fir_method(); }

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
              const std::vector<Tap>& gpu_taps,
              int decimation,
              int batch_size,
              const std::string& method = "auto")
        : d_core(*this,
                 this->d_logger,
                 select_device(device, this->d_logger),
                 gpu_taps,
                 decimation,
                 batch_size,
                 method)
    {
    }

    gpu_block_core<In, Tap> d_core;
};

} // namespace gpufilter
} // namespace gr

#endif
