/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_BRANCH_TAPS_H
#define INCLUDED_GPUFILTER_CUDA_BRANCH_TAPS_H

// A polyphase filter's taps on the device, split into `branches` branches of T taps
// each (the prototype padded with zeros to branches * T): h[f + k * branches] is
// branch f's tap k. The layout every polyphase engine reads.

#include "../common/resources.h"
#include <algorithm>
#include <cstddef>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief Uploads `taps` padded to whole branches into `dst` (grown when too small),
 * on stream s, and returns T, the taps per branch. The caller has made sure that no
 * queued work still reads `dst`. taps must not be empty.
 */
inline std::size_t upload_branch_taps(const std::vector<float>& taps,
                                      std::size_t branches,
                                      device_buffer<float>& dst,
                                      cudaStream_t s)
{
    const std::size_t T = (taps.size() + branches - 1) / branches;
    std::vector<float> padded(branches * T, 0.0f);
    std::copy(taps.begin(), taps.end(), padded.begin());
    upload_growing(dst, padded, s);
    return T;
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
