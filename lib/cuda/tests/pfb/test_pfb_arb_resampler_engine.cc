/* SPDX-License-Identifier: GPL-3.0-or-later */
// pfb_arb_resampler_engine (float and complex) against the float64 reference of
// gr-filter 3.10's pfb_arb_resampler kernel (arb_reference.h), called as the block
// calls it: random call sizes, rate, arm and taps changes mid-stream.

#include "../gpu_test_env.h"
#include "arb_reference.h"
#include "common/resources.h"
#include "pfb/pfb_arb_resampler_engine.h"
#include "pfb_reference.h"
#include <gtest/gtest.h>
#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace gr {
namespace gpufilter {
namespace test {
namespace {

using cuda::complex;
using cuda::pfb_arb_resampler_engine;

constexpr double tolerance = 2e-5;


template <class T>
std::vector<T> samples(std::size_t n, std::mt19937& g)
{
    if constexpr (std::is_same_v<T, complex>) {
        return random_samples<complex>(n, g);
    } else {
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        std::vector<float> v(n);
        for (auto& s : v)
            s = u(g);
        return v;
    }
}

//! The kernel under test: 0 the engine's choice, 1, 2, 4 or 8 outputs per thread
//! (forced), 100 * K + g the stationary kernel with groups of g and K outputs a
//! thread (where it applies).
constexpr int stationary_param = 100;

template <class E>
void pick_kernel(E& e, int kernel)
{
    e.set_outputs_per_thread(kernel >= stationary_param ? 0 : kernel);
    if (kernel >= stationary_param)
        e.set_arm_group(kernel % stationary_param, kernel / stationary_param);
}

//! What to change before a call (index `call`): returns nothing; acts on both.
struct change {
    int call;
    float rate = 0;          // set_rate when > 0
    int filter = -1;         // set_filter when >= 0
    std::vector<float> taps; // set_taps when not empty (then the history is set again)
};

/*!
 * Runs x through the engine as the block does (each call: skip + floor(noutput/rate)
 * samples for a random noutput, all consumed) and gr-filter's kernel (the reference)
 * with gr-filter's calls; compares every output and the counts. per_thread: the
 * engine's outputs per GPU thread (the kernel under test).
 */
template <class T>
void check_stream(int per_thread,
                  float rate,
                  const std::vector<float>& taps,
                  unsigned N,
                  std::size_t total,
                  std::mt19937& g,
                  const std::vector<change>& changes = {},
                  int max_noutput = 9000,
                  const char* kernel = nullptr) // the kernel every call must launch
{
    const auto x = samples<T>(total, g);
    std::vector<cd> xw(total);
    for (std::size_t i = 0; i < total; ++i)
        xw[i] = widen(x[i]);

    pfb_arb_resampler_engine<T> e(rate, taps, N);
    pick_kernel(e, per_thread);
    arb_reference ref(rate, taps, N);
    cuda::stream s;
    cuda::device_buffer<T> d_in(total);
    GPUFILTER_CHECK(
        cudaMemcpy(d_in.get(), x.data(), total * sizeof(T), cudaMemcpyHostToDevice));
    float cur_rate = rate;
    const std::size_t cap = e.max_output_count(total) * 3 + 64;
    cuda::device_buffer<T> d_out(cap);
    const std::vector<T> poisoned(cap, poison<T>());
    GPUFILTER_CHECK(cudaMemcpy(
        d_out.get(), poisoned.data(), cap * sizeof(T), cudaMemcpyHostToDevice));
    GPUFILTER_CHECK(cudaDeviceSynchronize());

    std::vector<cd> want;
    std::uniform_int_distribution<int> nout(1, max_noutput);
    std::size_t consumed = 0, produced = 0;
    long gr_pos = 0;
    for (int call = 0; consumed + e.schedule().skip() < total; ++call) {
        for (const auto& c : changes) {
            if (c.call != call)
                continue;
            if (c.rate > 0) {
                e.set_rate(c.rate);
                ref.set_rate(c.rate);
                cur_rate = c.rate;
            }
            if (c.filter >= 0) {
                e.set_filter(c.filter);
                ref.set_last_filter(c.filter);
            }
            if (!c.taps.empty()) {
                e.set_taps(c.taps, s);
                ref.set_taps(c.taps);
                // The block sets the history from GNU Radio's window: the real past.
                std::vector<T> past(e.history_items(), T{});
                for (std::size_t i = 0; i < past.size(); ++i) {
                    const long v = static_cast<long>(consumed) - past.size() + i;
                    if (v >= 0)
                        past[i] = x[v];
                }
                const void* h = past.data();
                e.set_history(&h, s);
            }
        }
        const int nitems = static_cast<int>(std::floor(nout(g) / cur_rate));
        std::size_t n = e.schedule().skip() + nitems;
        const std::size_t avail = total - consumed;
        int gr_read = nitems;
        if (n > avail) { // the end of the stream: both read what is left
            n = avail;
            gr_read = static_cast<int>(total - gr_pos);
        }
        const std::size_t expected = e.output_count(n);
        ASSERT_LE(expected, e.max_output_count(n));
        ASSERT_LE(produced + expected, cap);
        const void* in_ptr = d_in.get() + consumed;
        void* out_ptr = d_out.get() + produced;
        const std::size_t got = e.process(&in_ptr, n, &out_ptr, s.get());
        ASSERT_EQ(got, expected);
        if (got) { // the window kernel, or one output per thread where it does not fit
            const int launched = e.launched_outputs_per_thread();
            const bool chosen = per_thread == 0 || per_thread >= stationary_param;
            const bool periodic = launched == cuda::arb_periodic_outputs &&
                                  std::string(e.launched_kernel()) == "periodic";
            ASSERT_TRUE(launched == per_thread || launched == 1 ||
                        (chosen && (launched == 2 || launched == 4)) ||
                        (per_thread == 0 && periodic))
                << launched;
            if (kernel) {
                ASSERT_STREQ(e.launched_kernel(), kernel) << "call " << call;
            }
        }
        const std::size_t before = want.size();
        gr_pos += ref.filter(xw, gr_pos, gr_read, want);
        ASSERT_EQ(want.size() - before, got) << "call " << call;
        consumed += n;
        produced += got;
    }
    s.synchronize();
    std::vector<T> y(produced + 32);
    GPUFILTER_CHECK(
        cudaMemcpy(y.data(), d_out.get(), y.size() * sizeof(T), cudaMemcpyDeviceToHost));
    ASSERT_EQ(produced, want.size());
    double peak = 1.0;
    for (const auto& w : want)
        peak = std::max(peak, std::abs(w));
    double worst = 0;
    std::size_t worst_k = 0;
    for (std::size_t k = 0; k < produced; ++k) {
        const double err = std::abs(widen(y[k]) - want[k]);
        if (!(err <= worst)) { // NaN (poison) counts as worst
            worst = std::isnan(err) ? INFINITY : err;
            worst_k = k;
        }
    }
    EXPECT_LE(worst / peak, tolerance) << "output " << worst_k << " of " << produced;
    for (std::size_t k = produced; k < y.size(); ++k)
        EXPECT_TRUE(std::isnan(widen(y[k]).real())) << "wrote past its outputs: " << k;
}

/*!
 * Every stream test runs once per kernel: the engine's choice (the default), one
 * output per thread, 2, 4 and 8 consecutive outputs per thread (resample_window,
 * where it fits), and the stationary kernel with groups of 1, 4 and 8 (where it
 * applies, else the engine's other choice).
 */
class arb_engine_test : public ::testing::TestWithParam<int>
{
protected:
    void SetUp() override { GPUFILTER_REQUIRE_DEVICE_OR_SKIP(); }

    //! The kernel under test: the engine's outputs per GPU thread.
    int per_thread() const { return GetParam(); }

    std::mt19937 rng{ 2024 };
};

TEST(pfb_arb_parameters, bad_arguments_throw_before_the_gpu)
{
    const std::vector<float> taps(64, 0.5f);
    using E = pfb_arb_resampler_engine<complex>;
    EXPECT_THROW(E(0.0f, taps, 32), std::invalid_argument);
    EXPECT_THROW(E(-2.0f, taps, 32), std::invalid_argument);
    EXPECT_THROW(E(NAN, taps, 32), std::invalid_argument);
    EXPECT_THROW(E(INFINITY, taps, 32), std::invalid_argument);
    EXPECT_THROW(E(1.5f, taps, 0), std::invalid_argument);
}

TEST_P(arb_engine_test, complex_rates_filter_sizes_and_tap_counts)
{
    for (const float rate : { 2.3421f, 0.75f, 1.0f / 3.7f, 1.0f, 7.77f })
        for (const unsigned N : { 1u, 7u, 32u, 64u })
            for (const std::size_t ntaps :
                 { std::size_t(1), std::size_t(N * 3 + 1), std::size_t(N * 12) }) {
                SCOPED_TRACE(::testing::Message()
                             << "rate " << rate << " N " << N << " ntaps " << ntaps);
                check_stream<complex>(
                    per_thread(), rate, random_taps(ntaps, rng), N, 30011, rng);
            }
}

TEST_P(arb_engine_test, float_rates_and_tap_counts)
{
    for (const float rate : { 2.3421f, 0.75f, 1.0f / 3.7f, 1.0f })
        for (const std::size_t ntaps : { std::size_t(31), std::size_t(873) }) {
            SCOPED_TRACE(::testing::Message() << "rate " << rate << " ntaps " << ntaps);
            check_stream<float>(
                per_thread(), rate, random_taps(ntaps, rng), 32, 40009, rng);
        }
}

TEST_P(arb_engine_test, long_filters_and_extreme_rates)
{
    // 2000 taps: 63 per arm; rate 0.01: a block's span is past the staged limit (the
    // device-memory path); rate 40: dec 0, several outputs per input and arm.
    check_stream<complex>(per_thread(), 1.5f, random_taps(2000, rng), 32, 20011, rng);
    check_stream<complex>(
        per_thread(), 0.01f, random_taps(400, rng), 32, 200003, rng, {}, 200);
    check_stream<float>(
        per_thread(), 0.013f, random_taps(400, rng), 32, 200003, rng, {}, 200);
    check_stream<complex>(
        per_thread(), 40.0f, random_taps(300, rng), 32, 5003, rng, {}, 40000);
}

TEST_P(arb_engine_test, more_than_256_arms)
{
    // Past 256 arms the stationary kernel's 32-bit phases do not fit
    // (stationary_phase_fits_32_bits): the window kernel runs, forced groups or not.
    for (const float rate : { 2.3421f, 0.75f }) {
        SCOPED_TRACE(::testing::Message() << "rate " << rate);
        check_stream<complex>(
            per_thread(), rate, random_taps(300 * 12, rng), 300, 30011, rng);
        check_stream<float>(
            per_thread(), rate, random_taps(300 * 12, rng), 300, 30011, rng);
    }
}

TEST_P(arb_engine_test, tiny_calls_keep_the_state)
{
    check_stream<complex>(
        per_thread(), 2.3421f, random_taps(501, rng), 32, 4001, rng, {}, 3);
    check_stream<complex>(
        per_thread(), 1.0f / 3.7f, random_taps(501, rng), 32, 4001, rng, {}, 1);
}

TEST_P(arb_engine_test, rate_arm_and_taps_changes_mid_stream)
{
    std::vector<change> ch(4);
    ch[0].call = 3;
    ch[0].rate = 0.61f;
    ch[1].call = 6;
    ch[1].filter = 33; // past the last arm, as set_phase near 2 pi can give
    ch[2].call = 9;
    ch[2].rate = 3.3f; // larger outputs than at construction
    ch[3].call = 12;
    ch[3].taps = random_taps(700, rng); // more taps per arm
    check_stream<complex>(
        per_thread(), 2.3421f, random_taps(401, rng), 32, 60013, rng, ch, 5000);
    ch[3].taps = random_taps(33, rng); // fewer
    check_stream<float>(
        per_thread(), 0.75f, random_taps(401, rng), 32, 60013, rng, ch, 5000);
}

TEST(pfb_arb_kernels, periodic_kernel_at_short_periods)
{
    GPUFILTER_REQUIRE_DEVICE_OR_SKIP();
    std::mt19937 g(11);
    // Rates whose L outputs take P whole inputs: 3/4 (L 3, P 4), 1/2, 1, 2, 3/2,
    // 1/4, 4/3 (L 4, P 3), 3 and 5/4 (L 5, five classes of one warp). 31 taps an arm
    // (W = 32) and 13 (W = 16), complex and real samples.
    for (const float rate :
         { 0.75f, 0.5f, 1.0f, 2.0f, 1.5f, 0.25f, 4.0f / 3.0f, 3.0f, 1.25f })
        for (const std::size_t ntaps : { std::size_t(992), std::size_t(400) }) {
            SCOPED_TRACE(::testing::Message() << "rate " << rate << " ntaps " << ntaps);
            check_stream<complex>(
                0, rate, random_taps(ntaps, g), 32, 40009, g, {}, 9000, "periodic");
            check_stream<float>(
                0, rate, random_taps(ntaps, g), 32, 40009, g, {}, 9000, "periodic");
        }
    // Seven arms: rate 1 and 1/2 take one arm an output, P = 1 and 2.
    check_stream<complex>(
        0, 1.0f, random_taps(200, g), 7, 30011, g, {}, 9000, "periodic");
    check_stream<float>(0, 0.5f, random_taps(200, g), 7, 30011, g, {}, 9000, "periodic");
}

TEST(pfb_arb_kernels, periodic_kernel_across_arm_edges)
{
    GPUFILTER_REQUIRE_DEVICE_OR_SKIP();
    std::mt19937 g(12);
    // Rates one to two float steps off 3/4 and 4/3: each period moves an arm by
    // about 1500 of its 2^23 fraction units, up or down, so over 4*10^5 inputs every
    // class crosses arms' edges (some threads then sum on their own) and the arm
    // wraps between N - 1 and 0 (the input position moves by one more or less).
    // Set_filter starts at an arm next to the wrap.
    std::vector<change> ch(1);
    ch[0].call = 2;
    ch[0].filter = 31;
    for (const float rate : { 0.749998927116394f,
                              0.750001072883606f,
                              1.333330750465393f,
                              1.3333358764648438f }) {
        SCOPED_TRACE(::testing::Message() << "rate " << rate);
        check_stream<complex>(
            0, rate, random_taps(992, g), 32, 400009, g, ch, 20000, "periodic");
        check_stream<float>(
            0, rate, random_taps(400, g), 32, 400009, g, ch, 20000, "periodic");
    }
}

TEST_P(arb_engine_test, non_finite_samples_mark_only_their_windows)
{
    // gr-filter's output k is not finite only when a sample in its own T taps is not.
    // The one-output-per-thread kernel sums exactly those taps: every kernel must mark
    // the same outputs, and give its numbers elsewhere.
    for (const float rate : { 0.75f, 2.3421f }) {
        SCOPED_TRACE(::testing::Message() << "rate " << rate);
        const std::size_t n = 50021;
        auto x = samples<complex>(n, rng);
        x[1000] = complex(NAN, 0.0f);
        x[1001] = complex(0.0f, INFINITY);
        x[30000] = complex(NAN, NAN);
        const auto taps = random_taps(321, rng);
        cuda::device_buffer<complex> in(n);
        GPUFILTER_CHECK(
            cudaMemcpy(in.get(), x.data(), n * sizeof(complex), cudaMemcpyHostToDevice));
        cuda::stream s;
        auto run = [&](int per_thread) {
            pfb_arb_resampler_engine<complex> e(rate, taps, 32);
            pick_kernel(e, per_thread);
            cuda::device_buffer<complex> out(e.max_output_count(n));
            const void* src = in.get();
            void* dst = out.get();
            std::vector<complex> y(e.process(&src, n, &dst, s.get()));
            s.synchronize();
            GPUFILTER_CHECK(cudaMemcpy(
                y.data(), out.get(), y.size() * sizeof(complex), cudaMemcpyDeviceToHost));
            return y;
        };
        const auto want = run(1);
        const auto got = run(GetParam());
        ASSERT_EQ(got.size(), want.size());
        std::size_t marked = 0;
        for (std::size_t k = 0; k < want.size(); ++k) {
            const bool want_bad = !std::isfinite(std::abs(widen(want[k])));
            const bool got_bad = !std::isfinite(std::abs(widen(got[k])));
            ASSERT_EQ(got_bad, want_bad) << "output " << k;
            marked += want_bad;
            if (!want_bad) {
                ASSERT_LE(std::abs(widen(got[k]) - widen(want[k])), 1e-4) << k;
            }
        }
        EXPECT_GT(marked, 0u);               // the windows that hold them
        EXPECT_LT(marked, want.size() / 20); // and no others
    }
}

TEST(pfb_arb_kernels, window_kernel_runs_where_it_fits)
{
    GPUFILTER_REQUIRE_DEVICE_OR_SKIP();
    std::mt19937 g(7);
    struct shape {
        float rate;
        std::size_t ntaps;
        bool fits;
        bool stationary; // the engine's choice (k = 0) is the stationary kernel
        bool periodic;   // or the periodic kernel
    };
    // The benchmark's shapes, dec 0, and a rate whose block spans too many inputs.
    // The engine picks the periodic kernel at rate 3/4, the stationary kernel at rates
    // above 1 only; rate 40 is off the closed form's grid.
    const shape shapes[] = { { 0.75f, 969, true, false, true },
                             { 2.3421f, 819, true, true, false },
                             { 40.0f, 300, true, false, false },
                             { 0.01f, 400, false, false, false } };
    const std::size_t n = 100003;
    cuda::device_buffer<complex> in(n);
    const auto x = samples<complex>(n, g);
    GPUFILTER_CHECK(
        cudaMemcpy(in.get(), x.data(), n * sizeof(complex), cudaMemcpyHostToDevice));
    cuda::stream s;
    for (const auto& c : shapes)
        for (const int k : { 0, 1, 2, 4, 8 }) {
            SCOPED_TRACE(::testing::Message() << "rate " << c.rate << " k " << k);
            pfb_arb_resampler_engine<complex> e(c.rate, random_taps(c.ntaps, g), 32);
            EXPECT_EQ(e.launched_outputs_per_thread(), 0);
            e.set_outputs_per_thread(k);
            EXPECT_EQ(e.outputs_per_thread(), k);
            cuda::device_buffer<complex> out(e.max_output_count(n));
            const void* src = in.get();
            void* dst = out.get();
            ASSERT_GT(e.process(&src, n, &dst, s.get()), 0u);
            s.synchronize();
            const int picked = k ? k : (c.rate > 1.0f ? 2 : 4); // 0: by the rate
            if (k == 0 && (c.stationary || c.periodic)) {
                EXPECT_STREQ(e.launched_kernel(), c.periodic ? "periodic" : "stationary");
                EXPECT_EQ(e.launched_outputs_per_thread(),
                          c.periodic ? cuda::arb_periodic_outputs : 1);
                e.set_arm_group(-1); // neither: the window kernel by the rate
                ASSERT_GT(e.process(&src, n, &dst, s.get()), 0u);
                s.synchronize();
            }
            EXPECT_STREQ(e.launched_kernel(),
                         c.fits && picked > 1 ? "window" : "per_output");
            EXPECT_EQ(e.launched_outputs_per_thread(), c.fits ? picked : 1);
        }
    pfb_arb_resampler_engine<float> e(0.75f, random_taps(31, g), 32);
    for (const int bad : { 3, 16, -1 })
        EXPECT_THROW(e.set_outputs_per_thread(bad), std::invalid_argument);
    for (const int bad : { 2, 3, -2 })
        EXPECT_THROW(e.set_arm_group(bad), std::invalid_argument);
    for (const int bad : { 3, -1 })
        EXPECT_THROW(e.set_arm_group(0, bad), std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(per_thread,
                         arb_engine_test,
                         ::testing::Values(0,
                                           1,
                                           2,
                                           4,
                                           8,
                                           stationary_param + 1,
                                           stationary_param + 4,
                                           stationary_param + 8,
                                           2 * stationary_param + 1,
                                           2 * stationary_param + 4,
                                           2 * stationary_param + 8),
                         [](const ::testing::TestParamInfo<int>& info) {
                             if (info.param >= stationary_param)
                                 return "stationary_g" +
                                        std::to_string(info.param % stationary_param) +
                                        "_k" +
                                        std::to_string(info.param / stationary_param);
                             return info.param ? "k" + std::to_string(info.param)
                                               : std::string("by_rate");
                         });

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
