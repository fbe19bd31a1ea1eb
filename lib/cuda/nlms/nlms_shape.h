/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_NLMS_SHAPE_H
#define INCLUDED_GPUFILTER_CUDA_NLMS_SHAPE_H

// The NLMS kernel's launch shape and its shared-memory layout, in one place for the
// engine (launch), the kernel (indexing) and the host-only test that emulates the
// kernel's index math; which shape a filter gets is the tuning's (nlms_tuning.h:
// nlms_shape_for). No CUDA types.

#include <cstddef>

namespace gr {
namespace gpufilter {
namespace cuda {

//! Most taps a thread holds in registers (the kernels are compiled for K = 1, 2, 4
//! and 8), and most threads of a block.
constexpr int nlms_max_taps_per_thread = 8;
constexpr int nlms_max_threads = 1024;
//! Longest filter of the GPU kernel: every tap in a register of its block.
constexpr int nlms_max_taps = nlms_max_taps_per_thread * nlms_max_threads;

struct nlms_shape {
    int threads;         //!< block size, a multiple of 32
    int taps_per_thread; //!< K: 1, 2, 4 or 8; thread t holds taps t, t+T, ..., t+(K-1)T
    int tile;            //!< samples per tile: x and d of a tile are staged at once
    std::size_t shared_bytes;
};

//! Shared memory, in floats: the window [N-1 history | tile of x], the tile of d, and
//! two buffers (ping-pong) of 32 partial dot products and 32 partial norms.
inline std::size_t nlms_window_floats(int ntaps, int tile) { return ntaps - 1 + tile; }
inline std::size_t nlms_shared_floats(int ntaps, int tile)
{
    return nlms_window_floats(ntaps, tile) + tile + 2 * 64;
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
