/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_ARCH_TABLE_H
#define INCLUDED_GPUFILTER_CUDA_ARCH_TABLE_H

// How the families' tuning tables (fir/fir_tuning.cc, pfb/pfb_tuning.cc,
// nlms/nlms_tuning.cc) are looked up by GPU architecture, written once.

#include <cstddef>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * The entry of `table` for architecture `arch` (compute capability 10 * major + minor,
 * 0 for no device): the newest entry at or below it, else the oldest. The entries
 * have an `arch` member and are in ascending order of it. So an architecture that has
 * not been measured gets the rules of the nearest older one that has (the oldest where
 * none is older), until its own entry is added.
 */
template <class Entry, std::size_t N>
const Entry& entry_for_arch(const Entry (&table)[N], int arch)
{
    std::size_t i = 0;
    while (i + 1 < N && table[i + 1].arch <= arch)
        ++i;
    return table[i];
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
