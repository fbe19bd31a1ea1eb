/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_DEADLINE_WAKER_H
#define INCLUDED_GPUFILTER_DEADLINE_WAKER_H

#include <gnuradio/block_detail.h>
#include <chrono>
#include <memory>

namespace gr {
namespace gpufilter {

/*!
 * \brief Wakes a waiting block at a time of its choosing.
 *
 * GNU Radio's thread-per-block scheduler looks at a block that waits for input again
 * only when input arrives (or after a quarter of a second). A block that holds input
 * for at most max_latency must be looked at when that time is up, even if nothing
 * arrives: this one process-wide thread wakes the block's thread then, as a message
 * for the block would. A block that has gone by then is skipped.
 */
namespace deadline_waker {
void wake_at(std::chrono::steady_clock::time_point when,
             std::weak_ptr<gr::block_detail> block);
} // namespace deadline_waker

} // namespace gpufilter
} // namespace gr

#endif
