/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/arch_table.h"
#include "nlms_tuning.h"
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {

/*
 * sm_90 (H100, H200). Not timed on a GPU yet (docs/kernels.md, NLMS): the shape
 * follows from the kernel's cost per sample. No other architecture has an entry:
 * every one uses this one until its own is measured.
 */
nlms_tuning sm_90()
{
    nlms_tuning t;
    // Every sample ends in a reduction over the block (the serial part): the fewest
    // warps keep it shortest, and up to 256 taps it is one warp with no barrier. 8
    // taps a thread is the most the kernels hold in registers (31 to 54 registers a
    // thread, no spills at K = 1, 2 and 8, 8 bytes at K = 4).
    t.max_taps_per_thread = nlms_max_taps_per_thread;
    // (N - 1 + 2*256 + 128) floats of shared memory: 34.3 KB at nlms_max_taps, within
    // the 48 KB a launch has without opting in.
    t.tile = 256;
    return t;
}

struct nlms_entry {
    int arch;
    nlms_tuning (*rules)();
};
constexpr nlms_entry s_table[] = { { 90, sm_90 } }; // ascending arch (entry_for_arch)

} // namespace

nlms_tuning nlms_tuning_for(int arch) { return entry_for_arch(s_table, arch).rules(); }

void check_nlms_tuning(const nlms_tuning& t)
{
    const int k = t.max_taps_per_thread;
    if (k != 1 && k != 2 && k != 4 && k != 8)
        throw std::invalid_argument("max_taps_per_thread: must be 1, 2, 4 or 8, got " +
                                    std::to_string(k));
    if (t.tile < 1)
        throw std::invalid_argument("tile: must be >= 1 (nlms_tuning_for sets it), got " +
                                    std::to_string(t.tile));
}

nlms_shape nlms_shape_for(const nlms_tuning& t, int ntaps)
{
    if (ntaps < 1 || ntaps > nlms_max_taps)
        throw std::invalid_argument("ntaps: must be in [1, " +
                                    std::to_string(nlms_max_taps) + "] on the GPU, got " +
                                    std::to_string(ntaps));
    const int per_thread = t.max_taps_per_thread;
    const int fewest = (ntaps + per_thread - 1) / per_thread;
    int threads = (fewest + 31) / 32 * 32;
    threads = threads < 32 ? 32 : threads > nlms_max_threads ? nlms_max_threads : threads;
    const int need = (ntaps + threads - 1) / threads;
    int k = 1;
    while (k < need)
        k *= 2;
    return { threads, k, t.tile, nlms_shared_floats(ntaps, t.tile) * sizeof(float) };
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
