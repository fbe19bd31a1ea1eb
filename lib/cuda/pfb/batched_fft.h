/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_BATCHED_FFT_H
#define INCLUDED_GPUFILTER_CUDA_BATCHED_FFT_H

// Unscaled batched N-point inverse FFTs of any number of contiguous rows, with one
// cuFFT plan per power-of-two batch and one shared work area: the transform of the
// channelizer and decimator (polyphase_bank) and of the synthesis engines.

#include "../common/resources.h"
#include "../common/sample_types.h"
#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

class batched_fft
{
public:
    //! Plans for batches 1, 2, 4, ... up to max_rows (a power of two). Touches the GPU.
    batched_fft(int n, std::size_t max_rows);

    //! The unscaled inverse FFT (exp(+j), gr-fft's fft_complex_rev) of `count` rows
    //! of src into dst (may be src); count <= max_rows. Writes no row past count.
    void inverse(const complex* src, complex* dst, std::size_t count, cudaStream_t s);

    int size() const { return d_n; }
    std::size_t max_rows() const { return d_max_rows; }

private:
    int d_n;
    std::size_t d_max_rows;
    std::vector<fft_plan> d_plans; // d_plans[m]: batch 2^m; empty when n == 1
    device_buffer<char> d_work;
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
