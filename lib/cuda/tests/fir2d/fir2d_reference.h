/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_TESTS_FIR2D_REFERENCE_H
#define INCLUDED_GPUFILTER_TESTS_FIR2D_REFERENCE_H

// The float64 reference of every 2D FIR engine: output_window's formula
// (fir2d/fir2d_geometry.h) evaluated term by term on host copies of the rows, with
// the error bound each output may have in float32.

#include "fir2d/fir2d_geometry.h"
#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

namespace gr {
namespace gpufilter {
namespace test {

struct fir2d_expected {
    std::vector<std::complex<double>> value; //!< image-major, then rows, then columns
    std::vector<double> bound;               //!< sum |k| |x| of each output
};

inline std::complex<double> as_cd(float x) { return { x, 0.0 }; }
inline std::complex<double> as_cd(std::complex<float> x)
{
    return { x.real(), x.imag() };
}

//! src's pointers are host memory here; outputs as output_window defines them.
template <class T, class Tap>
fir2d_expected reference_fir2d(const cuda::kernel2d<Tap>& k,
                               const cuda::row_source<T>& src,
                               const cuda::output_window& win)
{
    fir2d_expected e;
    const std::size_t per_image = static_cast<std::size_t>(win.rows) * win.width;
    e.value.assign(per_image * src.images, 0.0);
    e.bound.assign(per_image * src.images, 0.0);
    for (int b = 0; b < src.images; ++b) {
        const T* input = src.input + b * src.image_stride;
        auto x = [&](long pos, long col) -> std::complex<double> {
            if (col < 0 || col >= src.width)
                return 0.0;
            if (pos >= 0 && pos < src.rows)
                return as_cd(input[pos * src.width + col]);
            if (b == 0 && pos < 0 && pos >= -src.history_rows)
                return as_cd(src.history[(pos + src.history_rows) * src.width + col]);
            return 0.0;
        };
        for (long o = 0; o < win.rows; ++o)
            for (long c = 0; c < win.width; ++c) {
                std::complex<double> acc = 0.0;
                double bound = 0.0;
                for (int i = 0; i < k.rows; ++i)
                    for (int j = 0; j < k.cols; ++j) {
                        const auto v = x(win.first + o - i, c + win.col_offset - j);
                        const auto h = as_cd(k.at(i, j));
                        acc += h * v;
                        bound += std::abs(h) * std::abs(v);
                    }
                const std::size_t at = b * per_image + o * win.width + c;
                e.value[at] = acc;
                e.bound[at] = bound;
            }
    }
    return e;
}

/*!
 * The FFT's rounding is about eps * ||k|| * max|x| on every output, however small
 * its own terms (a corner of 'full', a 1 x 1 kernel on a small sample): raise each
 * bound to at least ||k||_F * max|x| for it.
 */
template <class T, class Tap>
void raise_bounds_for_fft(fir2d_expected& e,
                          const cuda::kernel2d<Tap>& k,
                          const std::vector<T>& x)
{
    double norm = 0.0, largest = 0.0;
    for (const auto& h : k.taps)
        norm += std::norm(as_cd(h));
    for (const auto& v : x) // NaN marks guard bands between images, not samples
        if (!std::isnan(std::abs(as_cd(v))))
            largest = std::max(largest, std::abs(as_cd(v)));
    const double floor = std::sqrt(norm) * largest;
    for (auto& b : e.bound)
        b = std::max(b, floor);
}

/*!
 * Every output within rel of its bound (plus a floor for outputs whose terms cancel
 * to nothing); got: images * rows * width items, image after image. Reports the
 * first few misses with their place.
 */
template <class T>
void expect_fir2d_close(const std::vector<T>& got,
                        const fir2d_expected& want,
                        const cuda::output_window& win,
                        double rel = 1e-5,
                        const std::string& what = "")
{
    ASSERT_EQ(got.size(), want.value.size()) << what;
    int misses = 0;
    double worst = 0.0;
    for (std::size_t n = 0; n < got.size(); ++n) {
        const double err = std::abs(as_cd(got[n]) - want.value[n]);
        const double allowed = rel * want.bound[n] + 1e-30;
        if (std::isfinite(err) && err <= allowed)
            continue;
        worst = std::max(worst, err / allowed);
        if (++misses <= 5) {
            const std::size_t per_image = static_cast<std::size_t>(win.rows) * win.width;
            ADD_FAILURE() << what << " output image " << n / per_image << " row "
                          << (n % per_image) / win.width << " column " << n % win.width
                          << ": got " << as_cd(got[n]) << ", want " << want.value[n]
                          << " (bound " << want.bound[n] << ")";
        }
    }
    EXPECT_EQ(misses, 0) << what << ": " << misses << " outputs off, worst " << worst
                         << " times the allowed error";
}

} // namespace test
} // namespace gpufilter
} // namespace gr

#endif
