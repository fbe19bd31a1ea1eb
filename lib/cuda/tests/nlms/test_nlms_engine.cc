/* SPDX-License-Identifier: GPL-3.0-or-later */
// The NLMS engine on a GPU: against the float64 update (bound: nlms_reference.h) and
// against the host emulation of its own arithmetic, one filter and many (vector
// items), in uneven calls; through the host path and the batch form; the controls.

#include "../gpu_test_env.h"
#include "common/resources.h"
#include "nlms/nlms_engine.h"
#include "nlms/nlms_host.h"
#include "nlms_reference.h"
#include <gtest/gtest.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>

namespace gr {
namespace gpufilter {
namespace test {
namespace {

std::vector<float> white(std::size_t n, std::mt19937& g)
{
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<float> v(n);
    for (auto& s : v)
        s = u(g);
    return v;
}

class nlms_engine_test : public ::testing::Test
{
protected:
    void SetUp() override { GPUFILTER_REQUIRE_DEVICE_OR_SKIP(); }
    std::mt19937 rng{ 17 };
};

//! x/d of nf filters interleaved into items (sample t of filter k at t*nf + k).
std::vector<float> interleave(const std::vector<std::vector<float>>& rows)
{
    const std::size_t nf = rows.size(), n = rows[0].size();
    std::vector<float> v(nf * n);
    for (std::size_t k = 0; k < nf; ++k)
        for (std::size_t t = 0; t < n; ++t)
            v[t * nf + k] = rows[k][t];
    return v;
}

/*!
 * Runs the engine (processor interface, device memory) over interleaved x/d in calls
 * of the given sizes (cycled); e poisoned with NaN first. Returns e of filter k.
 */
std::vector<std::vector<float>> run_engine(cuda::nlms_engine& eng,
                                           const std::vector<float>& x,
                                           const std::vector<float>& d,
                                           std::size_t nf,
                                           const std::vector<std::size_t>& calls)
{
    const std::size_t n = x.size() / nf;
    cuda::stream s;
    cuda::device_buffer<float> dx(x.size()), dd(d.size()), de(x.size() + nf);
    GPUFILTER_CHECK(cudaMemcpy(dx.get(), x.data(), dx.bytes(), cudaMemcpyHostToDevice));
    GPUFILTER_CHECK(cudaMemcpy(dd.get(), d.data(), dd.bytes(), cudaMemcpyHostToDevice));
    std::vector<float> e(x.size() + nf, std::numeric_limits<float>::quiet_NaN());
    GPUFILTER_CHECK(cudaMemcpy(de.get(), e.data(), de.bytes(), cudaMemcpyHostToDevice));
    // A pageable cudaMemcpy may return before its DMA lands; the calls run on a
    // non-blocking stream.
    GPUFILTER_CHECK(cudaDeviceSynchronize());
    for (std::size_t pos = 0, c = 0; pos < n; ++c) {
        const std::size_t m = std::min(calls[c % calls.size()], n - pos);
        const void* in[] = { dx.get() + pos * nf, dd.get() + pos * nf };
        void* out[] = { de.get() + pos * nf };
        EXPECT_EQ(eng.process(in, m, out, s), m);
        pos += m;
    }
    s.synchronize();
    GPUFILTER_CHECK(cudaMemcpy(e.data(), de.get(), de.bytes(), cudaMemcpyDeviceToHost));
    for (std::size_t i = x.size(); i < e.size(); ++i)
        EXPECT_TRUE(std::isnan(e[i])) << "written past the end";
    std::vector<std::vector<float>> rows(nf, std::vector<float>(n));
    for (std::size_t k = 0; k < nf; ++k)
        for (std::size_t t = 0; t < n; ++t)
            rows[k][t] = e[t * nf + k];
    return rows;
}

//! The launch shape an engine of the default tuning has on the current device.
cuda::nlms_shape engine_shape(int ntaps, std::size_t nfilters)
{
    int device = 0, sms = 0;
    GPUFILTER_CHECK(cudaGetDevice(&device));
    GPUFILTER_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    return cuda::nlms_shape_for(
        cuda::nlms_tuning_for_device(), ntaps, static_cast<int>(nfilters), sms);
}

/*!
 * Every filter of the run against its float64 reference and its emulation in the
 * engine's shape, run in the same calls (cycled; none: one call). Steps restart at
 * each call, so the emulation repeats the engine's rounding only in its calls; where
 * the calls are unknown (the host path cuts its own), a few roundings apart.
 */
void check_filters_shaped(const std::vector<std::vector<float>>& got,
                          const std::vector<std::vector<float>>& xs,
                          const std::vector<std::vector<float>>& ds,
                          const std::vector<float>& taps,
                          int ntaps,
                          const std::vector<float>& mu,
                          const cuda::nlms_shape& shape,
                          const std::string& what,
                          const std::vector<std::size_t>& calls = {})
{
    for (std::size_t k = 0; k < xs.size(); ++k) {
        const float m = mu[mu.size() == 1 ? 0 : k];
        nlms_reference ref(ntaps, m, 1e-6);
        const auto want = ref.run(xs[k], ds[k]);
        const double bound = nlms_float_bound(ntaps, xs[k].size());
        EXPECT_LE(error_vs_d(got[k], want, ds[k]), bound) << what << " filter " << k;
        nlms_emulation emu(ntaps, m, 1e-6f, shape);
        const std::size_t len = xs[k].size();
        std::vector<double> same_d;
        for (std::size_t pos = 0, c = 0; pos < len; ++c) {
            const std::size_t n =
                calls.empty() ? len : std::min(calls[c % calls.size()], len - pos);
            const auto part = emu.run(xs[k].data() + pos, ds[k].data() + pos, n);
            same_d.insert(same_d.end(), part.begin(), part.end());
            pos += n;
        }
        // The emulation repeats the kernel's operations in order; only a compiler's
        // different contraction could separate them, by a rounding or so.
        EXPECT_LE(error_vs_d(got[k], same_d, ds[k]), 1e-5) << what << " filter " << k;
        if (std::getenv("GPUFILTER_NLMS_VERBOSE") && k == 0)
            std::printf("%s: vs float64 %.3g (bound %.3g), vs emulation %.3g\n",
                        what.c_str(),
                        error_vs_d(got[k], want, ds[k]),
                        bound,
                        error_vs_d(got[k], same_d, ds[k]));
        double werr = 0, wn = 0;
        for (int j = 0; j < ntaps; ++j) {
            const double t = taps[k * ntaps + j];
            werr += (t - ref.w[j]) * (t - ref.w[j]);
            wn += ref.w[j] * ref.w[j];
        }
        EXPECT_LE(std::sqrt(werr / std::max(wn, 1e-30)), bound)
            << what << " taps of filter " << k;
    }
}

//! check_filters_shaped with the shape of an engine of xs.size() filters.
void check_filters(const std::vector<std::vector<float>>& got,
                   const std::vector<std::vector<float>>& xs,
                   const std::vector<std::vector<float>>& ds,
                   const std::vector<float>& taps,
                   int ntaps,
                   const std::vector<float>& mu,
                   const std::string& what,
                   const std::vector<std::size_t>& calls = {})
{
    check_filters_shaped(
        got, xs, ds, taps, ntaps, mu, engine_shape(ntaps, xs.size()), what, calls);
}

TEST_F(nlms_engine_test, matches_reference_over_tap_counts_and_steps)
{
    const int ntaps_list[] = { 1,   2,   3,    31,   32,   33,   100,  255,
                               256, 257, 1000, 1024, 2047, 2049, 4096, 8192 };
    for (int ntaps : ntaps_list)
        for (float mu : { 0.05f, 0.5f, 1.0f }) {
            const std::size_t len = ntaps > 2000 ? 1500 : 4000;
            std::vector<std::vector<float>> xs{ white(len, rng) };
            std::vector<std::vector<float>> ds{ convolve(
                xs[0], echo_path(std::min(ntaps, 64), rng)) };
            cuda::nlms_engine eng(ntaps, 1, { mu }, 1e-6f);
            const std::vector<std::size_t> calls = { 1, 300, 256, 1023, 77 };
            const auto got = run_engine(eng, xs[0], ds[0], 1, calls);
            cuda::stream s;
            check_filters(got,
                          xs,
                          ds,
                          eng.all_taps(s),
                          ntaps,
                          { mu },
                          "ntaps " + std::to_string(ntaps) + " mu " + std::to_string(mu),
                          calls);
        }
}

TEST_F(nlms_engine_test, many_filters_as_vector_items_each_its_own)
{
    for (int nf : { 2, 5, 16, 64 })
        for (int ntaps : { 7, 300, 2048 }) {
            const std::size_t len = 1500;
            std::vector<std::vector<float>> xs, ds;
            std::vector<float> mu;
            for (int k = 0; k < nf; ++k) {
                xs.push_back(white(len, rng));
                ds.push_back(convolve(xs.back(), echo_path(1 + k % 40, rng)));
                mu.push_back(0.1f + 0.9f * k / nf);
            }
            cuda::nlms_engine eng(ntaps, nf, mu, 1e-6f);
            const std::vector<std::size_t> calls = { 333, 1, 256, 900 };
            const auto got = run_engine(eng, interleave(xs), interleave(ds), nf, calls);
            cuda::stream s;
            check_filters(got,
                          xs,
                          ds,
                          eng.all_taps(s),
                          ntaps,
                          mu,
                          "nf " + std::to_string(nf) + " ntaps " + std::to_string(ntaps),
                          calls);
        }
}

TEST_F(nlms_engine_test, host_stream_in_uneven_calls)
{
    const int nf = 3, ntaps = 129;
    const std::size_t len = 50000;
    std::vector<std::vector<float>> xs, ds;
    for (int k = 0; k < nf; ++k) {
        xs.push_back(white(len, rng));
        ds.push_back(convolve(xs.back(), echo_path(100, rng)));
    }
    const auto x = interleave(xs), d = interleave(ds);
    // max_chunk 20000: sub-chunks of 16384 items cut calls anywhere.
    auto path = cuda::make_nlms_path(0, 20000, ntaps, nf, { 0.3f }, 1e-6f);
    cuda::host_stream& hs = *path.stream;
    EXPECT_STREQ(hs.method(), "nlms");
    std::vector<float> e(x.size(), std::numeric_limits<float>::quiet_NaN());
    const std::size_t calls[] = { 1, 17000, 5, 33333, 4096 };
    for (std::size_t pos = 0, c = 0; pos < len; ++c) {
        const std::size_t m = std::min(calls[c % 5], len - pos);
        const void* in[] = { x.data() + pos * nf, d.data() + pos * nf };
        void* out[] = { e.data() + pos * nf };
        ASSERT_EQ(hs.process(in, m, out), m);
        pos += m;
    }
    std::vector<std::vector<float>> got(nf, std::vector<float>(len));
    std::vector<float> taps;
    for (int k = 0; k < nf; ++k) {
        for (std::size_t t = 0; t < len; ++t)
            got[k][t] = e[t * nf + k];
        const auto tk = path.controls->taps(k);
        taps.insert(taps.end(), tk.begin(), tk.end());
    }
    check_filters(got, xs, ds, taps, ntaps, { 0.3f }, "host_stream");
}

TEST_F(nlms_engine_test, batch_rows_in_groups_and_chunks)
{
    const std::size_t nf = 37, len = 3001;
    const int ntaps = 65;
    std::vector<std::vector<float>> xs, ds;
    std::vector<float> x, d, mu;
    for (std::size_t k = 0; k < nf; ++k) {
        xs.push_back(white(len, rng));
        ds.push_back(convolve(xs.back(), echo_path(50, rng)));
        x.insert(x.end(), xs.back().begin(), xs.back().end());
        d.insert(d.end(), ds.back().begin(), ds.back().end());
        mu.push_back(0.2f + 0.02f * k);
    }
    std::vector<float> e(nf * len, std::numeric_limits<float>::quiet_NaN());
    std::vector<float> taps(nf * ntaps);
    // max_bytes this small makes chunks of 1024 samples (the least), so the state
    // carries across chunks.
    cuda::nlms_batch_rows(
        0, x.data(), d.data(), nf, len, ntaps, mu, 1e-6f, e.data(), taps.data(), 1);
    std::vector<std::vector<float>> got;
    for (std::size_t k = 0; k < nf; ++k)
        got.emplace_back(e.begin() + k * len, e.begin() + (k + 1) * len);
    check_filters(got, xs, ds, taps, ntaps, mu, "batch", { 1024 });
}

TEST_F(nlms_engine_test, rows_in_calls_across_step_boundaries)
{
    // process_rows with rows longer than the samples (a pitch), calls of one sample,
    // shorter than a step, a step and one more, and ending mid-step; one filter over
    // many multiprocessors' worth (the shape of many filters) too.
    const int B = cuda::nlms_block;
    const std::vector<std::size_t> calls = {
        1, 5, std::size_t(B) - 1, std::size_t(B), std::size_t(B) + 1, 1, 700, 3, 2 * B + 7
    };
    int device = 0, sms = 0;
    GPUFILTER_CHECK(cudaGetDevice(&device));
    GPUFILTER_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    for (const int nf : { 3, sms + 5 })
        for (const int ntaps : { 5, 129, 4096 }) {
            const std::size_t len = ntaps > 1000 ? 1200 : 2500, pitch = len + 13;
            std::vector<std::vector<float>> xs, ds;
            std::vector<float> x(nf * pitch, 0.0f), d(nf * pitch, 0.0f), mu;
            for (int k = 0; k < nf; ++k) {
                xs.push_back(white(len, rng));
                ds.push_back(convolve(xs.back(), echo_path(1 + k % 30, rng)));
                std::copy(xs[k].begin(), xs[k].end(), x.begin() + k * pitch);
                std::copy(ds[k].begin(), ds[k].end(), d.begin() + k * pitch);
                mu.push_back(0.05f + 1.2f * k / nf);
            }
            cuda::nlms_engine eng(ntaps, nf, mu, 1e-6f);
            cuda::stream s;
            cuda::device_buffer<float> dx(x.size()), dd(d.size()), de(x.size());
            GPUFILTER_CHECK(
                cudaMemcpy(dx.get(), x.data(), dx.bytes(), cudaMemcpyHostToDevice));
            GPUFILTER_CHECK(
                cudaMemcpy(dd.get(), d.data(), dd.bytes(), cudaMemcpyHostToDevice));
            std::vector<float> e(x.size(), std::numeric_limits<float>::quiet_NaN());
            GPUFILTER_CHECK(
                cudaMemcpy(de.get(), e.data(), de.bytes(), cudaMemcpyHostToDevice));
            GPUFILTER_CHECK(cudaDeviceSynchronize());
            for (std::size_t pos = 0, c = 0; pos < len; ++c) {
                const std::size_t m = std::min(calls[c % calls.size()], len - pos);
                eng.process_rows(
                    dx.get() + pos, dd.get() + pos, de.get() + pos, pitch, m, s);
                pos += m;
            }
            s.synchronize();
            GPUFILTER_CHECK(
                cudaMemcpy(e.data(), de.get(), de.bytes(), cudaMemcpyDeviceToHost));
            std::vector<std::vector<float>> got;
            for (int k = 0; k < nf; ++k) {
                got.emplace_back(e.begin() + k * pitch, e.begin() + k * pitch + len);
                for (std::size_t i = len; i < pitch; ++i)
                    EXPECT_TRUE(std::isnan(e[k * pitch + i])) << "written past a row";
            }
            // Many filters: check a few (the reference is slow), first and last.
            std::vector<std::vector<float>> g2, x2, d2;
            std::vector<float> t2, mu2;
            const auto taps = eng.all_taps(s);
            for (int k : { 0, 1, nf - 1 }) {
                g2.push_back(got[k]);
                x2.push_back(xs[k]);
                d2.push_back(ds[k]);
                mu2.push_back(mu[k]);
                t2.insert(
                    t2.end(), taps.begin() + k * ntaps, taps.begin() + (k + 1) * ntaps);
            }
            // The emulation takes the engine's shape for nf filters, not for 3.
            check_filters_shaped(g2,
                                 x2,
                                 d2,
                                 t2,
                                 ntaps,
                                 mu2,
                                 engine_shape(ntaps, nf),
                                 "rows nf " + std::to_string(nf) + " ntaps " +
                                     std::to_string(ntaps),
                                 calls);
        }
}

TEST_F(nlms_engine_test, converges_to_an_echo_path)
{
    const std::size_t len = 60000;
    const auto x = white(len, rng);
    const auto h = echo_path(1000, rng);
    const auto d = convolve(x, h);
    cuda::nlms_engine eng(1024, 1, { 0.5f }, 1e-6f);
    const auto e = run_engine(eng, x, d, 1, { 4096 })[0];
    double pd = 0, pe = 0;
    for (std::size_t i = len - 10000; i < len; ++i) {
        pd += double(d[i]) * d[i];
        pe += double(e[i]) * e[i];
    }
    EXPECT_GE(10 * std::log10(pd / pe), 25.0);
    cuda::stream s;
    const auto w = eng.taps(0, s);
    double err = 0, hn = 0;
    for (int j = 0; j < 1024; ++j) {
        const double hj = j < 1000 ? h[j] : 0.0;
        err += (w[j] - hj) * (w[j] - hj);
        hn += hj * hj;
    }
    EXPECT_LE(std::sqrt(err / hn), 0.06); // -25 dB misalignment
}

TEST_F(nlms_engine_test, controls)
{
    cuda::stream s;
    cuda::nlms_engine eng(10, 3, { 0.5f }, 1e-6f);
    std::vector<float> t(10);
    for (int j = 0; j < 10; ++j)
        t[j] = 0.1f * j;
    eng.set_taps(1, t, s);
    EXPECT_EQ(eng.taps(1, s), t);
    EXPECT_EQ(eng.taps(0, s), std::vector<float>(10, 0.0f));
    EXPECT_THROW(eng.set_taps(3, t, s), std::out_of_range);
    EXPECT_THROW(eng.set_taps(0, std::vector<float>(9), s), std::invalid_argument);
    EXPECT_THROW(eng.set_mu({ 0.1f, 0.2f }, s), std::invalid_argument);
    EXPECT_THROW(eng.set_mu({ -1.0f }, s), std::invalid_argument);
    eng.reset(s);
    EXPECT_EQ(eng.taps(1, s), std::vector<float>(10, 0.0f));
    EXPECT_THROW(cuda::nlms_engine(0, 1, { 0.5f }, 1e-6f), std::invalid_argument);
    EXPECT_THROW(cuda::nlms_engine(8193, 1, { 0.5f }, 1e-6f), std::invalid_argument);
    EXPECT_THROW(cuda::nlms_engine(8, 0, { 0.5f }, 1e-6f), std::invalid_argument);
    EXPECT_THROW(cuda::nlms_engine(8, 1, { NAN }, 1e-6f), std::invalid_argument);
    EXPECT_THROW(cuda::nlms_engine(8, 1, { 0.5f }, 0.0f), std::invalid_argument);
    EXPECT_THROW(cuda::nlms_engine(8, 1, { 0.5f }, 1e-6f, cuda::nlms_tuning{}),
                 std::invalid_argument);
}

TEST_F(nlms_engine_test, set_taps_mid_stream_keeps_the_history)
{
    // Given taps and no step (a tiny mu would still adapt; compare against the
    // reference started from those taps instead).
    const int ntaps = 40;
    const auto x = white(3000, rng);
    const auto d = convolve(x, echo_path(30, rng));
    cuda::stream s;
    cuda::nlms_engine eng(ntaps, 1, { 0.4f }, 1e-6f);
    nlms_reference ref(ntaps, 0.4, 1e-6);
    const std::vector<float> x1(x.begin(), x.begin() + 1000),
        d1(d.begin(), d.begin() + 1000);
    const std::vector<float> x2(x.begin() + 1000, x.end()), d2(d.begin() + 1000, d.end());
    run_engine(eng, x1, d1, 1, { 1000 });
    ref.run(x1, d1);
    std::vector<float> t(ntaps);
    for (int j = 0; j < ntaps; ++j)
        t[j] = 0.01f * (j % 7);
    eng.set_taps(0, t, s);
    ref.w.assign(t.begin(), t.end());
    const auto got = run_engine(eng, x2, d2, 1, { 700, 1300 })[0];
    const auto want = ref.run(x2, d2);
    EXPECT_LE(error_vs_d(got, want, d2), nlms_float_bound(ntaps, 3000));
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
