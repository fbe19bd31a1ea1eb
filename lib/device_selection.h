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

} // namespace gpufilter
} // namespace gr

#endif
