/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FM_DEMOD_BANK_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_FM_DEMOD_BANK_KERNELS_CUH

// Device code of the FM demodulator bank: demodulate into channel-major rows (each
// after its FIR history), FIR at the decimated instants, de-emphasis per channel.

#include "quadrature_math.h"
#include <cuda_runtime.h>

namespace gr {
namespace gpufilter {
namespace cuda {
namespace fm_bank_kernels {

constexpr int table_size = 257;
constexpr int block_threads = 256;

struct demod_args {
    const float2* in;        // n items of nchan samples
    const unsigned* channel; // the selected channels' indices in an item
    const float2* prev;      // per selected channel: the sample before this call
    float2* next_prev;       // per selected channel: this call's last sample
    const float* table;      // fast_atan2f_table()
    float* rows;             // per selected channel: `stride` floats
    long long n, nchan, nsel, hist, stride;
    float gain;
};

//! rows[c][hist + t] = demod of channel c at item t. Thread e = t*nsel + c.
__global__ void __launch_bounds__(block_threads) demod_rows(demod_args a)
{
    __shared__ float table[table_size];
    for (int i = threadIdx.x; i < table_size; i += blockDim.x)
        table[i] = a.table[i];
    __syncthreads();
    const long long total = a.n * a.nsel;
    const long long step = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long e = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
         e < total;
         e += step) {
        const long long t = e / a.nsel, c = e % a.nsel;
        const long long k = a.channel[c];
        const float2 x = a.in[t * a.nchan + k];
        const float2 p = t > 0 ? a.in[(t - 1) * a.nchan + k] : a.prev[c];
        a.rows[c * a.stride + a.hist + t] =
            quadrature::demod_sample(x.x, x.y, p.x, p.y, a.gain, table);
        if (t == a.n - 1)
            a.next_prev[c] = x;
    }
}

struct fir_args {
    const float* rows; // as demod_rows wrote them
    const float* taps;
    float* fir; // per selected channel: `outputs` floats
    long long ntaps, nsel, stride, hist, outputs, first, decim;
};

//! fir[c][j] = sum_k taps[k] * row_c[hist + first + j*decim - k].
__global__ void __launch_bounds__(block_threads) fir_decimate(fir_args a)
{
    const long long total = a.outputs * a.nsel;
    const long long step = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long e = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
         e < total;
         e += step) {
        const long long c = e / a.outputs, j = e % a.outputs;
        const float* newest = a.rows + c * a.stride + a.hist + a.first + j * a.decim;
        float acc = 0.0f;
        for (long long k = 0; k < a.ntaps; ++k)
            acc = fmaf(a.taps[k], newest[-k], acc);
        a.fir[c * a.outputs + j] = acc;
    }
}

//! The last `hist` samples of each row (after this call's n) become the next row's
//! history.
__global__ void __launch_bounds__(block_threads) carry_history(const float* rows,
                                                               float* next,
                                                               long long n,
                                                               long long nsel,
                                                               long long hist,
                                                               long long stride)
{
    const long long total = nsel * hist;
    const long long step = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long e = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
         e < total;
         e += step) {
        const long long c = e / hist, i = e % hist;
        next[c * stride + i] = rows[c * stride + n + i];
    }
}

//! out[j*nsel + c] = de-emphasis of fir[c][j]; one thread per channel.
__global__ void __launch_bounds__(block_threads) deemphasis_rows(const float* fir,
                                                                 float* out,
                                                                 double* state,
                                                                 long long outputs,
                                                                 long long nsel,
                                                                 double b0,
                                                                 double b1,
                                                                 double a1)
{
    const long long c = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
    if (c >= nsel)
        return;
    double xp = state[2 * c], yp = state[2 * c + 1];
    for (long long j = 0; j < outputs; ++j) {
        const double x = fir[c * outputs + j];
        const double y = b0 * x + b1 * xp - a1 * yp;
        out[j * nsel + c] = static_cast<float>(y);
        xp = x;
        yp = y;
    }
    state[2 * c] = xp;
    state[2 * c + 1] = yp;
}

} // namespace fm_bank_kernels
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
