/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_TESTS_DEMOD_TEST_SUPPORT_H
#define INCLUDED_GPUFILTER_TESTS_DEMOD_TEST_SUPPORT_H

// What the demod family's tests share: float64 references, the kernel's arithmetic
// emulated on the host, comparisons, random samples and the loop of uneven calls.

#include "../gpu_test_env.h"
#include "../reference.h"
#include "common/resources.h"
#include "demod/complex_to_real_engine.h"
#include "demod/demod_controls.h"
#include "demod/quadrature_demod_engine.h"
#include "demod/quadrature_math.h"
#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace gr {
namespace gpufilter {
namespace test {

using cuda::complex;
using cuda::demod_layout;
using cuda::quadrature_demod_engine;

// gr::fast_atan2f's own error (linear interpolation in a 255-step table): 1.53e-6 rad
// at most over 2 million random points, plus float rounding of the result (up to pi).
inline constexpr double atan_tolerance = 2e-6;
inline const std::vector<std::size_t> uneven_calls = { 4099, 1, 17,    0, 3001,
                                                       256,  7, 12289, 2 };
inline const float nan_f = std::numeric_limits<float>::quiet_NaN();

//! a - b as angles: in [-pi, pi].
inline double angle_diff(double a, double b) { return std::remainder(a - b, 2 * M_PI); }

//! Channel c's float64 reference: gain * arg(x[t] * conj(x[t-1])), x[-1] = prev. A
//! zero product gives 0, as gr's fast_atan2f(0, 0) (std::arg of a product with signed
//! zeros can be pi).
inline std::vector<double>
reference_demod(const std::vector<complex>& x, double gain, cd prev)
{
    std::vector<double> y(x.size());
    for (std::size_t t = 0; t < x.size(); ++t) {
        const cd cur = widen(x[t]);
        const cd product = cur * std::conj(prev);
        y[t] = product == cd(0, 0) ? 0.0 : gain * std::arg(product);
        prev = cur;
    }
    return y;
}

//! The kernel's arithmetic on the host (quadrature_math.h): what the GPU must equal
//! bit for bit.
inline std::vector<float>
emulate_demod(const std::vector<complex>& x, float gain, complex prev)
{
    const auto table = cuda::fast_atan2f_table();
    std::vector<float> y(x.size());
    for (std::size_t t = 0; t < x.size(); ++t) {
        y[t] = cuda::quadrature::demod_sample(
            x[t].real(), x[t].imag(), prev.real(), prev.imag(), gain, table.data());
        prev = x[t];
    }
    return y;
}

//! Largest angle error of got (gain * angle) against want, in radians.
inline double max_angle_error(const std::vector<float>& got,
                              const std::vector<double>& want,
                              double gain)
{
    double worst = 0;
    for (std::size_t i = 0; i < want.size(); ++i) {
        const double e = std::abs(angle_diff(got[i] / gain, want[i] / gain));
        worst =
            std::isnan(e) ? std::numeric_limits<double>::infinity() : std::max(worst, e);
    }
    return worst;
}

inline std::size_t bit_mismatches(const std::vector<float>& a,
                                  const std::vector<float>& b)
{
    std::size_t bad = a.size() == b.size() ? 0 : std::max(a.size(), b.size());
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
        bad += std::memcmp(&a[i], &b[i], sizeof(float)) != 0;
    return bad;
}

inline std::vector<complex> nonzero_samples(std::size_t n, std::mt19937& g)
{
    auto x = random_vector<complex>(n, g);
    for (auto& v : x)
        if (v == complex(0.0f, 0.0f))
            v = complex(0.5f, -0.25f);
    return x;
}

/*!
 * Runs x (n_items items of `item` complex samples, interleaved) through p on the
 * device in calls of the given sizes (cycled), into an output poisoned with NaN and
 * 64 items longer than needed. before_call(consumed, s) may change p. Checks every
 * count and that nothing past the outputs was written; returns the floats.
 */
template <class Hook>
inline std::vector<float> run_interleaved(cuda::processor& p,
                                          const std::vector<complex>& x,
                                          std::size_t item,
                                          const std::vector<std::size_t>& calls,
                                          Hook before_call)
{
    const std::size_t n_items = x.size() / item;
    cuda::stream s;
    cuda::device_buffer<complex> d_in(std::max<std::size_t>(x.size(), 1));
    GPUFILTER_CHECK(cudaMemcpy(
        d_in.get(), x.data(), x.size() * sizeof(complex), cudaMemcpyHostToDevice));
    const std::size_t cap = (n_items + 64) * item;
    cuda::device_buffer<float> d_out(cap);
    std::vector<float> y(cap, nan_f);
    GPUFILTER_CHECK(
        cudaMemcpy(d_out.get(), y.data(), d_out.bytes(), cudaMemcpyHostToDevice));
    GPUFILTER_CHECK(cudaDeviceSynchronize());
    std::size_t consumed = 0;
    for (std::size_t call = 0; consumed < n_items; ++call) {
        const std::size_t n = std::min(calls[call % calls.size()], n_items - consumed);
        before_call(consumed, s.get());
        EXPECT_EQ(p.output_count(n), n);
        const void* in = d_in.get() + consumed * item;
        void* out = d_out.get() + consumed * item;
        EXPECT_EQ(p.process(&in, n, &out, s.get()), n);
        consumed += n;
    }
    s.synchronize();
    GPUFILTER_CHECK(
        cudaMemcpy(y.data(), d_out.get(), d_out.bytes(), cudaMemcpyDeviceToHost));
    std::size_t written_past = 0;
    for (std::size_t i = n_items * item; i < y.size(); ++i)
        written_past += !std::isnan(y[i]);
    EXPECT_EQ(written_past, 0u) << "written past the outputs";
    y.resize(n_items * item);
    return y;
}

inline std::vector<float> run_interleaved(cuda::processor& p,
                                          const std::vector<complex>& x,
                                          std::size_t item,
                                          const std::vector<std::size_t>& calls)
{
    return run_interleaved(p, x, item, calls, [](std::size_t, cudaStream_t) {});
}

//! Channel c of an interleaved stream of `channels` channels.
template <class T>
std::vector<T> channel_of(const std::vector<T>& v, std::size_t channels, std::size_t c)
{
    std::vector<T> out;
    for (std::size_t i = c; i < v.size(); i += channels)
        out.push_back(v[i]);
    return out;
}

class demod_test : public ::testing::Test
{
protected:
    void SetUp() override { GPUFILTER_REQUIRE_DEVICE_OR_SKIP(); }
    std::mt19937 rng{ 2718 };
};

} // namespace test
} // namespace gpufilter
} // namespace gr

#endif
