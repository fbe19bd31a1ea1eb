/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR2D_DIRECT_ENGINE_H
#define INCLUDED_GPUFILTER_CUDA_FIR2D_DIRECT_ENGINE_H

#include "../common/resources.h"
#include "fir2d_algorithm.h"
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief The direct 2D FIR: shared-memory tiles with the kernel's apron and register
 * blocking (fir2d_direct_kernels.cuh), the fastest for small kernels. A kernel larger
 * than one tile's piece (16 x 64 taps) runs as pieces whose outputs add up, so any
 * size works, if slowly.
 */
template <class T, class Tap>
class fir2d_direct_engine final : public fir2d_algorithm<T, Tap>
{
public:
    //! Register blocking, by the kernel and sample type unless given (timing):
    //! outputs_per_thread along a row 4 or 8, rows_per_thread 1, 2 or 4.
    explicit fir2d_direct_engine(const kernel2d<Tap>& k,
                                 int outputs_per_thread = 0,
                                 int rows_per_thread = 0);

    void run(const row_source<T>& src,
             const output_window& win,
             T* out,
             cudaStream_t s) override;
    fir2d_method method() const override { return fir2d_method::direct; }

private:
    template <int R, int RY>
    void launch(const row_source<T>& src,
                const output_window& win,
                T* out,
                cudaStream_t s) const;

    struct piece {
        int row0, col0, rows, cols, padded_cols;
        std::size_t offset; // of its taps in d_taps
    };
    int d_outputs_per_thread; // R: 4 or 8
    int d_rows_per_thread;    // RY: 1, 2 or 4
    std::vector<piece> d_pieces;
    device_buffer<Tap> d_taps;
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
