/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "block_fft_plan.h"
#include <cmath>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {

//! exp(-2 pi i e / n), computed in double.
std::complex<float> root(long long e, long long n)
{
    const double a = -2.0 * std::acos(-1.0) * static_cast<double>(e % n) / double(n);
    return { static_cast<float>(std::cos(a)), static_cast<float>(std::sin(a)) };
}

} // namespace

std::vector<std::complex<float>> block_fft_twiddles(const block_fft_plan& plan)
{
    std::vector<std::complex<float>> table(plan.twiddle_count());
    for (int s = 0; s < plan.stages(); ++s) {
        const int radix = plan.radix(s), span = plan.span(s);
        auto* w = table.data() + plan.twiddle_offset(s);
        for (int r = 0; r < radix; ++r)
            for (int m = 0; m < span; ++m)
                w[r * span + m] = root(static_cast<long long>(r) * m, span * radix);
    }
    return table;
}

std::vector<std::complex<float>> block_fft_step_twiddles(int n, int blocks)
{
    const int m = n / blocks;
    std::vector<std::complex<float>> table(static_cast<std::size_t>(n));
    for (int b = 0; b < blocks; ++b)
        for (int i = 0; i < m; ++i)
            table[static_cast<std::size_t>(b) * m + i] =
                root(static_cast<long long>(i) * b, n);
    return table;
}

std::vector<std::complex<float>>
block_fft_twiddles(const std::vector<block_fft_plan>& plans)
{
    std::vector<std::complex<float>> tables;
    for (const auto& plan : plans) {
        const auto table = block_fft_twiddles(plan);
        tables.insert(tables.end(), table.begin(), table.end());
    }
    return tables;
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
