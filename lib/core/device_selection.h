/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_DEVICE_SELECTION_H
#define INCLUDED_GPUFILTER_DEVICE_SELECTION_H

#include <gnuradio/logger.h>

namespace gr {
namespace gpufilter {

/*!
 * Resolves a block's `device` argument to a CUDA device index, or device_cpu.
 * Throws std::out_of_range (naming `device` and its value) for an index that does not
 * exist. Falls back to the CPU for device_auto with no usable device, with one warning
 * on `logger`, unless GPUFILTER_REQUIRE_GPU=1 is set, which makes that an error.
 */
int select_device(int requested, const gr::logger_ptr& logger);

/*!
 * Whether the GNU Radio runtime this process runs (gr::version(), read at run time)
 * can carry device buffers (device_buffers_supported, gr_version.h). When it cannot,
 * the first call warns once on `logger` that GPU blocks use host buffers.
 */
bool runtime_supports_device_buffers(const gr::logger_ptr& logger);

} // namespace gpufilter
} // namespace gr

#endif
