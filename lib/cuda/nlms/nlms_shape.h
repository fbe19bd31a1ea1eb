/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_NLMS_SHAPE_H
#define INCLUDED_GPUFILTER_CUDA_NLMS_SHAPE_H

// The NLMS kernel's launch shape and its shared-memory layout, in one place for the
// engine (launch), the kernel (indexing) and the host-only test that emulates the
// kernel's arithmetic; which shape a filter gets is the tuning's (nlms_tuning.h:
// nlms_shape_for). No CUDA types.

#include <cstddef>

namespace gr {
namespace gpufilter {
namespace cuda {

//! Samples of one step of the block form: a warp's width, so that lane i of the
//! serial warp is sample i of the step.
constexpr int nlms_block = 32;
//! Most threads of a block (the kernel keeps up to 128 registers a thread).
constexpr int nlms_max_threads = 512;
//! Most taps a thread holds in registers (the kernels are compiled for K = 4, 8, 16).
constexpr int nlms_max_taps_per_thread = 16;
//! Longest filter of the GPU kernel: every tap in a register of its block.
constexpr int nlms_max_taps = nlms_max_taps_per_thread * nlms_max_threads;
//! Warps that the serial part of a step runs on where the block has them: the error
//! recurrence, the next step's Gram matrix and the two halves of its row's slide.
constexpr int nlms_serial_warps = 4;

struct nlms_shape {
    int threads;         //!< block size, a multiple of 32
    int taps_per_thread; //!< K: 4, 8 or 16; thread t holds taps t*K ... t*K + K-1
    int tile;            //!< samples per tile (a multiple of nlms_block)
    int history;         //!< x kept before a tile: threads * K (>= ntaps)
    std::size_t shared_bytes;
};

//! Slot of window sample i in the window's padded copy, for K taps a thread: four
//! floats of padding after every K samples (K >= 8; none at K = 4). A thread's
//! window starts K samples after its neighbour's, 32 or 64 bytes unpadded, so the
//! 16-byte loads of eight neighbouring lanes would fall on two or four of the eight
//! 16-byte bank groups; padded, the stride is 48 or 80 bytes and they fall on eight.
constexpr bool nlms_window_padded(int k) { return k >= 8; }
constexpr int nlms_padded_slot(int i, int k) // i >= 0
{
    // Unsigned: a shift in the kernels, where k is a power of two known at compile time.
    return nlms_window_padded(k) ? i + static_cast<int>(unsigned(i) / unsigned(k)) * 4
                                 : i;
}

//! Shared memory, in floats: the window [history | tile of x], for K >= 8 again in
//! padded slots, the tile of d, the warps' partial sums (nlms_block dot products, and
//! nlms_block Gram entries of a tile's first step), the Gram matrices of two steps
//! (rows padded by one against bank conflicts), a step's g, the Gram row in double
//! and the two halves of the slides of two steps in double.
inline std::size_t nlms_shared_floats(int threads, int history, int tile, int k)
{
    const std::size_t b = nlms_block;
    const int window = history + tile;
    const std::size_t padded = nlms_window_padded(k) ? nlms_padded_slot(window, k) : 0;
    return window + padded + std::size_t(tile) + threads / 32 * 2 * b + 2 * b * (b + 1) +
           b + 2 * b + 8 * b;
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
