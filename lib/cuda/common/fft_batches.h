/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FFT_BATCHES_H
#define INCLUDED_GPUFILTER_CUDA_FFT_BATCHES_H

// The batch choice of engines that keep cuFFT plans for batch counts that halve down
// to 1 (the FIR's and the 2D FIR's FFT paths).

#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

//! Index into `batches` (largest first, down to 1) for `remaining` transforms: the
//! smallest batch that finishes them, if at most a quarter of it is waste; otherwise
//! the largest that does not overshoot.
template <class Count>
int pick_fft_batch(const std::vector<Count>& batches, long long remaining)
{
    for (int i = static_cast<int>(batches.size()) - 1; i >= 0; --i) {
        if (batches[i] >= remaining) {
            if (batches[i] <= remaining + remaining / 4)
                return i;
            break;
        }
    }
    int i = 0;
    while (batches[i] > remaining)
        ++i;
    return i;
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
