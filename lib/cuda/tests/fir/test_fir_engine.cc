/* SPDX-License-Identifier: GPL-3.0-or-later */
// fir_engine and the host path against a float64 reference on random data.

#include "common/device.h"
#include "engine_test_support.h"
#include "fir/fir_engine.h"
#include "fir/fir_tuning.h"
#include <gtest/gtest.h>
#include <algorithm>
#include <cstdlib>
#include <string>

namespace gr {
namespace gpufilter {
namespace test {
namespace {

using cuda::complex;

constexpr double direct_tolerance = 1e-5;

template <class T>
class fir_engine_test : public engine_test<T, 12345>
{
protected:
    using In = typename T::In;
    using Tap = typename T::Tap;

    // Random taps and input (drawn in that order) through one engine made with
    // `tuning` in calls of the given sizes, against the float64 reference.
    void
    expect_matches_reference(int ntaps,
                             int D,
                             std::size_t len,
                             const std::vector<std::size_t>& calls,
                             const cuda::fir_tuning& tuning = test_fir_tuning<In, Tap>())
    {
        const auto taps = random_vector<Tap>(ntaps, this->rng);
        const auto x = random_vector<In>(len, this->rng);
        cuda::fir_engine<In, Tap> engine(taps, D, tuning);
        const auto y = run_engine(engine, x, calls);
        const auto want = reference_fir(x, taps, D);
        ASSERT_EQ(y.size(), want.size()) << "ntaps=" << ntaps << " D=" << D;
        EXPECT_LE(relative_error(y, want), direct_tolerance)
            << "ntaps=" << ntaps << " D=" << D;
    }
};
TYPED_TEST_SUITE(fir_engine_test, all_types);

TYPED_TEST(fir_engine_test, matches_float64_reference_over_taps_and_decimations)
{
    const std::vector<int> tap_counts = { 1,   2,   3,   7,    16,   31,   64,
                                          255, 256, 257, 1000, 1024, 4095, 4096 };
    const std::vector<std::size_t> calls = { 4099, 1, 17, 0, 30011, 256, 7, 12289 };
    for (int ntaps : tap_counts) {
        for (int D = 1; D <= 7; ++D)
            ASSERT_NO_FATAL_FAILURE(
                this->expect_matches_reference(ntaps, D, 60000 + 13 * D, calls));
    }
}

// The blocked kernel (fir_blocked_kernels.cuh) computes R = 8 (fff: 16) outputs per
// thread over chunks of up to 256 sub-taps per phase (sub-taps of phase p: the taps
// j = q*D + p). Tap counts on both sides of every R block and chunk boundary, for
// phase 0 and the last phase, odd and even; D = 1..8 (block sizes 256, 128, 64).
TYPED_TEST(fir_engine_test, blocked_kernel_around_block_and_chunk_boundaries)
{
    const std::vector<std::size_t> calls = { 5003, 1, 2047, 4096, 333 };
    for (int D = 1; D <= 8; ++D) {
        // Sub-tap counts of phase 0 around 4 (the least the blocked kernel takes), 8,
        // 16, 256 (a chunk) and, for D = 1 (the reference is slow), 512; the other
        // phases then have one sub-tap fewer, or the same.
        std::vector<int> qs = { 4, 7, 8, 9, 15, 16, 17, 33, 255, 256, 257 };
        if (D == 1)
            qs.insert(qs.end(), { 512, 513 });
        std::vector<int> tap_counts;
        for (int q : qs)
            for (int dt : { -1, 0, 1 })
                if ((q - 1) * D + 1 + dt >= 1)
                    tap_counts.push_back((q - 1) * D + 1 + dt);
        for (int ntaps : tap_counts)
            ASSERT_NO_FATAL_FAILURE(
                this->expect_matches_reference(ntaps, D, 9000 + 7 * D + ntaps, calls));
    }
}

// Large decimations with enough taps per phase for the blocked kernel, and the
// longest filter the engine is meant for (27 chunks of sub-taps at D = 3).
TYPED_TEST(fir_engine_test, blocked_kernel_large_decimations_and_long_filters)
{
    struct config {
        int ntaps, D;
        std::size_t len;
    };
    for (const config c : { config{ 67, 16, 40000 },
                            config{ 403, 100, 60000 },
                            config{ 20000, 1000, 300000 },
                            config{ 20000, 3, 24000 } })
        ASSERT_NO_FATAL_FAILURE(this->expect_matches_reference(
            c.ntaps, c.D, c.len, { 12345, std::size_t(c.D), 777 }));
}

// The deinterleaved kernel (fir_deinterleaved_kernels.cuh) stages groups of up to G
// phases (all D when they fit) with chunks of up to 64 sub-taps per phase, R = 8
// (fff: 16) outputs per thread, 64 threads at D <= 8, else 32. Tap counts around 4
// sub-taps per phase, the R block, the 64 chunk and 256 sub-taps; D = 5 and 13 leave
// uneven phase groups and, forced, D = 5 runs it below its automatic range.
TYPED_TEST(fir_engine_test, deinterleaved_kernel_around_chunk_and_group_boundaries)
{
    auto deinterleaved =
        test_fir_tuning<typename TypeParam::In, typename TypeParam::Tap>();
    deinterleaved.kernel = cuda::fir_kernel::deinterleaved;
    const std::vector<std::size_t> calls = { 5003, 1, 2047, 4096, 333 };
    for (int D : { 5, 8, 13, 16, 32, 64 }) {
        std::vector<int> tap_counts = { D - 3,      4 * D,  4 * D + 1, 9 * D - 1,
                                        64 * D - 1, 64 * D, 64 * D + 1 };
        if (256 * D + 1 <= 4200)
            tap_counts.insert(tap_counts.end(), { 256 * D - 1, 256 * D, 256 * D + 1 });
        for (int ntaps : tap_counts)
            ASSERT_NO_FATAL_FAILURE(this->expect_matches_reference(
                ntaps, D, 6000 + 40 * D + 3 * ntaps, calls, deinterleaved));
    }
}

TYPED_TEST(fir_engine_test, any_split_into_calls_equals_one_call)
{
    using In = typename TypeParam::In;
    using Tap = typename TypeParam::Tap;
    const auto taps = random_vector<Tap>(129, this->rng);
    const auto x = random_vector<In>(20000, this->rng);
    const auto tuning = test_fir_tuning<In, Tap>();
    for (int D : { 1, 3, 5 }) {
        cuda::fir_engine<In, Tap> whole(taps, D, tuning), pieces(taps, D, tuning);
        const auto y1 = run_engine(whole, x, { x.size() });
        // Many calls, several shorter than the decimation or the filter.
        const auto y2 = run_engine(pieces, x, { 1, 2, 0, 5, 64, 128, 129, 130, 3 });
        ASSERT_EQ(y1.size(), y2.size());
        EXPECT_LE(relative_error(y2, reference_fir(x, taps, D)), direct_tolerance);
        for (std::size_t i = 0; i < y1.size(); ++i)
            ASSERT_EQ(y1[i], y2[i]) << "output " << i << " D=" << D;
    }
}

TYPED_TEST(fir_engine_test, large_decimation_uses_untiled_kernel_correctly)
{
    for (int D : { 64, 100, 1000 })
        ASSERT_NO_FATAL_FAILURE(
            this->expect_matches_reference(300, D, 50000, { 7777, 12345 }));
}

TYPED_TEST(fir_engine_test, set_taps_keeps_stream_alignment)
{
    using In = typename TypeParam::In;
    using Tap = typename TypeParam::Tap;
    const int D = 3;
    const auto x = random_vector<In>(9000, this->rng);
    const std::size_t split = 4500; // a multiple of D: the switch falls on an output
    for (int second_len : { 50, 17, 200 }) {
        const auto taps1 = random_vector<Tap>(50, this->rng);
        const auto taps2 = random_vector<Tap>(second_len, this->rng);
        cuda::fir_engine<In, Tap> engine(taps1, D, test_fir_tuning<In, Tap>());
        cuda::stream s;
        const std::vector<In> head(x.begin(), x.begin() + split),
            tail(x.begin() + split, x.end());
        const auto y1 = run_engine(engine, head, { 1000 });
        engine.set_taps(taps2, s);
        const auto y2 = run_engine(engine, tail, { 999 });

        // After the switch the engine knows only the last 49 samples; older ones are 0.
        std::vector<In> seen = x;
        for (std::size_t i = 0; i + 49 < split; ++i)
            seen[i] = In(0);
        const auto want1 = reference_fir(head, taps1, D);
        auto want2 = reference_fir(seen, taps2, D);
        want2.erase(want2.begin(), want2.begin() + split / D);
        EXPECT_LE(relative_error(y1, want1), direct_tolerance);
        ASSERT_EQ(y2.size(), want2.size());
        EXPECT_LE(relative_error(y2, want2), direct_tolerance)
            << "second_len=" << second_len;
    }
}

TYPED_TEST(fir_engine_test, set_history_then_process_matches_reference)
{
    using In = typename TypeParam::In;
    using Tap = typename TypeParam::Tap;
    const auto taps = random_vector<Tap>(77, this->rng);
    const auto x = random_vector<In>(5000, this->rng);
    cuda::fir_engine<In, Tap> engine(taps, 2, test_fir_tuning<In, Tap>());
    cuda::stream s;
    run_engine(engine, random_vector<In>(333, this->rng), { 333 }); // leave phase 1
    engine.set_history(x.data(), s);
    const std::vector<In> rest(x.begin() + 76, x.end());
    const auto y = run_engine(engine, rest, { 1234 });
    auto want = reference_fir(x, taps, 1);
    std::vector<cd> kept;
    for (std::size_t i = 76; i < want.size(); i += 2)
        kept.push_back(want[i]);
    ASSERT_EQ(y.size(), kept.size());
    EXPECT_LE(relative_error(y, kept), direct_tolerance);
}

TYPED_TEST(fir_engine_test, host_stream_matches_reference_across_chunks)
{
    using In = typename TypeParam::In;
    using Tap = typename TypeParam::Tap;
    using Out = typename TypeParam::Out;
    const auto taps = random_vector<Tap>(333, this->rng);
    const auto x = random_vector<In>(50000, this->rng);
    for (int D : { 1, 4, 7 }) {
        fir_host_path<In, Tap> fs(0, taps, D, 1000); // chunks smaller than the calls
        std::vector<Out> out(x.size());
        const auto y = run_stream(fs, x, out, { 2500, 1, 999, 4001 });
        EXPECT_LE(relative_error(y, reference_fir(x, taps, D)), direct_tolerance)
            << "D=" << D;
    }
}

TEST(fir_engine_errors, bad_parameters_name_the_parameter)
{
    GPUFILTER_REQUIRE_DEVICE_OR_SKIP();
    try {
        cuda::fir_engine<float, float> e({}, 1);
        FAIL() << "empty taps accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("taps"), std::string::npos);
    }
    try {
        cuda::fir_engine<float, float> e({ 1.0f }, 0);
        FAIL() << "decimation 0 accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("decimation"), std::string::npos);
    }
}

TEST(fir_engine_errors, cuda_failure_throws_with_cuda_message)
{
    GPUFILTER_REQUIRE_DEVICE_OR_SKIP();
    try {
        cuda::use_device(cuda::device_count() + 7);
        FAIL() << "an absent device was accepted";
    } catch (const cuda::cuda_error& e) {
        EXPECT_NE(std::string(e.what()).find("cudaErrorInvalidDevice"), std::string::npos)
            << e.what();
    }
}

TEST(device, count_never_throws)
{
    std::string why;
    const int n = cuda::device_count(&why);
    EXPECT_GE(n, 0);
    if (n == 0) {
        EXPECT_FALSE(why.empty());
    }
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
