/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/arch_table.h"
#include "nlms_tuning.h"
#include <algorithm>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {

/*
 * sm_90 (H100, H200), measured (docs/kernels.md, NLMS). No other architecture has an
 * entry: every one uses this one until its own is measured.
 */
nlms_tuning sm_90()
{
    nlms_tuning t;
    // A lone filter has its multiprocessor to itself: 16 warps (K = 8 at 4096 taps)
    // hide the latencies of the step's FMAs better than 8.
    t.threads_few = 512;
    // Many filters: 8 warps (K = 16 at 4096 taps, up to 128 registers a thread) so
    // that two blocks fit a multiprocessor and one's serial part (the error
    // recurrence) overlaps the other's dot products.
    t.threads_many = 256;
    // Shared memory (nlms_shared_floats): 54 KB at 4096 taps and 256 threads (two
    // blocks a multiprocessor), 92 KB at nlms_max_taps.
    t.tile = 512;
    return t;
}

struct nlms_entry {
    int arch;
    nlms_tuning (*rules)();
};
constexpr nlms_entry s_table[] = { { 90, sm_90 } }; // ascending arch (entry_for_arch)

void check_threads(const char* name, int v)
{
    if (v < 32 || v > nlms_max_threads || v % 32 != 0)
        throw std::invalid_argument(
            std::string(name) + ": must be a multiple of 32 in [32, " +
            std::to_string(nlms_max_threads) + "], got " + std::to_string(v));
}

} // namespace

nlms_tuning nlms_tuning_for(int arch) { return entry_for_arch(s_table, arch).rules(); }

void check_nlms_tuning(const nlms_tuning& t)
{
    check_threads("threads_few", t.threads_few);
    check_threads("threads_many", t.threads_many);
    if (t.tile < nlms_block || t.tile % nlms_block != 0)
        throw std::invalid_argument("tile: must be a positive multiple of " +
                                    std::to_string(nlms_block) + ", got " +
                                    std::to_string(t.tile));
}

nlms_shape nlms_shape_for(const nlms_tuning& t, int ntaps, int nfilters, int sms)
{
    if (ntaps < 1 || ntaps > nlms_max_taps)
        throw std::invalid_argument("ntaps: must be in [1, " +
                                    std::to_string(nlms_max_taps) + "] on the GPU, got " +
                                    std::to_string(ntaps));
    const bool few = nfilters <= sms;
    const int target = few ? t.threads_few : t.threads_many;
    int k = 4;
    while (k < nlms_max_taps_per_thread && (ntaps + k - 1) / k > target)
        k *= 2;
    int threads = ((ntaps + k - 1) / k + 31) / 32 * 32;
    // A filter with a multiprocessor to itself gets a warp for each chain of the
    // serial part (nlms_kernel), even where the taps need fewer: one warp ran them one
    // after the other.
    if (few)
        threads = std::max(threads, nlms_serial_warps * 32);
    const int history = threads * k;
    return { threads,
             k,
             t.tile,
             history,
             nlms_shared_floats(threads, history, t.tile, k) * sizeof(float) };
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
