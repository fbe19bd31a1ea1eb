/* SPDX-License-Identifier: GPL-3.0-or-later */
// fm_demod_bank_engine against a float64 reference of gr-analog's chain per channel
// (quadrature demod -> decimating FIR -> fm_deemph) on random data, in many uneven
// calls; its parameter checks run without a GPU.

#include "../gpu_test_env.h"
#include "../reference.h"
#include "common/resources.h"
#include "demod/demod_controls.h"
#include "demod/fm_demod_bank_engine.h"
#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

namespace gr {
namespace gpufilter {
namespace test {
namespace {

using cuda::complex;
using cuda::deemphasis;
using cuda::fm_demod_bank_engine;

const float nan_f = std::numeric_limits<float>::quiet_NaN();
const std::vector<std::size_t> uneven_calls = { 4099, 1, 17, 0, 3001, 256, 7, 1229, 2 };

//! The de-emphasis filter's state (x[t-1], y[t-1]): iir_filter_ffd keeps it across a
//! flowgraph restart, where the demodulator and the FIR start again from zeros.
struct deemph_state {
    double xp = 0, yp = 0;
};

//! Channel k of the interleaved input through the float64 chain, from a zero previous
//! sample and FIR window; the de-emphasis from `state` (then left in it) when given.
std::vector<double> reference_chain(const std::vector<complex>& x,
                                    unsigned nchan,
                                    unsigned k,
                                    unsigned decim,
                                    const std::vector<float>& taps,
                                    double gain,
                                    const deemphasis& d,
                                    deemph_state* state = nullptr)
{
    const std::size_t n = x.size() / nchan;
    std::vector<double> dem(n);
    cd prev(0, 0);
    for (std::size_t t = 0; t < n; ++t) {
        const cd cur = widen(x[t * nchan + k]);
        const cd product = cur * std::conj(prev);
        dem[t] = product == cd(0, 0) ? 0.0 : gain * std::arg(product);
        prev = cur;
    }
    std::vector<double> y;
    double xp = state ? state->xp : 0.0, yp = state ? state->yp : 0.0;
    for (std::size_t t = 0; t < n; t += decim) {
        double acc = 0;
        for (std::size_t i = 0; i < taps.size() && i <= t; ++i)
            acc += taps[i] * dem[t - i];
        const double v = d.b0 * acc + d.b1 * xp - d.a1 * yp;
        y.push_back(v);
        xp = acc;
        yp = v;
    }
    if (state)
        *state = { xp, yp };
    return y;
}

//! Relative RMS error of output column c (of nsel) against the reference.
double column_error(const std::vector<float>& y,
                    std::size_t nsel,
                    std::size_t c,
                    const std::vector<double>& want)
{
    double num = 0, den = 0;
    for (std::size_t j = 0; j < want.size(); ++j) {
        const double got = y[j * nsel + c];
        num += (got - want[j]) * (got - want[j]);
        den += want[j] * want[j];
    }
    return std::sqrt(num / (den + 1e-30));
}

std::vector<complex> random_vectors(std::mt19937& g, std::size_t n)
{
    // A slowly turning phasor per channel plus noise: a demodulated value that is not
    // only wrap-around noise, so the FIR and de-emphasis see a real signal.
    std::normal_distribution<float> w(0.0f, 0.3f);
    std::vector<complex> x(n);
    for (std::size_t i = 0; i < n; ++i)
        x[i] = std::polar(1.0f, 0.001f * float(i % 997)) + complex(w(g), w(g));
    return x;
}

//! Runs the engine over x in calls of the sizes given (cycled).
std::vector<float> run_bank(fm_demod_bank_engine& e,
                            const std::vector<complex>& x,
                            const std::vector<std::size_t>& calls)
{
    const std::size_t nchan = e.nchan(), nsel = e.outputs_per_item();
    const std::size_t items = x.size() / nchan;
    cuda::stream s;
    cuda::device_buffer<complex> d_in(std::max<std::size_t>(x.size(), 1));
    GPUFILTER_CHECK(cudaMemcpy(
        d_in.get(), x.data(), x.size() * sizeof(complex), cudaMemcpyHostToDevice));
    const std::size_t cap = (items + 64) * nsel;
    cuda::device_buffer<float> d_out(cap);
    std::vector<float> y(cap, nan_f);
    GPUFILTER_CHECK(
        cudaMemcpy(d_out.get(), y.data(), d_out.bytes(), cudaMemcpyHostToDevice));
    // A pageable cudaMemcpy may return before its DMA lands; the calls run on a
    // non-blocking stream.
    GPUFILTER_CHECK(cudaDeviceSynchronize());
    std::size_t consumed = 0, produced = 0;
    for (std::size_t call = 0; consumed < items; ++call) {
        const std::size_t n = std::min(calls[call % calls.size()], items - consumed);
        const std::size_t expect = e.output_count(n);
        const void* in = d_in.get() + consumed * nchan;
        void* out = d_out.get() + produced * nsel;
        EXPECT_EQ(e.process(&in, n, &out, s.get()), expect);
        consumed += n;
        produced += expect;
    }
    s.synchronize();
    GPUFILTER_CHECK(
        cudaMemcpy(y.data(), d_out.get(), d_out.bytes(), cudaMemcpyDeviceToHost));
    std::size_t written_past = 0;
    for (std::size_t i = produced * nsel; i < y.size(); ++i)
        written_past += !std::isnan(y[i]);
    EXPECT_EQ(written_past, 0u) << "written past the outputs";
    y.resize(produced * nsel);
    return y;
}

class fm_bank_test : public ::testing::Test
{
protected:
    void SetUp() override { GPUFILTER_REQUIRE_DEVICE_OR_SKIP(); }
    std::mt19937 rng{ 1618 };
};

// ---- Host-only: parameter checks (before any device memory) and the design. ----

TEST(fm_bank_params, bad_parameters_throw_before_the_gpu)
{
    const auto d = deemphasis::for_rate(80e3, 75e-6);
    const std::vector<float> taps{ 0.5f, 0.5f };
    EXPECT_THROW(fm_demod_bank_engine(0, { 0 }, 1, taps, 1.0f, d, 64),
                 std::invalid_argument);
    EXPECT_THROW(fm_demod_bank_engine(4, {}, 1, taps, 1.0f, d, 64),
                 std::invalid_argument);
    EXPECT_THROW(fm_demod_bank_engine(4, { 4 }, 1, taps, 1.0f, d, 64),
                 std::invalid_argument);
    EXPECT_THROW(fm_demod_bank_engine(4, { 1 }, 0, taps, 1.0f, d, 64),
                 std::invalid_argument);
    EXPECT_THROW(fm_demod_bank_engine(4, { 1 }, 2, {}, 1.0f, d, 64),
                 std::invalid_argument);
    EXPECT_THROW(fm_demod_bank_engine(4, { 1 }, 2, taps, nan_f, d, 64),
                 std::invalid_argument);
    EXPECT_THROW(fm_demod_bank_engine(4, { 1 }, 2, taps, 1.0f, d, 0),
                 std::invalid_argument);
    EXPECT_THROW(deemphasis::for_rate(0, 75e-6), std::invalid_argument);
}

TEST(fm_bank_params, deemphasis_is_a_unity_gain_low_pass)
{
    // fm_deemph's design: DC gain 1, -3 dB at 1/(2 pi tau) = 2122 Hz (75 us).
    const double rate = 48e3;
    const auto d = deemphasis::for_rate(rate, 75e-6);
    auto gain = [&](double f) {
        const cd z = std::polar(1.0, -2 * M_PI * f / rate);
        return std::abs((d.b0 + d.b1 * z) / (1.0 + d.a1 * z));
    };
    EXPECT_NEAR(gain(0), 1.0, 1e-12);
    EXPECT_NEAR(gain(1.0 / (2 * M_PI * 75e-6)), std::sqrt(0.5), 1e-3);
}

// ---- On the GPU. ----

TEST_F(fm_bank_test, matches_float64_reference_in_uneven_calls)
{
    const unsigned nchan = 7;
    const std::vector<unsigned> chans{ 0, 3, 6, 5 };
    for (unsigned decim : { 1u, 2u, 3u, 5u, 7u }) {
        for (std::size_t ntaps : { 1u, 2u, 31u, 64u, 333u }) {
            std::vector<float> taps(ntaps);
            std::uniform_real_distribution<float> u(-1.0f, 1.0f);
            for (auto& t : taps)
                t = u(rng) / float(ntaps);
            const double gain = 400e3 / (2 * M_PI * 75e3);
            const auto d = deemphasis::for_rate(400e3 / decim, 75e-6);
            const std::size_t items = 20011;
            const auto x = random_vectors(rng, items * nchan);
            fm_demod_bank_engine e(nchan, chans, decim, taps, float(gain), d, 4099);
            const auto y = run_bank(e, x, uneven_calls);
            ASSERT_EQ(y.size(), ((items + decim - 1) / decim) * chans.size());
            for (std::size_t c = 0; c < chans.size(); ++c) {
                const auto want =
                    reference_chain(x, nchan, chans[c], decim, taps, gain, d);
                // fast_atan2f (2e-6 rad) and float accumulation against float64.
                EXPECT_LT(column_error(y, chans.size(), c, want), 1e-4)
                    << "decim " << decim << " taps " << ntaps << " channel " << chans[c];
            }
        }
    }
}

TEST_F(fm_bank_test, thousands_of_channels_in_calls_larger_than_the_grid)
{
    // A whole band: 4096 channels, 300 selected (ten of them twice), 8192 items per
    // call. At decimation 1 the demodulator's and the FIR's grid-stride loops go
    // round more than once (8192 * 300 elements, grids of at most 8192 * 256
    // threads); the last call ends mid-decimation.
    const unsigned nchan = 4096;
    std::vector<unsigned> chans;
    for (unsigned i = 0; i < 290; ++i)
        chans.push_back((i * 1361u + 7u) % nchan); // distinct: 1361 is odd
    for (unsigned i = 0; i < 10; ++i)
        chans.push_back(chans[i * 29]);
    // Only the selected channels carry a signal; the others stay zero (a wrong
    // channel index then reads zeros), which keeps the 72 M-sample input quick to make.
    const std::size_t items = 2 * 8192 + 1237;
    std::vector<complex> x(items * nchan, complex(0, 0));
    std::normal_distribution<float> w(0.0f, 0.3f);
    for (std::size_t t = 0; t < items; ++t)
        for (unsigned k : chans)
            x[t * nchan + k] =
                std::polar(1.0f, 0.001f * float((t + k) % 997)) + complex(w(rng), w(rng));
    std::vector<float> taps(64);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (auto& t : taps)
        t = u(rng) / 64.0f;
    const double gain = 400e3 / (2 * M_PI * 75e3);
    for (unsigned decim : { 1u, 5u }) {
        for (double tau : { 0.0, 75e-6 }) {
            const auto d = deemphasis::for_rate(400e3 / decim, tau);
            fm_demod_bank_engine e(nchan, chans, decim, taps, float(gain), d, 8192);
            const auto y = run_bank(e, x, { 8192 });
            ASSERT_EQ(y.size(), ((items + decim - 1) / decim) * chans.size());
            double worst = 0;
            std::size_t worst_column = 0;
            for (std::size_t c = 0; c < chans.size(); ++c) {
                const double err = column_error(
                    y,
                    chans.size(),
                    c,
                    reference_chain(x, nchan, chans[c], decim, taps, gain, d));
                if (!(err <= worst)) { // NaN (an unwritten output) counts as worst
                    worst = err;
                    worst_column = c;
                }
            }
            EXPECT_LT(worst, 1e-4)
                << "decim " << decim << " tau " << tau << " column " << worst_column
                << " (channel " << chans[worst_column] << ")";
        }
    }
}

TEST_F(fm_bank_test, one_call_equals_many_calls)
{
    const unsigned nchan = 16;
    std::vector<unsigned> chans(16);
    for (unsigned c = 0; c < 16; ++c)
        chans[c] = 15 - c;
    std::vector<float> taps(101, 1.0f / 101);
    const auto d = deemphasis::for_rate(80e3, 75e-6);
    const auto x = random_vectors(rng, 9000 * nchan);
    fm_demod_bank_engine a(nchan, chans, 5, taps, 1.0f, d, 9000);
    fm_demod_bank_engine b(nchan, chans, 5, taps, 1.0f, d, 9000);
    const auto ya = run_bank(a, x, { 9000 });
    const auto yb = run_bank(b, x, { 1, 2, 3, 4, 5, 6, 7, 1000, 999 });
    ASSERT_EQ(ya.size(), yb.size());
    for (std::size_t i = 0; i < ya.size(); ++i)
        ASSERT_EQ(ya[i], yb[i]) << "at " << i;
}

TEST_F(fm_bank_test, restart_zeroes_demod_and_fir_and_keeps_the_deemphasis)
{
    // set_history() is the block's restart: as gr's chain after a flowgraph restart,
    // a zero previous sample, a zero FIR window and phase 0 (3001 items leave the
    // phase mid-decimation), with iir_filter_ffd's state carried on.
    const unsigned nchan = 6;
    const std::vector<unsigned> chans{ 5, 1, 1, 3 };
    std::vector<float> taps(29);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (auto& t : taps)
        t = u(rng) / 29.0f;
    const double gain = 400e3 / (2 * M_PI * 75e3);
    for (unsigned decim : { 1u, 4u, 7u }) {
        for (double tau : { 0.0, 75e-6 }) {
            const auto d = deemphasis::for_rate(400e3 / decim, tau);
            const auto x1 = random_vectors(rng, 3001 * nchan);
            const auto x2 = random_vectors(rng, 2503 * nchan);
            fm_demod_bank_engine e(nchan, chans, decim, taps, float(gain), d, 1000);
            const auto y1 = run_bank(e, x1, { 1000, 999, 7 });
            cuda::stream s;
            e.set_history(nullptr, s.get());
            s.synchronize();
            const auto y2 = run_bank(e, x2, { 1000, 13 });
            ASSERT_EQ(y1.size(), ((3001 + decim - 1) / decim) * chans.size());
            ASSERT_EQ(y2.size(), ((2503 + decim - 1) / decim) * chans.size());
            for (std::size_t c = 0; c < chans.size(); ++c) {
                deemph_state state;
                const auto want1 =
                    reference_chain(x1, nchan, chans[c], decim, taps, gain, d, &state);
                const auto want2 =
                    reference_chain(x2, nchan, chans[c], decim, taps, gain, d, &state);
                EXPECT_LT(column_error(y1, chans.size(), c, want1), 1e-4)
                    << "before; decim " << decim << " tau " << tau << " column " << c;
                EXPECT_LT(column_error(y2, chans.size(), c, want2), 1e-4)
                    << "after; decim " << decim << " tau " << tau << " column " << c;
            }
        }
    }
}

TEST_F(fm_bank_test, host_stream_sizes_the_engine_for_its_sub_chunks)
{
    // The stream builds the engine for sub_chunk_for(max_chunk) items (a quarter of
    // 200000 here), and one call of 200000 items still goes through, in sub-chunks
    // (the engine would throw on a larger call).
    const unsigned nchan = 4, decim = 3;
    const std::vector<unsigned> chans{ 2, 0 };
    const std::vector<float> taps(48, 1.0f / 48);
    const auto d = deemphasis::for_rate(400e3 / decim, 75e-6);
    const std::size_t items = 200000;
    const auto x = random_vectors(rng, items * nchan);
    auto path =
        cuda::make_fm_demod_bank_path(0, items, nchan, chans, decim, taps, 1.0f, d);
    cuda::host_stream& st = *path.stream;
    std::vector<float> y((items / decim + 2) * chans.size(), nan_f);
    const void* in = x.data();
    void* out = y.data();
    const std::size_t outputs = (items + decim - 1) / decim;
    ASSERT_EQ(st.process(&in, items, &out), outputs);
    for (std::size_t i = outputs * chans.size(); i < y.size(); ++i)
        EXPECT_TRUE(std::isnan(y[i])) << "written past the outputs at " << i;
    for (std::size_t c = 0; c < chans.size(); ++c)
        EXPECT_LT(column_error(y,
                               chans.size(),
                               c,
                               reference_chain(x, nchan, chans[c], decim, taps, 1.0, d)),
                  1e-4)
            << "column " << c;
}

TEST_F(fm_bank_test, too_many_items_in_one_call_throw)
{
    fm_demod_bank_engine e(
        2, { 1 }, 1, { 1.0f }, 1.0f, deemphasis::for_rate(8e3, 75e-6), 8);
    cuda::device_buffer<complex> in(2 * 9);
    cuda::device_buffer<float> out(16);
    const void* i = in.get();
    void* o = out.get();
    EXPECT_THROW(e.process(&i, 9, &o, nullptr), std::invalid_argument);
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
