/* SPDX-License-Identifier: GPL-3.0-or-later */
// pfb_decimator_engine against the float64 reference of gr-filter 3.10's
// stream_to_streams(M) -> pfb_decimator_ccf(M, taps, channel, use_fft_rotator,
// use_fft_filters), for every channel and flag combination.

#include "pfb/pfb_decimator_engine.h"
#include "pfb_test_support.h"
#include <gtest/gtest.h>
#include <string>

namespace gr {
namespace gpufilter {
namespace test {
namespace {

using cuda::complex;
using cuda::pfb_decimator_engine;

constexpr double tolerance = 1e-5;
const std::vector<std::size_t> uneven_calls = { 4099, 1, 17, 0, 3001, 256, 7, 12289 };

class pfb_decimator_test : public ::testing::Test
{
protected:
    void SetUp() override { GPUFILTER_REQUIRE_DEVICE_OR_SKIP(); }
    std::mt19937 rng{ 4321 };
};

std::vector<std::vector<cd>> one(std::vector<cd> v) { return { std::move(v) }; }

TEST(pfb_decimator_parameters, bad_arguments_throw_before_the_gpu)
{
    const std::vector<float> taps(16, 0.5f);
    using E = pfb_decimator_engine<complex>;
    EXPECT_THROW(E(0, taps, 0), std::invalid_argument);
    EXPECT_THROW(E(4, {}, 0), std::invalid_argument);
    EXPECT_THROW(E(4, taps, 4), std::invalid_argument);
}

TEST_F(pfb_decimator_test, every_channel_and_flag_combination)
{
    for (const unsigned M : { 1u, 2u, 3u, 5u, 8u, 16u, 36u, 64u }) {
        for (const std::size_t ntaps : { std::size_t(M + 1), std::size_t(7 * M - 1) }) {
            const auto taps = random_taps(ntaps, rng);
            const auto x = random_samples<complex>(M * 1100 + M / 2, rng);
            const auto xw = widen_all(x);
            std::vector<unsigned> channels;
            for (unsigned c = 0; c < M; ++c)
                if (M <= 16 || c < 2 || c == M / 2 || c + 1 == M)
                    channels.push_back(c);
            for (const unsigned chan : channels)
                for (const bool fft_rotator : { true, false }) {
                    const auto want = reference_decimator(xw, M, taps, chan, fft_rotator);
                    for (const bool fft_filters : { true, false }) {
                        pfb_decimator_engine<complex> e(
                            M, taps, chan, fft_rotator, fft_filters);
                        EXPECT_EQ(e.history_items(), M * ((ntaps + M - 1) / M) - 1);
                        const auto y = run_processor(e, x, uneven_calls);
                        ASSERT_EQ(y.size(), 1u);
                        ASSERT_EQ(y[0].size(), want.size());
                        EXPECT_LE(relative_error(y, one(want)), tolerance)
                            << "M=" << M << " ntaps=" << ntaps << " channel=" << chan
                            << " fft_rotator=" << fft_rotator
                            << " fft_filters=" << fft_filters;
                    }
                }
        }
    }
}

TEST_F(pfb_decimator_test, large_decimation)
{
    for (const unsigned M : { 256u, 1000u }) {
        const auto taps = random_taps(M * 5 + 3, rng);
        const auto x = random_samples<complex>(M * 300 + 1, rng);
        for (const unsigned chan : { 0u, 1u, M / 3, M - 1 })
            for (const bool fft_rotator : { true, false }) {
                const auto want =
                    reference_decimator(widen_all(x), M, taps, chan, fft_rotator);
                pfb_decimator_engine<complex> e(M, taps, chan, fft_rotator);
                const auto y = run_processor(e, x, { M * 7 + 3, 5 });
                EXPECT_LE(relative_error(y, one(want)), tolerance)
                    << "M=" << M << " channel=" << chan << " fft_rotator=" << fft_rotator;
            }
    }
}

TEST_F(pfb_decimator_test, set_taps_and_set_channel_mid_stream)
{
    const unsigned M = 8;
    const auto a = random_taps(M * 6 + 1, rng);
    const auto fewer = random_taps(M * 2 + 3, rng);
    const auto x = random_samples<complex>(M * 3000, rng);
    const auto xw = widen_all(x);
    for (const bool fft_rotator : { true, false }) {
        // set_taps with fewer taps per filter, mid-output.
        const std::size_t at = M * 1200 + 3;
        pfb_decimator_engine<complex> e(M, a, 3, fft_rotator);
        const auto y = run_processor(
            e, x, { 77, 1000 }, [&](std::size_t consumed, std::size_t n, cudaStream_t s) {
                if (consumed == at)
                    e.set_taps(fewer, s);
                return consumed < at ? std::min(n, at - consumed) : n;
            });
        const auto want = reference_decimator(xw, M, a, 3, fft_rotator, at / M, &fewer);
        EXPECT_LE(relative_error(y, one(want)), tolerance)
            << "fft_rotator=" << fft_rotator;

        // set_channel at a call boundary.
        const std::size_t sw = M * 1500;
        pfb_decimator_engine<complex> e2(M, a, 1, fft_rotator);
        EXPECT_THROW(e2.set_channel(M, nullptr), std::invalid_argument);
        const auto y2 = run_processor(
            e2, x, { 500 }, [&](std::size_t consumed, std::size_t n, cudaStream_t s) {
                if (consumed == sw)
                    e2.set_channel(6, s);
                return consumed < sw ? std::min(n, sw - consumed) : n;
            });
        const auto w1 = reference_decimator(xw, M, a, 1, fft_rotator);
        const auto w6 = reference_decimator(xw, M, a, 6, fft_rotator);
        std::vector<cd> want2(w1.begin(), w1.begin() + sw / M);
        want2.insert(want2.end(), w6.begin() + sw / M, w6.end());
        EXPECT_LE(relative_error(y2, one(want2)), tolerance)
            << "fft_rotator=" << fft_rotator;
    }
}

template <class In>
class pfb_decimator_format_test : public pfb_decimator_test
{
};
using formats = ::testing::Types<complex, cuda::iq_s8, cuda::iq_u8, cuda::iq_s16>;
TYPED_TEST_SUITE(pfb_decimator_format_test, formats);

TYPED_TEST(pfb_decimator_format_test, integer_formats)
{
    for (const unsigned M : { 4u, 5u, 32u }) {
        const auto taps = random_taps(M * 4 + 1, this->rng);
        const auto x = random_samples<TypeParam>(M * 900 + 2, this->rng);
        const auto want = reference_decimator(widen_all(x), M, taps, M - 1, true);
        pfb_decimator_engine<TypeParam> e(M, taps, M - 1);
        const auto y = run_processor(e, x, uneven_calls);
        EXPECT_LE(relative_error(y, one(want)), tolerance) << "M=" << M;
    }
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
