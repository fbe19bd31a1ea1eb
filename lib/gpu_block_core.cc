/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "gpu_block_core.h"
#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_double_mapped.h>
#include <gnuradio/buffer_reader.h>
#include <gnuradio/gpufilter/device.h>
#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace gr {
namespace gpufilter {

namespace {

//! GPUFILTER_REGISTER_BUFFERS=0 turns in-place DMA off (pinned staging instead), to
//! compare the two on a given host.
bool registration_wanted()
{
    const char* v = std::getenv("GPUFILTER_REGISTER_BUFFERS");
    return !(v && std::strcmp(v, "0") == 0);
}

//! The whole mapping of a double-mapped buffer: two copies of bufsize items, back to
//! back, since a window may run on into the second copy. Other buffer kinds: none.
std::pair<const void*, std::size_t> mapping_of(const gr::buffer_sptr& buf)
{
    if (!buf || !std::dynamic_pointer_cast<gr::buffer_double_mapped>(buf))
        return { nullptr, 0 };
    return { buf->base(), 2 * std::size_t(buf->bufsize()) * buf->get_sizeof_item() };
}

} // namespace

template <class In, class Tap>
gpu_block_core<In, Tap>::gpu_block_core(gr::block& block,
                                        gr::logger_ptr logger,
                                        int device,
                                        const std::vector<Tap>& gpu_taps,
                                        int decimation,
                                        int batch_size,
                                        const std::string& method)
    : d_block(block),
      d_logger(std::move(logger)),
      d_device(device),
      d_decimation(decimation),
      d_gate(block, batch_size, decimation)
{
    if (device != device_cpu)
        d_gpu = std::make_unique<cuda::fir_stream<In, Tap>>(
            device, gpu_taps, decimation, static_cast<std::size_t>(batch_size), method);
}

template <class In, class Tap>
void gpu_block_core<In, Tap>::start()
{
    d_gate.start();
    // A (re)started flowgraph has fresh, zero-filled buffers: take the history from
    // GNU Radio's window again, as gr-filter does by reading it.
    d_history_stale = true;
    if (d_gpu && registration_wanted())
        register_buffers();
}

template <class In, class Tap>
void gpu_block_core<In, Tap>::stop()
{
    d_gate.stop();
    if (d_gpu)
        d_gpu->unregister_host_memory(); // before GNU Radio frees its buffers
}

template <class In, class Tap>
void gpu_block_core<In, Tap>::register_buffers()
{
    const auto detail = d_block.detail();
    if (!detail || detail->ninputs() < 1 || detail->noutputs() < 1)
        return;
    bool in_place = true;
    for (const auto& buf : { detail->input(0)->buffer(), detail->output(0) }) {
        const auto [base, bytes] = mapping_of(buf);
        in_place = d_gpu->register_host_memory(base, bytes) && in_place;
    }
    d_logger->debug("host transfers: {} ({})",
                    in_place ? "DMA in place" : "pinned staging",
                    d_gpu->registration_note());
}

template <class In, class Tap>
void gpu_block_core<In, Tap>::forecast(int noutput_items,
                                       gr_vector_int& ninput_items_required) const
{
    const int needed = noutput_items * d_decimation + d_block.history() - 1;
    ninput_items_required[0] = std::max(needed, d_gate.min_input_items());
}

template <class In, class Tap>
void gpu_block_core<In, Tap>::note_batch(std::size_t nnew)
{
    d_largest_batch = std::max<uint64_t>(d_largest_batch, nnew);
}

template <class In, class Tap>
bool gpu_block_core<In, Tap>::filter(const In* window, std::size_t nnew, out_type* out)
{
    return guarded([&] {
        if (d_history_stale) { // first call, or new taps: GNU Radio's window rules
            d_gpu->set_history(window);
            d_history_stale = false;
        }
        d_gpu->process(window + d_block.history() - 1, nnew, out);
    });
}

template <class In, class Tap>
void gpu_block_core<In, Tap>::log_failure(const std::exception& e) const
{
    // An exception leaving work() would end the block's thread silently and hang the
    // flowgraph; the caller returns WORK_DONE instead, so the flowgraph stops.
    d_logger->error("GPU filtering failed, stopping this flowgraph: {}", e.what());
}

template class gpu_block_core<float, float>;
template class gpu_block_core<cuda::complex, float>;
template class gpu_block_core<cuda::complex, cuda::complex>;
template class gpu_block_core<float, cuda::complex>;
template class gpu_block_core<std::int16_t, cuda::complex>;

} // namespace gpufilter
} // namespace gr
