/* SPDX-License-Identifier: GPL-3.0-or-later */
// fir_host_path, the host path: the pipelined sub-chunks, in-place DMA to registered
// host memory and pinned staging, each algorithm, against a float64 reference.

#include "engine_test_support.h"
#include "fir/fir_processor.h"
#include <gtest/gtest.h>
#include <algorithm>
#include <string>

namespace gr {
namespace gpufilter {
namespace test {
namespace {

using cuda::complex;

// The FFT path is allowed 1e-4 (docs/kernels.md), the direct form 1e-5.
double tolerance(const std::string& method) { return method == "fft" ? 1e-4 : 1e-5; }

const char* const methods[] = { "direct", "fft" };

class fir_host_path_test : public ::testing::TestWithParam<const char*>
{
protected:
    void SetUp() override { GPUFILTER_REQUIRE_DEVICE_OR_SKIP(); }
    std::mt19937 rng{ 20261121 };
};

TEST_P(fir_host_path_test, staged_calls_pipeline_across_sub_chunks)
{
    const std::string method = GetParam();
    const auto taps = random_vector<float>(301, rng);
    const auto x = random_vector<complex>(400000, rng);
    std::vector<complex> y(x.size());
    for (int D : { 1, 3, 8 }) {
        // max_chunk 2^17: sub-chunks of 32768, so a 100000-sample call uses all
        // three slots and wraps round the ring.
        fir_host_path<complex, float> fs(0, taps, D, 1 << 17, method);
        EXPECT_EQ(fs.method(), method);
        const auto got = run_stream(fs, x, y, { 100000, 1, 65537, 32768, 7 });
        EXPECT_LE(relative_error(got, reference_fir(x, taps, D)), tolerance(method))
            << "D=" << D;
    }
}

TEST_P(fir_host_path_test, registered_memory_is_used_in_place)
{
    const std::string method = GetParam();
    const auto taps = random_vector<complex>(64, rng);
    const auto x = random_vector<float>(300000, rng);
    std::vector<complex> y(x.size());
    fir_host_path<float, complex> fs(0, taps, 2, 1 << 16, method);
    // Input registered, output staged: both paths in one call.
    ASSERT_TRUE(fs.register_host_memory(x.data(), x.size() * sizeof(float)))
        << fs.registration_note();
    auto got = run_stream(fs, x, y, { 70001, 4096, 3 });
    EXPECT_LE(relative_error(got, reference_fir(x, taps, 2)), tolerance(method));

    // Both registered, on a fresh stream; registering twice is harmless.
    fir_host_path<float, complex> fs2(0, taps, 2, 1 << 16, method);
    ASSERT_TRUE(fs2.register_host_memory(x.data(), x.size() * sizeof(float)));
    ASSERT_TRUE(fs2.register_host_memory(y.data(), y.size() * sizeof(complex)));
    got = run_stream(fs2, x, y, { 131072, 5, 99999 });
    EXPECT_LE(relative_error(got, reference_fir(x, taps, 2)), tolerance(method));
    fs2.unregister_host_memory();
    fs.unregister_host_memory();
}

INSTANTIATE_TEST_SUITE_P(methods, fir_host_path_test, ::testing::ValuesIn(methods));

TEST(fir_host_path_auto, new_taps_may_change_the_algorithm_and_keep_the_rotation)
{
    GPUFILTER_REQUIRE_DEVICE_OR_SKIP();
    std::mt19937 rng(7);
    const auto short_taps = random_vector<float>(8, rng);
    const auto long_taps = random_vector<float>(8191, rng);
    const auto x = random_vector<complex>(60000, rng);
    fir_host_path<complex, float> fs(0, short_taps, 1, 1 << 16, "auto");
    EXPECT_EQ(std::string(fs.method()),
              cuda::fir_method_name(cuda::choose_fir_method<complex, float>(
                  8, 1, cuda::fir_method::automatic)));
    fs.set_rotation({ 0.25, 0.01 });
    std::vector<complex> y(x.size());
    fs.process(x.data(), 1000, y.data());
    const cuda::rotation before = fs.next_rotation();

    fs.set_taps(long_taps);
    EXPECT_EQ(fs.ntaps(), 8191);
    const cuda::rotation after = fs.next_rotation();
    EXPECT_NEAR(after.start_cycles, before.start_cycles, 1e-12);
    EXPECT_NEAR(after.step_cycles, before.step_cycles, 1e-12);

    // With the history set from the caller, as the blocks do, the output is exact.
    fs.set_history(x.data());
    const std::vector<complex> rest(x.begin() + 8190, x.end());
    const std::size_t n = fs.process(rest.data(), rest.size(), y.data());
    ASSERT_EQ(n, rest.size());
    const auto want = reference_fir(x, long_taps, 1);
    double num = 0, den = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const auto phase = 2 * M_PI * (after.start_cycles + k * after.step_cycles);
        const cd w = want[8190 + k] * std::polar(1.0, phase);
        num += std::norm(widen(y[k]) - w);
        den += std::norm(w);
    }
    EXPECT_LE(std::sqrt(num / den), 1e-4) << "method now " << fs.method();
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
