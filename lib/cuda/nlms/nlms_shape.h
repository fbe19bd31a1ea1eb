/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_NLMS_SHAPE_H
#define INCLUDED_GPUFILTER_CUDA_NLMS_SHAPE_H

// The NLMS kernel's launch shape and its shared-memory layout, in one place for the
// engine (launch), the kernel (indexing) and the host-only test that emulates the
// kernel's index math. No CUDA types.

#include <cstddef>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {
namespace cuda {

//! Most taps a thread holds in registers, and most threads of a block.
constexpr int nlms_max_taps_per_thread = 8;
constexpr int nlms_max_threads = 1024;
//! Longest filter of the GPU kernel: every tap in a register of its block.
constexpr int nlms_max_taps = nlms_max_taps_per_thread * nlms_max_threads;
//! Samples per tile: x and d of a tile are staged in shared memory at once.
constexpr int nlms_tile = 256;

struct nlms_shape {
    int threads;         //!< block size, a multiple of 32
    int taps_per_thread; //!< K: 1, 2, 4 or 8; thread t holds taps t, t+T, ..., t+(K-1)T
    int tile;            //!< samples per tile
    std::size_t shared_bytes;
};

//! Shared memory, in floats: the window [N-1 history | tile of x], the tile of d, and
//! two buffers (ping-pong) of 32 partial dot products and 32 partial norms.
inline std::size_t nlms_window_floats(int ntaps, int tile) { return ntaps - 1 + tile; }
inline std::size_t nlms_shared_floats(int ntaps, int tile)
{
    return nlms_window_floats(ntaps, tile) + tile + 2 * 64;
}

/*!
 * Fewest threads with at most 8 taps each (so the reduction, the serial part of every
 * sample, is as short as it can be), at least one warp; K rounded up to a power of
 * two so that only four kernels are compiled. Throws std::invalid_argument naming
 * ntaps outside [1, nlms_max_taps].
 */
inline nlms_shape choose_nlms_shape(int ntaps)
{
    if (ntaps < 1 || ntaps > nlms_max_taps)
        throw std::invalid_argument("ntaps: must be in [1, " +
                                    std::to_string(nlms_max_taps) + "] on the GPU, got " +
                                    std::to_string(ntaps));
    const int per8 = (ntaps + nlms_max_taps_per_thread - 1) / nlms_max_taps_per_thread;
    int threads = (per8 + 31) / 32 * 32;
    threads = threads < 32 ? 32 : threads > nlms_max_threads ? nlms_max_threads : threads;
    const int need = (ntaps + threads - 1) / threads;
    int k = 1;
    while (k < need)
        k *= 2;
    return {
        threads, k, nlms_tile, nlms_shared_floats(ntaps, nlms_tile) * sizeof(float)
    };
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
