/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_TRANSFER_H
#define INCLUDED_GPUFILTER_TRANSFER_H

#include <gnuradio/gpufilter/api.h>

namespace gr {
namespace gpufilter {

//! How GPU blocks move samples between GNU Radio's buffers and the GPU.
//! dma_in_place (the default): GNU Radio's buffers are page-locked when a flowgraph
//! starts and copied by DMA where they are. pinned_staging: through each block's own
//! page-locked buffers, one more CPU copy each way; to compare the two, or where
//! page-locking is not allowed. Applies to flowgraphs started afterwards.
enum class host_transfer { dma_in_place, pinned_staging };
GPUFILTER_API void set_host_transfer(host_transfer mode);
GPUFILTER_API host_transfer get_host_transfer();

//! Whether GPU blocks made afterwards keep the samples between them in device memory
//! (GNU Radio custom buffers on their ports): on (the default), an edge between two
//! GPU blocks is never copied to the host; a host block's edge is copied once each
//! way. Off: every GPU block moves its samples through host buffers (to measure the
//! difference, or as an escape hatch). Read when a block is made; never used on the
//! CPU fallback. See docs/architecture.md.
GPUFILTER_API void set_device_buffers(bool on);
GPUFILTER_API bool get_device_buffers();

} // namespace gpufilter
} // namespace gr

#endif /* INCLUDED_GPUFILTER_TRANSFER_H */
