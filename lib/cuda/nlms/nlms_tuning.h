/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_NLMS_TUNING_H
#define INCLUDED_GPUFILTER_CUDA_NLMS_TUNING_H

// The NLMS family's tuning in one place: the kernel's launch shape for a filter
// length. An nlms_tuning is what nlms_engine takes when it is made;
// nlms_tuning_for() fills it from the table in nlms_tuning.cc, keyed by GPU
// architecture (the engine filters float samples only: no type key), and
// nlms_shape_for() is the rule the engine applies to it.

#include "../common/device.h"
#include "nlms_shape.h"

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief The NLMS engine's tuning. Made by nlms_tuning_for() (or
 * nlms_tuning_for_device()); a default-constructed one has no rules, and the engine
 * rejects it (check_nlms_tuning).
 */
struct nlms_tuning {
    //! Taps a thread holds at most: a block is the fewest warps that hold the filter
    //! at this many a thread (1, 2, 4 or 8).
    int max_taps_per_thread = 0;
    //! Samples per tile: x and d of a tile are staged in shared memory at once.
    int tile = 0;
};

//! The table's tuning for architecture `arch` (10 * major + minor, 0 for no device).
nlms_tuning nlms_tuning_for(int arch);

//! The engine's default: the table's tuning for the current device.
inline nlms_tuning nlms_tuning_for_device()
{
    return nlms_tuning_for(current_device_arch());
}

//! Throws std::invalid_argument naming the field the engine cannot use:
//! max_taps_per_thread other than 1, 2, 4 or 8, a tile < 1.
void check_nlms_tuning(const nlms_tuning& t);

/*!
 * The launch shape for ntaps taps: the fewest threads (whole warps, at most
 * nlms_max_threads) with at most t.max_taps_per_thread taps each, so that the
 * reduction, the serial part of every sample, is as short as it can be; K, the taps
 * a thread holds, rounded up to a power of two so that only four kernels are
 * compiled. Throws std::invalid_argument naming ntaps outside [1, nlms_max_taps].
 */
nlms_shape nlms_shape_for(const nlms_tuning& t, int ntaps);

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
