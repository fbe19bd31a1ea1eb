/* SPDX-License-Identifier: GPL-3.0-or-later */
// The polyphase rational resampler against a float64 reference: every type, ratios
// with and without common factors, both first-window rules, vector lanes, the stream
// split into uneven calls, and new taps mid-stream.

#include "../gpu_test_env.h"
#include "../reference.h"
#include "common/resources.h"
#include "resampler/rational_engine.h"
#include "resampler/rational_types.h"
#include <gtest/gtest.h>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace gr {
namespace gpufilter {
namespace test {
namespace {

using cuda::rational_start;

//! Output k of lane l: sum_j taps[j*I + p] * x[(n - j)*vlen + l], n = floor(k*D/I)
//! (+ T-1 for first_window), for every output whose window lies in x.
template <class In, class Tap>
std::vector<cd> reference_rational(const std::vector<In>& x,
                                   const std::vector<Tap>& taps,
                                   unsigned I,
                                   unsigned D,
                                   rational_start start,
                                   unsigned vlen)
{
    const std::size_t T = (taps.size() + I - 1) / I;
    const std::size_t offset = start == rational_start::first_window ? T - 1 : 0;
    const std::size_t items = x.size() / vlen;
    std::vector<cd> y;
    for (std::uint64_t k = 0;; ++k) {
        const std::size_t n = k * D / I + offset, p = k * D % I;
        if (n >= items)
            break;
        for (unsigned l = 0; l < vlen; ++l) {
            cd acc = 0;
            for (std::size_t j = 0; j < T && j <= n; ++j) {
                const std::size_t t = j * I + p;
                if (t < taps.size())
                    acc += widen(taps[t]) * widen(x[(n - j) * vlen + l]);
            }
            y.push_back(acc);
        }
    }
    return y;
}

//! Runs x (items of vlen samples) through the engine in calls of the given sizes
//! (cycled); checks each call's count against output_count(). set_taps_at: the call
//! before which `later_taps` replace the taps (none: -1).
template <class In, class Out, class Tap>
std::vector<Out> run_calls(cuda::rational_engine<In, Out, Tap>& engine,
                           const std::vector<In>& x,
                           unsigned vlen,
                           const std::vector<std::size_t>& call_sizes,
                           int set_taps_at = -1,
                           const std::vector<Tap>& later_taps = {})
{
    cuda::stream s;
    const std::size_t items = x.size() / vlen;
    const std::size_t cap = engine.max_output_count(items) * vlen + 64;
    cuda::device_buffer<In> d_in(x.size());
    cuda::device_buffer<Out> d_out(cap);
    GPUFILTER_CHECK(
        cudaMemcpy(d_in.get(), x.data(), x.size() * sizeof(In), cudaMemcpyHostToDevice));
    GPUFILTER_CHECK(cudaDeviceSynchronize());
    std::size_t consumed = 0, produced = 0;
    for (int call = 0; consumed < items; ++call) {
        if (call == set_taps_at)
            engine.set_taps(later_taps, s);
        const std::size_t n =
            std::min(call_sizes[call % call_sizes.size()], items - consumed);
        const std::size_t expected = engine.output_count(n);
        const std::size_t got = engine.process(
            d_in.get() + consumed * vlen, n, d_out.get() + produced * vlen, s);
        EXPECT_EQ(got, expected) << "call " << call << " n=" << n;
        consumed += n;
        produced += got;
    }
    s.synchronize();
    std::vector<Out> y(produced * vlen);
    GPUFILTER_CHECK(cudaMemcpy(
        y.data(), d_out.get(), y.size() * sizeof(Out), cudaMemcpyDeviceToHost));
    return y;
}

//! The int16 outputs against the reference truncated as gr-filter truncates: within
//! one count (float rounding can put a value on either side of an integer).
double int16_error(const std::vector<std::int16_t>& got, const std::vector<cd>& want)
{
    double worst = 0;
    for (std::size_t i = 0; i < want.size(); ++i)
        worst = std::max(worst, std::abs(got[i] - std::trunc(want[i].real())));
    return worst;
}

template <class Out>
void expect_matches(const std::vector<Out>& got,
                    const std::vector<cd>& want,
                    const std::string& what)
{
    ASSERT_EQ(got.size(), want.size()) << what;
    if constexpr (std::is_same_v<Out, std::int16_t>)
        EXPECT_LE(int16_error(got, want), 1.0) << what;
    else
        EXPECT_LT(relative_error(got, want), 2e-6) << what;
}

template <class In_, class Out_, class Tap_>
struct types {
    using In = In_;
    using Out = Out_;
    using Tap = Tap_;
};
#define GPUFILTER_RATIONAL_TEST_TYPE(In, Out, Tap) types<In, Out, Tap>,
using all_types = ::testing::Types<GPUFILTER_FOR_EACH_RATIONAL_TYPE(
    GPUFILTER_RATIONAL_TEST_TYPE) types<float, float, float>>;

template <class T>
class rational_engine_test : public ::testing::Test
{
protected:
    void SetUp() override { GPUFILTER_REQUIRE_DEVICE_OR_SKIP(); }
    std::mt19937 rng{ 160147 };

    //! Scaled so that int16 outputs stay in range, and int16 inputs with them.
    std::vector<typename T::In> input(std::size_t n)
    {
        auto x = random_vector<typename T::In>(n, rng);
        if constexpr (std::is_same_v<typename T::Out, std::int16_t>)
            for (auto& v : x)
                v *= 300.0f;
        return x;
    }
    std::vector<typename T::Tap> taps(std::size_t n)
    {
        auto h = random_vector<typename T::Tap>(n, rng);
        if constexpr (std::is_same_v<typename T::In, std::int16_t>)
            for (auto& v : h)
                v *= 1e-3f;
        return h;
    }
};
TYPED_TEST_SUITE(rational_engine_test, all_types);

TYPED_TEST(rational_engine_test, matches_float64_reference)
{
    using In = typename TypeParam::In;
    using Out = typename TypeParam::Out;
    using Tap = typename TypeParam::Tap;
    const unsigned ratios[][2] = { { 1, 1 },     { 3, 2 },  { 2, 3 },  { 147, 160 },
                                   { 160, 147 }, { 1, 10 }, { 10, 1 }, { 4, 6 },
                                   { 6, 4 },     { 4, 1 },  { 1, 7 } };
    for (const auto& r : ratios)
        for (const std::size_t ntaps : { 1, 7, 64, 257 })
            for (const auto start :
                 { rational_start::zero_history, rational_start::first_window }) {
                const auto h = this->taps(ntaps);
                const auto x = this->input(6000);
                cuda::rational_engine<In, Out, Tap> engine(r[0], r[1], h, start);
                const auto y = run_calls(engine, x, 1, { 1, 5, 997, 64, 2048 });
                expect_matches(y,
                               reference_rational(x, h, r[0], r[1], start, 1),
                               std::to_string(r[0]) + "/" + std::to_string(r[1]) +
                                   " ntaps=" + std::to_string(ntaps) +
                                   " start=" + std::to_string(static_cast<int>(start)));
            }
}

TYPED_TEST(rational_engine_test, vector_lanes_resample_independently)
{
    using In = typename TypeParam::In;
    using Out = typename TypeParam::Out;
    using Tap = typename TypeParam::Tap;
    for (const unsigned vlen : { 2u, 7u, 81u }) {
        const auto h = this->taps(265);
        const auto x = this->input(vlen * 3000);
        cuda::rational_engine<In, Out, Tap> engine(
            3, 5, h, rational_start::first_window, vlen);
        const auto y = run_calls(engine, x, vlen, { 333, 1, 1024 });
        expect_matches(y,
                       reference_rational(x, h, 3, 5, rational_start::first_window, vlen),
                       "vlen=" + std::to_string(vlen));
    }
}

TYPED_TEST(rational_engine_test, new_taps_keep_the_next_outputs_newest_sample)
{
    using In = typename TypeParam::In;
    using Out = typename TypeParam::Out;
    using Tap = typename TypeParam::Tap;
    // Same length: the stream is the old filter's, then the new one's, exactly.
    const auto h1 = this->taps(99), h2 = this->taps(99);
    const auto x = this->input(4000);
    cuda::rational_engine<In, Out, Tap> engine(3, 2, h1, rational_start::first_window);
    const auto y = run_calls(engine, x, 1, { 1000 }, 2, h2);
    const auto want1 = reference_rational(x, h1, 3, 2, rational_start::first_window, 1);
    const auto want2 = reference_rational(x, h2, 3, 2, rational_start::first_window, 1);
    ASSERT_EQ(y.size(), want1.size());
    // Outputs whose newest sample is one of the first 2000: the old taps'.
    const std::size_t split = (2000 - 32) * 3 / 2;
    expect_matches(std::vector<Out>(y.begin(), y.begin() + split),
                   std::vector<cd>(want1.begin(), want1.begin() + split),
                   "before");
    expect_matches(std::vector<Out>(y.begin() + split, y.end()),
                   std::vector<cd>(want2.begin() + split, want2.end()),
                   "after");
}

TEST(rational_engine_arguments, bad_arguments_name_the_parameter)
{
    GPUFILTER_REQUIRE_DEVICE_OR_SKIP();
    using engine = cuda::rational_engine<float, float, float>;
    const std::vector<float> h{ 1.0f, 2.0f };
    EXPECT_THROW(engine(0, 1, h), std::invalid_argument);
    EXPECT_THROW(engine(1, 0, h), std::invalid_argument);
    EXPECT_THROW(engine(1, 1, {}), std::invalid_argument);
    EXPECT_THROW(engine(1, 1, h, rational_start::zero_history, 0), std::invalid_argument);
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
