/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_TESTS_REFERENCE_H
#define INCLUDED_GPUFILTER_TESTS_REFERENCE_H

// Random samples and float64 reference filters for the engine tests.

#include "common/sample_types.h"
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace gr {
namespace gpufilter {
namespace test {

using cd = std::complex<double>;

inline float random_value(std::mt19937& g, float*)
{
    return std::uniform_real_distribution<float>(-1.0f, 1.0f)(g);
}
inline cuda::complex random_value(std::mt19937& g, cuda::complex*)
{
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    const float re = u(g);
    return { re, u(g) };
}

//! Full-range 16-bit samples, as an SDR delivers them.
inline std::int16_t random_value(std::mt19937& g, std::int16_t*)
{
    return static_cast<std::int16_t>(
        std::uniform_int_distribution<int>(-32768, 32767)(g));
}

template <class T>
std::vector<T> random_vector(std::size_t n, std::mt19937& g)
{
    std::vector<T> v(n);
    for (auto& x : v)
        x = random_value(g, static_cast<T*>(nullptr));
    return v;
}

template <class T>
T poison()
{
    return T(std::numeric_limits<float>::quiet_NaN());
}

inline cd widen(float x) { return cd(x, 0.0); }
inline cd widen(cuda::complex x) { return cd(x.real(), x.imag()); }
inline cd widen(std::int16_t x) { return cd(x, 0.0); }

//! y[k] = sum_j taps[j] * x[k*D - j], x[i < 0] = 0, in float64.
template <class In, class Tap>
std::vector<cd>
reference_fir(const std::vector<In>& x, const std::vector<Tap>& taps, int D)
{
    std::vector<cd> y;
    for (std::size_t newest = 0; newest < x.size(); newest += D) {
        cd acc = 0;
        for (std::size_t j = 0; j < taps.size() && j <= newest; ++j)
            acc += widen(taps[j]) * widen(x[newest - j]);
        y.push_back(acc);
    }
    return y;
}

//! ||got - want|| / ||want|| over all samples; NaN (an unwritten output) gives NaN.
template <class Out>
double relative_error(const std::vector<Out>& got, const std::vector<cd>& want)
{
    double num = 0, den = 0;
    for (std::size_t i = 0; i < want.size(); ++i) {
        num += std::norm(widen(got[i]) - want[i]);
        den += std::norm(want[i]);
    }
    return std::sqrt(num / den);
}

} // namespace test
} // namespace gpufilter
} // namespace gr

#endif
