/* SPDX-License-Identifier: GPL-3.0-or-later */
// The rotation phase bookkeeping (rotation.h) against exact integer arithmetic.
// Host code only: runs without a GPU.

#include "common/rotation.h"
#include <gtest/gtest.h>
#include <cmath>
#include <cstdint>

namespace gr {
namespace gpufilter {
namespace test {
namespace {

using cuda::phase_cycles;
using cuda::rotation;
using cuda::wrap_cycles;

// frac(k * step) exactly: step = m * 2^-s with integer m, so k*step mod 1 is
// (k*m mod 2^s) / 2^s, with k*m formed in 128-bit integers. Then the start is added
// in long double and the sum wrapped to [-0.5, 0.5].
long double exact_phase(double start, double step, std::uint64_t k)
{
    int e;
    const double mantissa = std::frexp(step, &e); // step = mantissa * 2^e, |mantissa| < 1
    const auto m = static_cast<__int128>(std::ldexp(mantissa, 53));
    const int s = 53 - e; // step = m * 2^-s
    EXPECT_GT(s, 0);
    EXPECT_LT(s, 120);
    const __int128 one = static_cast<__int128>(1) << s;
    __int128 r = (static_cast<__int128>(k) * m) % one;
    if (r < 0)
        r += one;
    const long double frac = std::ldexp(static_cast<long double>(r), -s);
    long double p = frac + static_cast<long double>(start);
    return p - std::nearbyintl(p);
}

double cycle_distance(long double a, long double b)
{
    const long double d = a - b;
    return static_cast<double>(std::fabs(d - std::nearbyint(d)));
}

TEST(rotation, wrap_keeps_the_phase_and_lands_in_half_a_cycle)
{
    for (double x : { 0.0, 0.25, 0.5, -0.5, 0.75, -0.75, 3.2, -7.9, 1e9 + 0.125 }) {
        const double w = wrap_cycles(x);
        EXPECT_LE(std::fabs(w), 0.5) << x;
        EXPECT_EQ(w - x, std::nearbyint(w - x)) << x; // differs by whole cycles only
    }
}

TEST(rotation, phase_is_exact_for_huge_output_counts)
{
    const double steps[] = { 0.123456789, -0.3,      1.234567e-7,
                             0.5,         0.25,      -0.4999999,
                             1.75,        -2.000001, 12345.678 / 32000.0 * 7 };
    const double starts[] = { 0.0, 0.3, -0.49 };
    const std::uint64_t counts[] = {
        0, 1, 12345, (1ull << 31) + 7, 1000000000000ull + 3, (1ull << 53) - 1
    };
    for (double step : steps)
        for (double start : starts)
            for (std::uint64_t k : counts) {
                const double got = phase_cycles({ start, step }, k);
                EXPECT_LE(std::fabs(got), 0.5);
                // ~4 roundings of values below 1 cycle: well under 1e-15 cycles.
                EXPECT_LE(cycle_distance(got, exact_phase(start, step, k)), 1e-15)
                    << "step=" << step << " start=" << start << " k=" << k;
            }
}

TEST(rotation, restarting_from_the_next_phase_continues_the_same_rotation)
{
    // What the engine does at a retune without a phase jump: a new rotation whose
    // start is the old one's phase at the switch. It must continue exactly.
    const rotation r{ 0.1234, -0.3857291 };
    for (std::uint64_t a : { 1ull, 1000ull, 123456789ull, 1ull << 40 })
        for (std::uint64_t b : { 0ull, 1ull, 999ull, 1ull << 33 }) {
            const rotation next{ phase_cycles(r, a), r.step_cycles };
            EXPECT_LE(cycle_distance(phase_cycles(next, b), phase_cycles(r, a + b)),
                      2e-16)
                << "a=" << a << " b=" << b;
        }
}

TEST(rotation, a_float_phase_step_would_drift_but_the_count_does_not)
{
    // The reason for deriving the phase from a count: after 10^8 outputs a float
    // phase increment's rounding alone is worth ~1 rad; the derived phase stays exact.
    const double step = 0.0123456789;
    const std::uint64_t k = 100000000;
    const double drift =
        std::fabs(static_cast<double>(static_cast<float>(step)) - step) * k;
    EXPECT_GT(drift, 1e-3);
    EXPECT_LE(cycle_distance(phase_cycles({ 0.0, step }, k), exact_phase(0.0, step, k)),
              1e-15);
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
