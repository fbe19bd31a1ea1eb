/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "fir2d/cpu/fir2d_cpu.h"
#include <algorithm>

namespace gr {
namespace gpufilter {

namespace {

template <class T>
const T* source_row(const cuda::row_source<T>& src, int image, long pos)
{
    if (pos >= 0 && pos < src.rows)
        return src.input + image * src.image_stride + pos * src.width;
    if (image == 0 && pos < 0 && pos >= -src.history_rows)
        return src.history + (pos + src.history_rows) * src.width;
    return nullptr;
}

} // namespace

template <class T, class Tap>
void fir2d_cpu(const cuda::kernel2d<Tap>& k,
               const cuda::row_source<T>& src,
               const cuda::output_window& win,
               T* out)
{
    const long width = src.width;
    for (int b = 0; b < src.images; ++b)
        for (long o = 0; o < win.rows; ++o) {
            T* y = out + b * win.image_stride + o * win.width;
            std::fill(y, y + win.width, T{});
            for (int i = 0; i < k.rows; ++i) {
                const T* x = source_row(src, b, win.first + o - i);
                if (!x)
                    continue;
                for (int j = 0; j < k.cols; ++j) {
                    // y[c] += h * x[c + shift] over the columns where x exists: one
                    // contiguous loop the compiler vectorises.
                    const long shift = static_cast<long>(win.col_offset) - j;
                    const long c0 = std::max(0L, -shift);
                    const long c1 = std::min<long>(win.width, width - shift);
                    const Tap h = k.at(i, j);
                    for (long c = c0; c < c1; ++c)
                        y[c] += x[c + shift] * h;
                }
            }
        }
}

template void fir2d_cpu<float, float>(const cuda::kernel2d<float>&,
                                      const cuda::row_source<float>&,
                                      const cuda::output_window&,
                                      float*);
template void
fir2d_cpu<std::complex<float>, float>(const cuda::kernel2d<float>&,
                                      const cuda::row_source<std::complex<float>>&,
                                      const cuda::output_window&,
                                      std::complex<float>*);
template void fir2d_cpu<std::complex<float>, std::complex<float>>(
    const cuda::kernel2d<std::complex<float>>&,
    const cuda::row_source<std::complex<float>>&,
    const cuda::output_window&,
    std::complex<float>*);

} // namespace gpufilter
} // namespace gr
