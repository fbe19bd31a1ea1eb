/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_GR_VERSION_H
#define INCLUDED_GPUFILTER_GR_VERSION_H

#include <array>
#include <optional>
#include <string>

namespace gr {
namespace gpufilter {

//! (major, api, minor) of a GNU Radio version string as gr::version() gives it:
//! "3.10.5.1", "v3.10.1.0-rc1", "3.11.0.0git-66-g931ae5ff". Nothing when the string
//! does not start with three numbers.
std::optional<std::array<int, 3>> parse_gr_version(const std::string& version);

/*!
 * Whether GPU blocks may use device buffers (GNU Radio custom buffers) under the GNU
 * Radio runtime of this version string. Not before 3.10.2: custom buffers came in
 * 3.10.0, and 3.10.0/3.10.1 freeze a flowgraph whose block with history reads a
 * single-mapped custom buffer (gnuradio#5634, fixed in 3.10.2); our rings are double
 * mapped, but the device buffers were never run on those versions. A string that
 * cannot be read (an odd source build) counts as new enough: the module is built
 * against 3.10 headers, and a too-old 3.10 release always names itself.
 */
bool device_buffers_supported(const std::string& gr_version);

} // namespace gpufilter
} // namespace gr

#endif
