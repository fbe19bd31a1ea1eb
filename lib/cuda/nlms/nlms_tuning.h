/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_NLMS_TUNING_H
#define INCLUDED_GPUFILTER_CUDA_NLMS_TUNING_H

// The NLMS family's tuning in one place: the kernel's launch shape for a filter
// length and a filter count. An nlms_tuning is what nlms_engine takes when it is
// made; nlms_tuning_for() fills it from the table in nlms_tuning.cc, keyed by GPU
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
    //! Block size to aim at while there are no more filters than multiprocessors
    //! (one block each): a multiple of 32 in [32, nlms_max_threads].
    int threads_few = 0;
    //! Block size to aim at with more filters than multiprocessors, so that several
    //! blocks share one and hide each other's serial part: likewise.
    int threads_many = 0;
    //! Samples per tile: x and d of a tile are staged in shared memory at once; a
    //! multiple of nlms_block.
    int tile = 0;
};

//! The table's tuning for architecture `arch` (10 * major + minor, 0 for no device).
nlms_tuning nlms_tuning_for(int arch);

//! The engine's default: the table's tuning for the current device.
inline nlms_tuning nlms_tuning_for_device()
{
    return nlms_tuning_for(current_device_arch());
}

//! Throws std::invalid_argument naming the field the engine cannot use.
void check_nlms_tuning(const nlms_tuning& t);

/*!
 * The launch shape for nfilters filters of ntaps taps on a GPU of `sms`
 * multiprocessors: K, the taps a thread holds, is the least of 4, 8 and 16 that
 * keeps the block within the tuning's target (threads_few while nfilters <= sms, else
 * threads_many), or 16 (up to nlms_max_threads threads) for the longest filters; the
 * block is the fewest whole warps that hold ntaps at K each. Throws
 * std::invalid_argument naming ntaps outside [1, nlms_max_taps].
 */
nlms_shape nlms_shape_for(const nlms_tuning& t, int ntaps, int nfilters = 1, int sms = 1);

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
