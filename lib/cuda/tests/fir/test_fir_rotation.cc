/* SPDX-License-Identifier: GPL-3.0-or-later */
// fir_engine's fused output rotation (the frequency-translating filter's pass), its
// int16 input, and the analytic-signal taps of hilbert_fc, against float64 references.

#include "engine_test_support.h"
#include "fir/fir_engine.h"
#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>

namespace gr {
namespace gpufilter {
namespace test {
namespace {

using cuda::complex;
using cuda::rotation;

constexpr double tolerance = 1e-5;
constexpr long double two_pi = 6.283185307179586476925286766559L;

//! A rotation change before output `at` of the stream: new start and step.
struct retune {
    std::size_t at;
    rotation r;
};

//! reference_fir's outputs rotated: output k gets exp(j*2*pi*phase(k)), the phase
//! restarting at each retune (its start is the phase of that output), in long double.
std::vector<cd> rotate_reference(std::vector<cd> y, const std::vector<retune>& plan)
{
    for (std::size_t i = 0; i < plan.size(); ++i) {
        const std::size_t end = i + 1 < plan.size() ? plan[i + 1].at : y.size();
        for (std::size_t k = plan[i].at; k < std::min(end, y.size()); ++k) {
            const long double p = plan[i].r.start_cycles +
                                  (long double)(k - plan[i].at) * plan[i].r.step_cycles;
            const long double a = two_pi * (p - std::floor(p));
            y[k] *= cd(std::cos((double)a), std::sin((double)a));
        }
    }
    return y;
}

template <class T>
class fir_rotation_test : public ::testing::Test
{
protected:
    using In = T;
    using Engine = cuda::fir_engine<In, complex>;

    void SetUp() override { GPUFILTER_REQUIRE_DEVICE_OR_SKIP(); }

    static cuda::fir_tuning tuning() { return test_fir_tuning<In, complex>(); }

    // Runs x through the engine (run_engine); before the call that reaches output
    // plan[i].at (i > 0), sets plan[i].r. Retunes must fall on a call boundary: call
    // sizes are chosen to make them.
    std::vector<complex> run(Engine& engine,
                             const std::vector<In>& x,
                             const std::vector<std::size_t>& call_sizes,
                             const std::vector<retune>& plan)
    {
        engine.set_rotation(plan.at(0).r);
        std::size_t next_retune = 1;
        const auto y =
            run_engine(engine, x, call_sizes, [&](std::size_t produced, std::size_t n) {
                if (next_retune < plan.size() && produced == plan[next_retune].at)
                    engine.set_rotation(plan[next_retune++].r);
                if (next_retune < plan.size()) // stop at the retune's output
                    n = std::min(n,
                                 (plan[next_retune].at - produced) * engine.decimation());
                return n;
            });
        EXPECT_EQ(next_retune, plan.size()) << "a retune was never reached";
        return y;
    }

    rotation random_rotation()
    {
        std::uniform_real_distribution<double> u(-0.5, 0.5);
        const double start = u(rng);
        return { start, u(rng) };
    }

    std::mt19937 rng{ 2718 };
};
using input_types = ::testing::Types<complex, float, std::int16_t>;
TYPED_TEST_SUITE(fir_rotation_test, input_types);

TYPED_TEST(fir_rotation_test, matches_float64_reference_over_taps_and_decimations)
{
    using In = TypeParam;
    const std::vector<std::size_t> calls = { 4099, 1, 17, 0, 30011, 256, 7, 12289 };
    for (int ntaps : { 1, 2, 7, 64, 255, 1000 }) {
        for (int D = 1; D <= 7; ++D) {
            const auto taps = random_vector<complex>(ntaps, this->rng);
            const auto x = random_vector<In>(60000 + 13 * D, this->rng);
            const std::vector<retune> plan = { { 0, this->random_rotation() } };
            typename TestFixture::Engine engine(taps, D, TestFixture::tuning());
            const auto y = this->run(engine, x, calls, plan);
            const auto want = rotate_reference(reference_fir(x, taps, D), plan);
            ASSERT_EQ(y.size(), want.size()) << "ntaps=" << ntaps << " D=" << D;
            EXPECT_LE(relative_error(y, want), tolerance)
                << "ntaps=" << ntaps << " D=" << D;
        }
    }
}

TYPED_TEST(fir_rotation_test, phase_is_continuous_across_any_split_into_calls)
{
    using In = TypeParam;
    const auto taps = random_vector<complex>(129, this->rng);
    const auto x = random_vector<In>(20000, this->rng);
    for (int D : { 1, 3, 5, 7 }) {
        const std::vector<retune> plan = { { 0, this->random_rotation() } };
        typename TestFixture::Engine whole(taps, D), pieces(taps, D);
        const auto y1 = this->run(whole, x, { x.size() }, plan);
        const auto y2 = this->run(pieces, x, { 1, 2, 0, 5, 64, 128, 129, 130, 3 }, plan);
        const auto want = rotate_reference(reference_fir(x, taps, D), plan);
        ASSERT_EQ(y1.size(), y2.size());
        EXPECT_LE(relative_error(y1, want), tolerance) << "D=" << D;
        EXPECT_LE(relative_error(y2, want), tolerance) << "D=" << D;
    }
}

TYPED_TEST(fir_rotation_test, retunes_continue_from_the_next_outputs_phase)
{
    using In = TypeParam;
    const auto taps = random_vector<complex>(40, this->rng);
    const auto x = random_vector<In>(30000, this->rng);
    for (int D : { 1, 2, 6 }) {
        typename TestFixture::Engine engine(taps, D, TestFixture::tuning());
        // What the block does: next_rotation() plus a phase jump, and a new step.
        const rotation first = this->random_rotation();
        const std::size_t k1 = 1001, k2 = 3000;
        const double jump1 = 0.37, step1 = -0.1234567, step2 = 0.4321;
        auto r1 = rotation{ cuda::phase_cycles(first, k1) + jump1, step1 };
        auto r2 = rotation{ cuda::phase_cycles(r1, k2 - k1), step2 };
        const std::vector<retune> plan = { { 0, first }, { k1, r1 }, { k2, r2 } };
        const auto y = this->run(engine, x, { 999, 2500, 1 }, plan);
        const auto want = rotate_reference(reference_fir(x, taps, D), plan);
        ASSERT_EQ(y.size(), want.size());
        EXPECT_LE(relative_error(y, want), tolerance) << "D=" << D;
        // The engine reports the phase its next output would get.
        const rotation next = engine.next_rotation();
        const double expected = cuda::phase_cycles(r2, y.size() - k2);
        EXPECT_NEAR(cuda::wrap_cycles(next.start_cycles - expected), 0.0, 1e-15);
        EXPECT_NEAR(next.step_cycles, cuda::wrap_cycles(step2), 1e-17);
    }
}

TYPED_TEST(fir_rotation_test, large_decimation_uses_untiled_kernel_correctly)
{
    using In = TypeParam;
    for (int D : { 64, 100, 1000 }) {
        const auto taps = random_vector<complex>(300, this->rng);
        const auto x = random_vector<In>(50000, this->rng);
        const std::vector<retune> plan = { { 0, this->random_rotation() } };
        typename TestFixture::Engine engine(taps, D, TestFixture::tuning());
        const auto y = this->run(engine, x, { 7777, 12345 }, plan);
        const auto want = rotate_reference(reference_fir(x, taps, D), plan);
        EXPECT_LE(relative_error(y, want), tolerance) << "D=" << D;
    }
}

// From D = 5 (int16 samples: 8) with 4 to 64 sub-taps per phase: the deinterleaved
// kernel, with one retune (65 sub-taps: the blocked kernel).
TYPED_TEST(fir_rotation_test, deinterleaved_kernel_rotates)
{
    using In = TypeParam;
    for (int D : { 6, 8, 13, 32 }) {
        for (int ntaps : { 4 * D + 1, 64 * D + 1 }) {
            const auto taps = random_vector<complex>(ntaps, this->rng);
            const auto x = random_vector<In>(30000 + 64 * D, this->rng);
            const std::vector<retune> plan = { { 0, this->random_rotation() },
                                               { 777, this->random_rotation() } };
            typename TestFixture::Engine engine(taps, D, TestFixture::tuning());
            const auto y = this->run(engine, x, { 4097, 333 }, plan);
            const auto want = rotate_reference(reference_fir(x, taps, D), plan);
            ASSERT_EQ(y.size(), want.size()) << "ntaps=" << ntaps << " D=" << D;
            EXPECT_LE(relative_error(y, want), tolerance)
                << "ntaps=" << ntaps << " D=" << D;
        }
    }
}

TYPED_TEST(fir_rotation_test, host_stream_keeps_the_phase_across_its_chunks)
{
    using In = TypeParam;
    const auto taps = random_vector<complex>(33, this->rng);
    const auto x = random_vector<In>(50000, this->rng);
    for (int D : { 1, 4, 7 }) {
        const rotation r = this->random_rotation();
        fir_host_path<In, complex> fs(0, taps, D, 1000); // chunks smaller than calls
        fs.set_rotation(r);
        std::vector<complex> out(x.size());
        const auto y = run_stream(fs, x, out, { 2500, 1, 999, 4001 });
        const auto want = rotate_reference(reference_fir(x, taps, D), { { 0, r } });
        EXPECT_LE(relative_error(y, want), tolerance) << "D=" << D;
    }
}

TEST(fir_rotation_long, phase_exact_after_a_hundred_million_outputs)
{
    GPUFILTER_REQUIRE_DEVICE_OR_SKIP();
    // Constant input, one unit tap: output k is exactly exp(j*2*pi*k*step).
    const double step = 0.0123456789012345;
    const std::size_t chunk = 1 << 22, calls = 25; // 1.05e8 outputs
    cuda::fir_engine<complex, complex> engine(
        { complex(1.0f, 0.0f) }, 1, test_fir_tuning<complex, complex>());
    engine.set_rotation({ 0.0, step });
    cuda::stream s;
    cuda::device_buffer<complex> d_in(chunk), d_out(chunk);
    const std::vector<complex> ones(chunk, complex(1.0f, 0.0f));
    GPUFILTER_CHECK(cudaMemcpy(
        d_in.get(), ones.data(), chunk * sizeof(complex), cudaMemcpyHostToDevice));
    // A pageable cudaMemcpy may return before its DMA lands; the calls run on a
    // non-blocking stream.
    GPUFILTER_CHECK(cudaDeviceSynchronize());
    for (std::size_t c = 0; c < calls; ++c)
        engine.process(d_in.get(), chunk, d_out.get(), s);
    s.synchronize();
    std::vector<complex> last(chunk);
    GPUFILTER_CHECK(cudaMemcpy(
        last.data(), d_out.get(), chunk * sizeof(complex), cudaMemcpyDeviceToHost));
    double worst = 0;
    for (std::size_t i = 0; i < chunk; i += 4099) {
        const std::uint64_t k = (calls - 1) * chunk + i;
        const long double p = (long double)k * step; // exact enough: k*step < 2^21
        const double want = (double)(two_pi * (p - std::nearbyintl(p)));
        worst = std::max(
            worst, std::fabs(std::remainder(std::arg(widen(last[i])) - want, 2 * M_PI)));
    }
    EXPECT_LE(worst, 2e-6) << "rad after " << calls * chunk << " outputs";
}

TEST(fir_rotation_errors, real_output_engines_refuse_a_rotation)
{
    GPUFILTER_REQUIRE_DEVICE_OR_SKIP();
    cuda::fir_engine<float, float> engine(
        { 1.0f, 2.0f }, 1, test_fir_tuning<float, float>());
    EXPECT_THROW(engine.set_rotation({ 0.0, 0.1 }), std::logic_error);
}

TEST(hilbert_taps, real_part_is_the_delayed_input_exactly)
{
    GPUFILTER_REQUIRE_DEVICE_OR_SKIP();
    std::mt19937 rng(99);
    const int n = 65; // odd, as hilbert_fc makes it
    const auto h = random_vector<float>(n, rng);
    std::vector<complex> taps(n);
    for (int m = 0; m < n; ++m)
        taps[m] = complex(m == n / 2 ? 1.0f : 0.0f, h[m]);
    const auto x = random_vector<float>(40000, rng);
    // The direct form, as hilbert_fc asks for: the FFT path rounds the real part.
    fir_host_path<float, complex> fs(0, taps, 1, 4096, cuda::fir_method::direct);
    std::vector<complex> y(x.size(), poison<complex>());
    ASSERT_EQ(fs.process(x.data(), x.size(), y.data()), x.size());
    for (std::size_t i = 0; i < x.size(); ++i)
        ASSERT_EQ(y[i].real(), i >= std::size_t(n / 2) ? x[i - n / 2] : 0.0f) << i;
    const auto want = reference_fir(x, taps, 1);
    EXPECT_LE(relative_error(y, want), tolerance);
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
