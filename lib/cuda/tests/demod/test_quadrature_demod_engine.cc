/* SPDX-License-Identifier: GPL-3.0-or-later */
// quadrature_demod_engine and its host path against float64 references on random
// data, in many uneven calls.

#include "demod_test_support.h"

namespace gr {
namespace gpufilter {
namespace test {
namespace {

// ---- Host-only: the arithmetic the kernel runs, and the parameter checks. ----

TEST(demod_math, table_is_atan_of_k_over_255)
{
    const auto table = cuda::fast_atan2f_table();
    // 7 significant digits (5e-8 here), then rounded to float.
    for (int k = 0; k < 256; ++k)
        EXPECT_NEAR(table[k], std::atan(k / 255.0), 1e-7) << "k=" << k;
    EXPECT_EQ(table[256], table[255]);
    EXPECT_EQ(table[0], 0.0f);
    // Entries as GNU Radio's source spells them.
    EXPECT_EQ(table[1], 3.921549e-03f);
    EXPECT_EQ(table[2], 7.842976e-03f);
    EXPECT_EQ(table[145], 5.170320e-01f);
    EXPECT_EQ(table[255], 7.853982e-01f);
}

TEST(demod_math, fast_atan2_is_within_its_bound_of_atan2)
{
    const auto table = cuda::fast_atan2f_table();
    std::mt19937 g(99);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    double worst = 0;
    for (int i = 0; i < 2000000; ++i) {
        float y = u(g), x = u(g);
        if (i % 4 == 1)
            y *= 1e-4f; // near the axes: the small-ratio branch
        if (i % 4 == 2)
            x *= 1e-4f;
        const double got = cuda::quadrature::fast_atan2(y, x, table.data());
        worst = std::max(worst, std::abs(angle_diff(got, std::atan2(double(y), x))));
    }
    EXPECT_LT(worst, atan_tolerance);
    std::printf("fast_atan2 against atan2: max error %.3g rad\n", worst);
    // Exact axes and the origin, as gr::fast_atan2f.
    EXPECT_EQ(cuda::quadrature::fast_atan2(0.0f, 0.0f, table.data()), 0.0f);
    EXPECT_EQ(cuda::quadrature::fast_atan2(0.0f, 2.0f, table.data()), 0.0f);
    EXPECT_FLOAT_EQ(cuda::quadrature::fast_atan2(3.0f, 0.0f, table.data()), M_PI / 2);
    EXPECT_FLOAT_EQ(cuda::quadrature::fast_atan2(-3.0f, 0.0f, table.data()), -M_PI / 2);
    EXPECT_FLOAT_EQ(cuda::quadrature::fast_atan2(0.0f, -1.0f, table.data()), M_PI);
}

TEST(demod_math, emulation_matches_the_reference_from_a_zero_history)
{
    // What the GPU tests compare: the kernel's arithmetic (which the GPU must equal
    // bit for bit) against the float64 reference, from GNU Radio's zero history.
    std::mt19937 g(7);
    for (const float gain : { 1.0f, -0.75f, 300.0f }) {
        for (int run = 0; run < 200; ++run) {
            const auto x = nonzero_samples(50, g);
            EXPECT_LT(max_angle_error(emulate_demod(x, gain, complex(0, 0)),
                                      reference_demod(x, gain, 0.0),
                                      gain),
                      atan_tolerance);
            EXPECT_EQ(emulate_demod(x, gain, complex(0, 0))[0], 0.0f);
        }
    }
}

TEST(demod_parameters, bad_arguments_throw_before_the_gpu)
{
    EXPECT_THROW(quadrature_demod_engine(std::numeric_limits<float>::quiet_NaN()),
                 std::invalid_argument);
    EXPECT_THROW(quadrature_demod_engine(std::numeric_limits<float>::infinity()),
                 std::invalid_argument);
    EXPECT_THROW(quadrature_demod_engine(1.0f, 0), std::invalid_argument);
    EXPECT_THROW(quadrature_demod_engine(1.0f, 70000, demod_layout::channel_major),
                 std::invalid_argument);
    EXPECT_THROW(cuda::complex_to_real_engine(0), std::invalid_argument);
}

// ---- The engines on a GPU. ----

TEST_F(demod_test, one_channel_in_uneven_calls)
{
    for (const float gain : { 1.0f, -0.5f, 2.5464790894703255f, 1e3f }) {
        const auto x = nonzero_samples(200003, rng);
        quadrature_demod_engine e(gain);
        EXPECT_EQ(e.history_items(), 1u);
        const auto y = run_interleaved(e, x, 1, uneven_calls);
        ASSERT_EQ(y.size(), x.size());
        EXPECT_LT(max_angle_error(y, reference_demod(x, gain, 0.0), gain), atan_tolerance)
            << "gain " << gain;
        EXPECT_EQ(bit_mismatches(y, emulate_demod(x, gain, complex(0, 0))), 0u)
            << "gain " << gain;
    }
}

TEST_F(demod_test, many_channels_interleaved)
{
    for (const unsigned C : { 2u, 3u, 64u, 1000u }) {
        const std::size_t items = 300000 / C + 7;
        const auto x = nonzero_samples(items * C, rng);
        const float gain = 0.75f;
        quadrature_demod_engine e(gain, C);
        EXPECT_EQ(e.ports().in_item_bytes[0], C * sizeof(complex));
        EXPECT_EQ(e.ports().out_item_bytes[0], C * sizeof(float));
        const auto y = run_interleaved(e, x, C, uneven_calls);
        ASSERT_EQ(y.size(), x.size());
        double worst = 0;
        std::size_t mismatched = 0;
        for (unsigned c = 0; c < C; ++c) {
            const auto xc = channel_of(x, C, c);
            const auto yc = channel_of(y, C, c);
            worst = std::max(worst,
                             max_angle_error(yc, reference_demod(xc, gain, 0.0), gain));
            mismatched += bit_mismatches(yc, emulate_demod(xc, gain, complex(0, 0)));
        }
        EXPECT_LT(worst, atan_tolerance) << "channels " << C;
        EXPECT_EQ(mismatched, 0u) << "channels " << C;
    }
}

TEST_F(demod_test, many_channels_channel_major)
{
    for (const unsigned C : { 1u, 5u, 250u }) {
        const float gain = -1.25f;
        quadrature_demod_engine e(gain, C, demod_layout::channel_major);
        std::vector<std::vector<complex>> chan(C);
        std::vector<std::vector<float>> got(C);
        cuda::stream s;
        for (std::size_t call = 0; call < 12; ++call) {
            const std::size_t n = uneven_calls[call % uneven_calls.size()];
            // One call: C rows of n samples.
            const auto rows = nonzero_samples(n * C, rng);
            for (unsigned c = 0; c < C; ++c)
                chan[c].insert(
                    chan[c].end(), rows.begin() + c * n, rows.begin() + (c + 1) * n);
            cuda::device_buffer<complex> d_in(std::max<std::size_t>(rows.size(), 1));
            cuda::device_buffer<float> d_out(n * C + 64);
            std::vector<float> y(n * C + 64, nan_f);
            GPUFILTER_CHECK(cudaMemcpy(d_in.get(),
                                       rows.data(),
                                       rows.size() * sizeof(complex),
                                       cudaMemcpyHostToDevice));
            GPUFILTER_CHECK(
                cudaMemcpy(d_out.get(), y.data(), d_out.bytes(), cudaMemcpyHostToDevice));
            // Pageable copies may still be landing; process() runs on `s`.
            GPUFILTER_CHECK(cudaDeviceSynchronize());
            const void* in = d_in.get();
            void* out = d_out.get();
            EXPECT_EQ(e.process(&in, n, &out, s.get()), n);
            s.synchronize();
            GPUFILTER_CHECK(
                cudaMemcpy(y.data(), d_out.get(), d_out.bytes(), cudaMemcpyDeviceToHost));
            for (std::size_t i = n * C; i < y.size(); ++i)
                EXPECT_TRUE(std::isnan(y[i])) << "written past the rows at " << i;
            for (unsigned c = 0; c < C; ++c)
                got[c].insert(got[c].end(), y.begin() + c * n, y.begin() + (c + 1) * n);
        }
        double worst = 0;
        std::size_t mismatched = 0;
        for (unsigned c = 0; c < C; ++c) {
            worst = std::max(
                worst,
                max_angle_error(got[c], reference_demod(chan[c], gain, 0.0), gain));
            mismatched +=
                bit_mismatches(got[c], emulate_demod(chan[c], gain, complex(0, 0)));
        }
        EXPECT_LT(worst, atan_tolerance) << "channels " << C;
        EXPECT_EQ(mismatched, 0u) << "channels " << C;
    }
}

TEST_F(demod_test, set_history_and_set_gain_between_calls)
{
    const unsigned C = 3;
    const auto x = nonzero_samples(C * 50001, rng);
    const auto hist = nonzero_samples(C, rng);
    quadrature_demod_engine e(1.0f, C);
    // Gain changes at call boundaries; the history is set before the first call.
    std::vector<std::pair<std::size_t, float>> gains; // (first item, gain)
    std::size_t call = 0;
    const auto y =
        run_interleaved(e, x, C, uneven_calls, [&](std::size_t consumed, cudaStream_t s) {
            if (call == 0) {
                const void* h = hist.data();
                e.set_history(&h, s);
            }
            const float g = 0.5f + 0.25f * (call++ % 5);
            e.set_gain(g);
            gains.emplace_back(consumed, g);
        });
    double worst = 0;
    for (unsigned c = 0; c < C; ++c) {
        const auto xc = channel_of(x, C, c);
        const auto yc = channel_of(y, C, c);
        const auto unit = reference_demod(xc, 1.0, widen(hist[c]));
        for (std::size_t k = 0; k < gains.size(); ++k) {
            const std::size_t end = k + 1 < gains.size() ? gains[k + 1].first : xc.size();
            for (std::size_t t = gains[k].first; t < end; ++t)
                worst = std::max(worst,
                                 std::abs(angle_diff(yc[t] / gains[k].second, unit[t])));
        }
    }
    EXPECT_LT(worst, atan_tolerance);
    EXPECT_THROW(e.set_gain(std::numeric_limits<float>::infinity()),
                 std::invalid_argument);
}

TEST_F(demod_test, host_stream_in_sub_chunks)
{
    for (const unsigned C : { 1u, 7u }) {
        const auto x = nonzero_samples(C * 90001, rng);
        const float gain = 3.0f;
        // Sub-chunks of 16384 items.
        auto path = cuda::make_quadrature_demod_path(0, 1000, gain, C);
        cuda::host_stream& st = *path.stream;
        std::vector<float> y(x.size(), nan_f);
        std::size_t done = 0;
        for (std::size_t call = 0; done < x.size() / C; ++call) {
            const std::size_t n = std::min(uneven_calls[call % uneven_calls.size()] * 3,
                                           x.size() / C - done);
            const void* in = x.data() + done * C;
            void* out = y.data() + done * C;
            EXPECT_EQ(st.process(&in, n, &out), n);
            done += n;
        }
        EXPECT_STREQ(st.method(), "quadrature_demod");
        double worst = 0;
        std::size_t mismatched = 0;
        for (unsigned c = 0; c < C; ++c) {
            const auto xc = channel_of(x, C, c);
            const auto yc = channel_of(y, C, c);
            worst = std::max(worst,
                             max_angle_error(yc, reference_demod(xc, gain, 0.0), gain));
            mismatched += bit_mismatches(yc, emulate_demod(xc, gain, complex(0, 0)));
        }
        EXPECT_LT(worst, atan_tolerance) << "channels " << C;
        EXPECT_EQ(mismatched, 0u) << "channels " << C;
    }
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
