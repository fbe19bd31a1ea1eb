/* SPDX-License-Identifier: GPL-3.0-or-later */
// fft_fir_engine (overlap-save on cuFFT) against a float64 reference on random data,
// and against the direct fir_engine for the fused rotation.

#include "engine_test_support.h"
#include "fir/fft_fir_engine.h"
#include "fir/fir_engine.h"
#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>
#include <string>
#include <thread>
#include <utility>

namespace gr {
namespace gpufilter {
namespace test {
namespace {

using cuda::complex;

// FFT rounding grows with log N and differs from the direct form's; 1e-4 leaves a
// wide margin over cuFFT's ~1e-6 while any indexing error gives O(1).
constexpr double fft_tolerance = 1e-4;

//! reference_fir on all cores: long filters (16384 taps) are slow in float64.
template <class In, class Tap>
std::vector<cd>
reference_fir_mt(const std::vector<In>& x, const std::vector<Tap>& h, int D)
{
    std::vector<cd> xw(x.size()), hw(h.size());
    std::transform(x.begin(), x.end(), xw.begin(), [](In v) { return widen(v); });
    std::transform(h.begin(), h.end(), hw.begin(), [](Tap v) { return widen(v); });
    const std::size_t nout = x.empty() ? 0 : (x.size() - 1) / D + 1;
    std::vector<cd> y(nout);
    const unsigned nthreads = std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < nthreads; ++t)
        pool.emplace_back([&, t] {
            for (std::size_t k = t; k < nout; k += nthreads) {
                const std::size_t newest = k * D;
                double re = 0, im = 0; // by hand: std::complex's operator* is slow
                for (std::size_t j = 0; j < hw.size() && j <= newest; ++j) {
                    const cd a = hw[j], b = xw[newest - j];
                    re += a.real() * b.real() - a.imag() * b.imag();
                    im += a.real() * b.imag() + a.imag() * b.real();
                }
                y[k] = cd(re, im);
            }
        });
    for (auto& th : pool)
        th.join();
    return y;
}

template <class T>
class fft_fir_test : public engine_test<T, 4242>
{
};
TYPED_TEST_SUITE(fft_fir_test, all_types);

TYPED_TEST(fft_fir_test, matches_float64_reference_over_taps_and_decimations)
{
    using In = typename TypeParam::In;
    using Tap = typename TypeParam::Tap;
    const std::vector<std::size_t> calls = { 4099, 1, 17, 0, 30011, 256, 7, 12289 };
    for (int ntaps : { 1, 2, 31, 64, 255, 1024, 1025, 4096, 16384 }) {
        for (int D : { 1, 2, 3, 4, 5, 6, 7, 8, 64 }) {
            const auto taps = random_vector<Tap>(ntaps, this->rng);
            cuda::fft_fir_engine<In, Tap> engine(taps, D);
            const int N = engine.fft_size();
            // At least two segments, and a length that is no multiple of anything.
            const std::size_t len = std::max(3 * N / 2, 40000) + 13 * D + 7;
            const auto x = random_vector<In>(len, this->rng);
            const auto y = run_engine(engine, x, calls);
            const auto want = reference_fir_mt(x, taps, D);
            ASSERT_EQ(y.size(), want.size()) << "ntaps=" << ntaps << " D=" << D;
            EXPECT_LE(relative_error(y, want), fft_tolerance)
                << "ntaps=" << ntaps << " D=" << D << " fft_size=" << N;
        }
    }
}

TYPED_TEST(fft_fir_test, any_split_into_calls_matches_reference)
{
    using In = typename TypeParam::In;
    using Tap = typename TypeParam::Tap;
    const auto taps = random_vector<Tap>(1025, this->rng);
    const auto x = random_vector<In>(50001, this->rng);
    for (int D : { 1, 3, 8 }) {
        cuda::fft_fir_engine<In, Tap> whole(taps, D), pieces(taps, D);
        const auto want = reference_fir_mt(x, taps, D);
        const auto y1 = run_engine(whole, x, { x.size() });
        // Calls shorter than D, than the filter, around the segment length, and 0.
        const auto y2 = run_engine(
            pieces, x, { 1, 2, 0, 5, 1024, 1025, 1026, 3, 15359, 15360, 16385 });
        ASSERT_EQ(y1.size(), want.size());
        ASSERT_EQ(y2.size(), want.size());
        EXPECT_LE(relative_error(y1, want), fft_tolerance) << "one call, D=" << D;
        EXPECT_LE(relative_error(y2, want), fft_tolerance) << "many calls, D=" << D;
    }
}

TYPED_TEST(fft_fir_test, long_call_spans_several_batches)
{
    using In = typename TypeParam::In;
    using Tap = typename TypeParam::Tap;
    // On the cuFFT path fft_size 4096 runs at most 1024 segments per launch (4.2M
    // samples at 31 taps): 4.4M samples in one call needs several groups, of several
    // batch counts. The fused path runs them in one launch.
    const auto taps = random_vector<Tap>(31, this->rng);
    const auto x = random_vector<In>(4477777, this->rng);
    auto cufft_only = cuda::fir_tuning_for_device<In, Tap>();
    cufft_only.fused_max_size = 0;
    for (int D : { 1, 5 }) {
        cuda::fft_fir_engine<In, Tap> engine(taps, D, 0, cufft_only);
        ASSERT_EQ(engine.fft_size(), 4096);
        ASSERT_FALSE(engine.fused());
        cuda::fft_fir_engine<In, Tap> fused(taps, D, 4096);
        ASSERT_TRUE(fused.fused());
        EXPECT_LE(relative_error(run_engine(fused, x, { 4477777 }),
                                 reference_fir_mt(x, taps, D)),
                  fft_tolerance)
            << "fused, D=" << D;
        const auto y = run_engine(engine, x, { 4400000, 77777 });
        EXPECT_LE(relative_error(y, reference_fir_mt(x, taps, D)), fft_tolerance)
            << "D=" << D;
    }
}

TYPED_TEST(fft_fir_test, explicit_fft_size_matches_reference)
{
    using In = typename TypeParam::In;
    using Tap = typename TypeParam::Tap;
    const auto taps = random_vector<Tap>(500, this->rng);
    const auto x = random_vector<In>(30001, this->rng);
    // The smallest legal size (one kept output per segment at D = 7), a
    // non-power of two, a large one (cuFFT), and every size of the fused kernel.
    for (int size : { 500 - 1 + 7, 3000, 1 << 16, 1024, 2048, 4096, 8192, 16384 }) {
        cuda::fft_fir_engine<In, Tap> engine(taps, 7, size);
        EXPECT_EQ(engine.fft_size(), size);
        const bool power_of_two = (size & (size - 1)) == 0;
        EXPECT_EQ(engine.fused(), power_of_two && size >= 1024 && size <= 16384)
            << "fft_size=" << size;
        const auto y = run_engine(engine, x, { 999, 0, 12345 });
        EXPECT_LE(relative_error(y, reference_fir_mt(x, taps, 7)), fft_tolerance)
            << "fft_size=" << size;
    }
}

TYPED_TEST(fft_fir_test, partitioned_path_matches_reference)
{
    using In = typename TypeParam::In;
    using Tap = typename TypeParam::Tap;
    // Both partition sizes; in groups of 3 blocks a call of 60000 samples spans several
    // groups (and an odd block count, which real samples pack in pairs).
    const auto x = random_vector<In>(60013, this->rng);
    for (const int ntaps : { 8193, 16384, 20000 }) {
        const auto taps = random_vector<Tap>(ntaps, this->rng);
        for (const int D : { 1, 3 }) {
            const auto want = reference_fir_mt(x, taps, D);
            for (const int size : { 4096, 8192 }) {
                auto partitioned = cuda::fir_tuning_for_device<In, Tap>();
                partitioned.cluster_size = 0; // the partitions, not the cluster
                partitioned.partition_size = size;
                auto small_groups = partitioned;
                small_groups.partition_group_samples = 3 * size / 2;
                cuda::fft_fir_engine<In, Tap> engine(taps, D, 0, partitioned);
                cuda::fft_fir_engine<In, Tap> grouped(taps, D, 0, small_groups);
                ASSERT_EQ(engine.partitions(), (ntaps + size / 2 - 1) / (size / 2));
                ASSERT_EQ(engine.fft_size(), size);
                const std::string what = "ntaps=" + std::to_string(ntaps) +
                                         " D=" + std::to_string(D) +
                                         " size=" + std::to_string(size);
                EXPECT_LE(
                    relative_error(run_engine(engine, x, { 1, 8191, 0, 30000 }), want),
                    fft_tolerance)
                    << what;
                EXPECT_LE(relative_error(run_engine(grouped, x, { x.size() }), want),
                          fft_tolerance)
                    << "groups of 3, " << what;
            }
        }
    }
}

TYPED_TEST(fft_fir_test, cluster_path_matches_reference)
{
    using In = typename TypeParam::In;
    using Tap = typename TypeParam::Tap;
    if (cuda::current_device_arch() < 90)
        GTEST_SKIP() << "thread block clusters need sm_90";
    auto t = cuda::fir_tuning_for_device<In, Tap>();
    t.cluster_size = 32768;
    // An explicit size over several segments (an odd count, which real samples pack
    // in pairs) and calls that split them, at decimations that keep outputs in both
    // blocks' halves of a segment; then the automatic size, from the shortest filter
    // to the longest it takes.
    const auto taps = random_vector<Tap>(2000, this->rng);
    const auto x = random_vector<In>(5 * 32768 / 2 + 13, this->rng);
    for (const int D : { 1, 7 }) {
        cuda::fft_fir_engine<In, Tap> engine(taps, D, 32768, t);
        ASSERT_TRUE(engine.fused());
        ASSERT_EQ(engine.cluster_blocks(), 2);
        EXPECT_LE(relative_error(run_engine(engine, x, { 999, 0, 32768 + 5 }),
                                 reference_fir_mt(x, taps, D)),
                  fft_tolerance)
            << "D=" << D;
    }
    // The cluster kernel is a fused path: a tuning without the fused kernel is
    // cuFFT's alone.
    auto cufft_only = t;
    cufft_only.fused_max_size = 0;
    cuda::fft_fir_engine<In, Tap> cufft(taps, 1, 32768, cufft_only);
    EXPECT_FALSE(cufft.fused());
    EXPECT_EQ(cufft.cluster_blocks(), 0);
    const auto long_x = random_vector<In>(150001, this->rng);
    for (const int ntaps : { 8193, 16384 }) {
        const auto long_taps = random_vector<Tap>(ntaps, this->rng);
        cuda::fft_fir_engine<In, Tap> engine(long_taps, 1, 0, t);
        ASSERT_EQ(engine.fft_size(), 32768);
        ASSERT_EQ(engine.cluster_blocks(), 2);
        EXPECT_LE(relative_error(run_engine(engine, long_x, { 70000, 80001 }),
                                 reference_fir_mt(long_x, long_taps, 1)),
                  fft_tolerance)
            << "ntaps=" << ntaps;
    }
}

TYPED_TEST(fft_fir_test, set_taps_keeps_stream_alignment)
{
    using In = typename TypeParam::In;
    using Tap = typename TypeParam::Tap;
    const int D = 3;
    const auto x = random_vector<In>(40000, this->rng);
    const std::size_t split = 19998; // a multiple of D: the switch falls on an output
    // 1500 taps need a larger automatic fft_size: the engine re-plans; 9000 taps
    // switch to the cluster path (sm_90 on; the partitioned path elsewhere), and back,
    // and 17000 to the partitioned path.
    const std::pair<int, int> lengths[] = { { 50, 50 },   { 50, 17 },   { 50, 1500 },
                                            { 50, 9000 }, { 9000, 50 }, { 9000, 17000 } };
    for (const auto& [first_len, second_len] : lengths) {
        const auto taps1 = random_vector<Tap>(first_len, this->rng);
        const auto taps2 = random_vector<Tap>(second_len, this->rng);
        cuda::fft_fir_engine<In, Tap> engine(taps1, D);
        cuda::stream s;
        const std::vector<In> head(x.begin(), x.begin() + split),
            tail(x.begin() + split, x.end());
        const auto y1 = run_engine(engine, head, { 1000 });
        engine.set_taps(taps2, s);
        EXPECT_EQ(engine.ntaps(), second_len);
        const auto y2 = run_engine(engine, tail, { 999 });

        // After the switch the engine knows only the last first_len - 1 samples;
        // older ones are 0.
        std::vector<In> seen = x;
        for (std::size_t i = 0; i + first_len - 1 < split; ++i)
            seen[i] = In(0);
        const auto want1 = reference_fir_mt(head, taps1, D);
        auto want2 = reference_fir_mt(seen, taps2, D);
        want2.erase(want2.begin(), want2.begin() + split / D);
        EXPECT_LE(relative_error(y1, want1), fft_tolerance);
        ASSERT_EQ(y2.size(), want2.size());
        EXPECT_LE(relative_error(y2, want2), fft_tolerance)
            << "first_len=" << first_len << " second_len=" << second_len
            << " fft_size=" << engine.fft_size();
    }
}

TYPED_TEST(fft_fir_test, set_history_then_process_matches_reference)
{
    using In = typename TypeParam::In;
    using Tap = typename TypeParam::Tap;
    const auto taps = random_vector<Tap>(1100, this->rng);
    const auto x = random_vector<In>(30000, this->rng);
    cuda::fft_fir_engine<In, Tap> engine(taps, 2);
    cuda::stream s;
    run_engine(engine, random_vector<In>(333, this->rng), { 333 }); // leave phase 1
    engine.set_history(x.data(), s);
    const std::vector<In> rest(x.begin() + 1099, x.end());
    const auto y = run_engine(engine, rest, { 12345 });
    const auto want = reference_fir_mt(x, taps, 1);
    std::vector<cd> kept;
    for (std::size_t i = 1099; i < want.size(); i += 2)
        kept.push_back(want[i]);
    ASSERT_EQ(y.size(), kept.size());
    EXPECT_LE(relative_error(y, kept), fft_tolerance);

    // reset(): zero history and phase, as a fresh engine.
    engine.reset(s);
    const auto y0 = run_engine(engine, rest, { 7000 });
    EXPECT_LE(relative_error(y0, reference_fir_mt(rest, taps, 2)), fft_tolerance);
}

// Complex-output engines: the fused rotation against the direct engine's.
template <class T>
class fft_fir_rotation_test : public fft_fir_test<T>
{
};
TYPED_TEST_SUITE(fft_fir_rotation_test, complex_out_types);

TYPED_TEST(fft_fir_rotation_test, rotation_matches_direct_engine)
{
    using In = typename TypeParam::In;
    using Tap = typename TypeParam::Tap;
    std::uniform_real_distribution<double> u(-0.5, 0.5);
    for (int ntaps : { 300, 2000 }) {
        for (int D : { 1, 4 }) {
            const auto taps = random_vector<Tap>(ntaps, this->rng);
            const auto x1 = random_vector<In>(30000, this->rng); // a multiple of D
            const auto x2 = random_vector<In>(20011, this->rng);
            cuda::fir_engine<In, Tap> direct(taps, D, test_fir_tuning<In, Tap>());
            cuda::fft_fir_engine<In, Tap> fft(taps, D);
            const cuda::rotation r1{ u(this->rng), u(this->rng) };
            const cuda::rotation r2{ u(this->rng), u(this->rng) };
            direct.set_rotation(r1);
            fft.set_rotation(r1);
            const auto want1 = run_engine(direct, x1, { 5000, 1 });
            const auto got1 = run_engine(fft, x1, { 5000, 1 });
            EXPECT_NEAR(fft.next_rotation().start_cycles,
                        direct.next_rotation().start_cycles,
                        1e-12);
            direct.set_rotation(r2); // a retune at a call boundary
            fft.set_rotation(r2);
            const auto want2 = run_engine(direct, x2, { 4097, 3 });
            const auto got2 = run_engine(fft, x2, { 999 });
            const auto check = [&](const std::vector<complex>& got,
                                   const std::vector<complex>& want,
                                   const char* part) {
                std::vector<cd> w(want.size());
                std::transform(want.begin(), want.end(), w.begin(), [](complex v) {
                    return widen(v);
                });
                ASSERT_EQ(got.size(), w.size())
                    << part << " ntaps=" << ntaps << " D=" << D;
                EXPECT_LE(relative_error(got, w), fft_tolerance)
                    << part << " ntaps=" << ntaps << " D=" << D;
            };
            check(got1, want1, "before the retune:");
            check(got2, want2, "after the retune:");
        }
    }
}

// Parameter checks come before any CUDA call: these run without a GPU.
TEST(fft_fir_engine_errors, bad_parameters_name_the_parameter)
{
    const auto expect_invalid = [](auto make, const std::string& name) {
        try {
            make();
            ADD_FAILURE() << name << ": bad value accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
        }
    };
    using engine = cuda::fft_fir_engine<complex, float>;
    const std::vector<float> taps(1000, 0.5f);
    expect_invalid([&] { engine e({}, 1); }, "taps");
    expect_invalid([&] { engine e(taps, 0); }, "decimation");
    expect_invalid([&] { engine e(taps, 1, 999); }, "fft_size");  // < ntaps
    expect_invalid([&] { engine e(taps, 4, 1002); }, "fft_size"); // < ntaps - 1 + D
    expect_invalid([&] { engine e(taps, 1, -4096); }, "fft_size");
}

TEST(fft_fir_engine_errors, default_fft_size_follows_the_documented_rule)
{
    using engine = cuda::fft_fir_engine<complex, float>;
    // The fused sizes: 4 * ntaps in [2048, 16384] with half a segment new (complex
    // samples up to 1024 taps: the smallest such size)...
    EXPECT_EQ(engine::default_fft_size(1, 1), 2048);
    EXPECT_EQ(engine::default_fft_size(512, 1), 2048);
    EXPECT_EQ(engine::default_fft_size(1024, 1), 2048);
    EXPECT_EQ(engine::default_fft_size(1024, 2), 4096);
    EXPECT_EQ(engine::default_fft_size(1025, 1), 8192);
    EXPECT_EQ(engine::default_fft_size(4096, 1), 16384);
    EXPECT_EQ(engine::default_fft_size(4096, 4097), 16384);
    EXPECT_EQ(engine::default_fft_size(8192, 1), 16384);
    // Then, on devices with thread block clusters, the cluster kernel's 32768 where
    // half a segment is new...
    const int cluster = cuda::current_device_arch() >= 90 ? 32768 : 4096;
    EXPECT_EQ(engine::default_fft_size(4096, 4098), cluster);
    EXPECT_EQ(engine::default_fft_size(8193, 1), cluster);
    EXPECT_EQ(engine::default_fft_size(16384, 1), cluster);
    // Longer, or decimating by more, up to 32 partitions of 2048 taps: the
    // partitioned path at 4096...
    EXPECT_EQ(engine::default_fft_size(16385, 1), 4096);
    EXPECT_EQ(engine::default_fft_size(16384, 2), 4096);
    EXPECT_EQ(engine::default_fft_size(16384, 64), 4096);
    EXPECT_EQ(engine::default_fft_size(65536, 1), 4096);
    // ...then cuFFT's rule.
    EXPECT_EQ(engine::default_fft_size(65537, 1), 262144);
    EXPECT_EQ(engine::default_fft_size(100000, 1), 262144);
}

TEST(fft_fir_engine_errors, cufft_failure_carries_the_result_name)
{
    try {
        GPUFILTER_CHECK(CUFFT_INVALID_SIZE);
        FAIL() << "a cuFFT error was not thrown";
    } catch (const cuda::cuda_error& e) {
        EXPECT_NE(std::string(e.what()).find("CUFFT_INVALID_SIZE"), std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("test_fft_fir_engine.cc"), std::string::npos)
            << e.what();
        EXPECT_EQ(e.code(), CUFFT_INVALID_SIZE);
    }
    GPUFILTER_REQUIRE_DEVICE_OR_SKIP();
    // A real failing cuFFT call: a plan of size 0.
    try {
        auto plan = cuda::fft_plan::create();
        std::size_t bytes = 0;
        GPUFILTER_CHECK(cufftMakePlan1d(plan.get(), 0, CUFFT_C2C, 1, &bytes));
        FAIL() << "a size-0 plan was accepted";
    } catch (const cuda::cuda_error& e) {
        EXPECT_NE(std::string(e.what()).find("CUFFT_"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("cufftMakePlan1d"), std::string::npos)
            << e.what();
    }
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
