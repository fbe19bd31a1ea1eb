/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR2D_GEOMETRY_H
#define INCLUDED_GPUFILTER_CUDA_FIR2D_GEOMETRY_H

// What every 2D FIR engine computes, whatever its algorithm (direct, separable, FFT):
// the same rows in, the same window of the full 2D convolution out. The block (a
// stream of rows, with history) and the NumPy API (stacks of whole images, SciPy's
// modes) are two ways of filling these structs.

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

//! A 2D kernel, row-major: at(i, j) = taps[i * cols + j], i along the stream (rows),
//! j along a row (columns).
template <class Tap>
struct kernel2d {
    int rows = 0;
    int cols = 0;
    std::vector<Tap> taps;

    const Tap& at(int i, int j) const
    {
        return taps[static_cast<std::size_t>(i) * cols + j];
    }
};

//! kernel2d from rows of taps (NumPy 2D arrays and lists of rows); every row the
//! same length, at least one tap; std::invalid_argument naming `taps` otherwise.
template <class Tap>
kernel2d<Tap> make_kernel2d(const std::vector<std::vector<Tap>>& rows)
{
    if (rows.empty() || rows.front().empty())
        throw std::invalid_argument("taps: a 2D kernel needs at least one row and one "
                                    "column");
    kernel2d<Tap> k;
    k.rows = static_cast<int>(rows.size());
    k.cols = static_cast<int>(rows.front().size());
    for (const auto& r : rows) {
        if (r.size() != rows.front().size())
            throw std::invalid_argument(
                "taps: every row of a 2D kernel must have the same length (" +
                std::to_string(rows.front().size()) + "), not " +
                std::to_string(r.size()));
        k.taps.insert(k.taps.end(), r.begin(), r.end());
    }
    return k;
}

/*!
 * \brief Where rows come from: a stream of rows of `width` items, each row
 * contiguous, indexed by position. Positions -history_rows .. -1 are `history`
 * (oldest first), 0 .. rows-1 are `input`; every other position, and every column
 * outside 0 .. width-1, is zero. With images > 1 (a stack), image b's input rows
 * start at input + b * image_stride and there is no history.
 */
template <class T>
struct row_source {
    const T* history = nullptr;
    long history_rows = 0;
    const T* input = nullptr;
    long rows = 0;
    int width = 0;
    int images = 1;
    std::size_t image_stride = 0; //!< items from one image's input to the next
};

/*!
 * \brief The outputs to compute. Output row o (0 .. rows-1) is at stream position
 * first + o, output column c (0 .. width-1):
 *
 *     y[o][c] = sum_{i < kh} sum_{j < kw} k(i, j) * x(first + o - i, c + col_offset - j)
 *
 * with x the row_source (zero outside its rows and columns): rows of the full 2D
 * convolution, columns from col_offset on. Output rows are contiguous, `width` items
 * each; image b (of the source's images) at out + b * image_stride.
 */
struct output_window {
    long first = 0;
    long rows = 0;
    int width = 0;
    int col_offset = 0;
    std::size_t image_stride = 0; //!< items from one image's output to the next
};

//! The algorithms, as the blocks' `method` argument names them.
enum class fir2d_method { automatic, direct, separable, fft };

//! "direct", "separable", "fft" (the block's report; "auto" for automatic).
const char* fir2d_method_name(fir2d_method m);

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
