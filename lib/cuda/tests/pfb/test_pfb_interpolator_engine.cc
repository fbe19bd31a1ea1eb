/* SPDX-License-Identifier: GPL-3.0-or-later */
// pfb_interpolator_engine against a float64 reference of gr-filter 3.10's
// pfb_interpolator_ccf(interp, taps): y[i*L + j] = sum_k h[j + k*L] x[i - k].

#include "pfb/pfb_interpolator_engine.h"
#include "pfb_test_support.h"
#include <gtest/gtest.h>
#include <string>

namespace gr {
namespace gpufilter {
namespace test {
namespace {

using cuda::complex;
using cuda::pfb_interpolator_engine;

constexpr double tolerance = 1e-5;
const std::vector<std::size_t> uneven_calls = { 4099, 1, 17, 0, 3001, 256, 7, 12289 };

//! Outputs of inputs [from, to) with the taps h, x read from the whole stream.
void reference_into(std::vector<cd>& y,
                    const std::vector<cd>& x,
                    unsigned L,
                    const std::vector<float>& h,
                    std::size_t from,
                    std::size_t to)
{
    const std::size_t T = (h.size() + L - 1) / L;
    y.resize(x.size() * L);
    for (std::size_t i = from; i < to; ++i)
        for (unsigned j = 0; j < L; ++j) {
            cd acc = 0.0;
            for (std::size_t k = 0; k < T && k <= i; ++k) {
                const std::size_t t = j + k * L;
                if (t < h.size())
                    acc += static_cast<double>(h[t]) * x[i - k];
            }
            y[i * L + j] = acc;
        }
}

std::vector<cd>
reference(const std::vector<cd>& x, unsigned L, const std::vector<float>& h)
{
    std::vector<cd> y;
    reference_into(y, x, L, h, 0, x.size());
    return y;
}

class pfb_interpolator_test : public ::testing::Test
{
protected:
    void SetUp() override { GPUFILTER_REQUIRE_DEVICE_OR_SKIP(); }
    std::mt19937 rng{ 97 };
};

TEST(pfb_interpolator_parameters, bad_arguments_throw_before_the_gpu)
{
    EXPECT_THROW(pfb_interpolator_engine(0, { 1.0f }), std::invalid_argument);
    EXPECT_THROW(pfb_interpolator_engine(4, {}), std::invalid_argument);
}

TEST_F(pfb_interpolator_test, matches_float64_reference_for_every_shape)
{
    for (const unsigned L : { 1u, 2u, 3u, 4u, 5u, 6u, 7u, 16u, 33u, 64u, 100u }) {
        for (const std::size_t ntaps : { std::size_t(1),
                                         std::size_t(L),
                                         std::size_t(L + 1),
                                         std::size_t(7 * L - 1),
                                         std::size_t(24 * L),
                                         std::size_t(1201) }) {
            const auto taps = random_taps(ntaps, rng);
            const auto x = random_samples<complex>(L >= 33 ? 3001 : 20011, rng);
            pfb_interpolator_engine e(L, taps);
            EXPECT_EQ(e.history_items(), (ntaps + L - 1) / L - 1);
            const auto y = run_processor(e, x, uneven_calls);
            const auto want = reference(widen_all(x), L, taps);
            ASSERT_EQ(y[0].size(), want.size());
            EXPECT_LT(relative_error(y[0], want), tolerance)
                << "L=" << L << " ntaps=" << ntaps;
        }
    }
}

TEST_F(pfb_interpolator_test, long_filters_stage_taps_in_chunks)
{
    // More than one tap chunk (512 taps per branch) per block.
    for (const unsigned L : { 1u, 3u }) {
        const auto taps = random_taps(L * 1300 + 1, rng);
        const auto x = random_samples<complex>(9000, rng);
        pfb_interpolator_engine e(L, taps);
        const auto y = run_processor(e, x, { 2999, 1, 5000 });
        EXPECT_LT(relative_error(y[0], reference(widen_all(x), L, taps)), tolerance)
            << "L=" << L;
    }
}

TEST_F(pfb_interpolator_test, set_taps_mid_stream)
{
    for (const unsigned L : { 2u, 5u, 16u }) {
        const auto a = random_taps(6 * L + 1, rng);  // T = 7
        const auto b = random_taps(3 * L, rng);      // T = 3: history trimmed
        const auto c = random_taps(11 * L - 2, rng); // T = 11: history reloaded
        const auto x = random_samples<complex>(12000, rng);
        const auto xw = widen_all(x);
        pfb_interpolator_engine e(L, a);
        const std::size_t at_b = 3001, at_c = 7003;
        const auto y = run_processor(
            e, x, uneven_calls, [&](std::size_t done, std::size_t n, cudaStream_t s) {
                if (done == at_b)
                    e.set_taps(b, s); // the newest inputs are the real past
                if (done == at_c) {
                    e.set_taps(c, s);
                    const void* past = x.data() + done - e.history_items();
                    e.set_history(&past, s); // as the block's window gives it
                }
                // Calls end exactly at the switch points.
                for (const std::size_t at : { at_b, at_c })
                    if (done < at && done + n > at)
                        return at - done;
                return n;
            });
        std::vector<cd> want;
        reference_into(want, xw, L, a, 0, at_b);
        reference_into(want, xw, L, b, at_b, at_c);
        reference_into(want, xw, L, c, at_c, x.size());
        EXPECT_LT(relative_error(y[0], want), tolerance) << "L=" << L;
    }
}

TEST_F(pfb_interpolator_test, history_restart)
{
    const unsigned L = 4;
    const auto taps = random_taps(37, rng);
    const auto x = random_samples<complex>(5000, rng);
    pfb_interpolator_engine e(L, taps);
    const auto y = run_processor(
        e, x, { 1000, 333 }, [&](std::size_t done, std::size_t n, cudaStream_t s) {
            if (done == 2000) {
                e.reset(s);
                const void* past = x.data() + done - e.history_items();
                e.set_history(&past, s);
            }
            return n;
        });
    EXPECT_LT(relative_error(y[0], reference(widen_all(x), L, taps)), tolerance);
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
