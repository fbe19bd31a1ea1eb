/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_POLYPHASE_SHAPE_H
#define INCLUDED_GPUFILTER_CUDA_POLYPHASE_SHAPE_H

// The launch shape of the branch FIR kernel (polyphase_kernels.cuh), in plain C++ so
// that the host launch code and the host-only test that emulates the kernel's
// indexing (tests/pfb/test_pfb_indexing.cc) use the same numbers.

#include <cstddef>

namespace gr {
namespace gpufilter {
namespace cuda {
namespace pfb_shape {

// A block is tile_columns(N) consecutive columns (threadIdx.x) by
// threads / tile_columns(N) rows of threads (threadIdx.y); each thread computes
// steps_per_thread consecutive steps of its column.
constexpr int threads = 256;
constexpr int steps_per_thread = 4;
constexpr int tap_chunk = 32; // taps per branch staged at a time

inline int tile_columns(int N) { return N < 32 ? N : 32; }
inline int block_rows(int N) { return threads / tile_columns(N); } // blockDim.y
inline int block_steps(int N) { return block_rows(N) * steps_per_thread; }

//! Rows of tile_columns(N) samples one tap chunk of a block reads, at most: the
//! block's steps span (a_last - a_first) <= floor((block_steps - 1) * R / N) + 1
//! rows, plus tap_chunk + 1.
inline long long smem_rows(int N, int R)
{
    return (block_steps(N) - 1LL) * R / N + tap_chunk + 2;
}
//! At most (4*256 + 34*32) * 8 bytes = 16.9 KB for any N and R <= N.
inline std::size_t smem_bytes(int N, int R)
{
    return static_cast<std::size_t>(smem_rows(N, R)) * tile_columns(N) * 8;
}

} // namespace pfb_shape
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
