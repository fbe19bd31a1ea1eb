/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_BLOCK_FFT_PLAN_H
#define INCLUDED_GPUFILTER_CUDA_BLOCK_FFT_PLAN_H

// The shape of a block FFT (block_fft.cuh): a power-of-two transform of n points done
// by one thread block in shared memory as Stockham stages of radix 16, plus one stage
// of radix 2, 4 or 8 where n is not a power of 16. Host and device code both read it;
// the host builds the twiddle tables the stages read (block_fft_twiddles).

#include <complex>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

struct block_fft_plan {
    int n;
    //! The odd stage (radix < 16) first, else last. A transform whose last stage and
    //! the next transform's first stage are both of radix 16 can hand its results
    //! over in registers (the fused convolution does: forward small-first, inverse
    //! small-last).
    bool small_first;

    static constexpr int min_size = 2;
    static constexpr int max_size = 1 << 14; // 136 KB of shared memory with padding

    static constexpr bool valid_size(int n)
    {
        return n >= min_size && n <= max_size && (n & (n - 1)) == 0;
    }

    constexpr int log2n() const
    {
        int l = 0;
        while ((1 << l) < n)
            ++l;
        return l;
    }
    constexpr int odd_radix() const { return 1 << (log2n() % 4); } // 1: none
    constexpr int stages() const { return log2n() / 4 + (odd_radix() > 1 ? 1 : 0); }
    constexpr int radix(int s) const
    {
        if (odd_radix() == 1)
            return 16;
        const int odd_stage = small_first ? 0 : stages() - 1;
        return s == odd_stage ? odd_radix() : 16;
    }
    //! Ns: the product of the radices before stage s (the span its butterflies join).
    constexpr int span(int s) const
    {
        int p = 1;
        for (int t = 0; t < s; ++t)
            p *= radix(t);
        return p;
    }
    //! Stage s's twiddles: radix(s) * span(s) entries, W[r * span + m] =
    //! exp(-2 pi i r m / (span * radix)).
    constexpr int twiddle_offset(int s) const
    {
        int off = 0;
        for (int t = 0; t < s; ++t)
            off += radix(t) * span(t);
        return off;
    }
    constexpr int twiddle_count() const { return twiddle_offset(stages()); }
};

//! The twiddle table of a plan (twiddle_count() entries), computed in double.
std::vector<std::complex<float>> block_fft_twiddles(const block_fft_plan& plan);

//! The twiddles of a radix-C step that splits an n-point transform among C block
//! FFTs of n / C points (the FFT FIR's cluster kernel): W_n^(i b) =
//! exp(-2 pi i i b / n) at b * (n / C) + i, for b < C and i < n / C.
std::vector<std::complex<float>> block_fft_step_twiddles(int n, int blocks);

//! The tables of several plans, one after the other (a kernel that runs a forward
//! and an inverse transform finds the inverse's at the forward's twiddle_count()).
std::vector<std::complex<float>>
block_fft_twiddles(const std::vector<block_fft_plan>& plans);

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
