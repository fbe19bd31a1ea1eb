/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "block_fft_plan.h"
#include <cmath>

namespace gr {
namespace gpufilter {
namespace cuda {

std::vector<std::complex<float>> block_fft_twiddles(const block_fft_plan& plan)
{
    const double two_pi = 2.0 * std::acos(-1.0);
    std::vector<std::complex<float>> table(plan.twiddle_count());
    for (int s = 0; s < plan.stages(); ++s) {
        const int radix = plan.radix(s), span = plan.span(s);
        auto* w = table.data() + plan.twiddle_offset(s);
        for (int r = 0; r < radix; ++r)
            for (int m = 0; m < span; ++m) {
                const double a = -two_pi * r * m / (double(span) * radix);
                w[r * span + m] = { static_cast<float>(std::cos(a)),
                                    static_cast<float>(std::sin(a)) };
            }
    }
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
