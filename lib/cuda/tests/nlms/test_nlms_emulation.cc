/* SPDX-License-Identifier: GPL-3.0-or-later */
// Host-only, runs without a GPU: the NLMS kernel's launch shape for every tap count,
// and a float32 emulation of its index math and arithmetic (nlms_reference.h: steps of
// nlms_block samples, the exact block form of the update) against the float64 update,
// sample by sample.

#include "nlms_reference.h"
#include <gtest/gtest.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <stdexcept>

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

//! The table's measured entry (nlms_tuning.cc): what the engine uses on sm_90, and on
//! every architecture until another is measured.
const cuda::nlms_tuning sm_90 = cuda::nlms_tuning_for(90);

TEST(nlms_shape, covers_every_tap_count_within_limits)
{
    for (const int nfilters : { 1, 1000 })
        for (int n = 1; n <= cuda::nlms_max_taps; ++n) {
            const auto s = cuda::nlms_shape_for(sm_90, n, nfilters, 132);
            const int target = nfilters == 1 ? sm_90.threads_few : sm_90.threads_many;
            const int k = s.taps_per_thread;
            ASSERT_EQ(s.threads % 32, 0) << n;
            ASSERT_GE(s.threads, 32) << n;
            ASSERT_LE(s.threads, cuda::nlms_max_threads) << n;
            ASSERT_TRUE(k == 4 || k == 8 || k == 16) << n;
            // The engine runs filters of at most nlms_block taps on the K = 4 kernel
            // of its own (nlms_engine::launch).
            if (n <= cuda::nlms_block) {
                ASSERT_EQ(k, 4) << n;
            }
            ASSERT_GE(s.threads * k, n) << n;
            ASSERT_EQ(s.history, s.threads * k) << n;
            // Fewest warps at K (for a lone filter at least a warp for each chain of
            // the serial part), and the least K within the target.
            const int fewest = nfilters == 1 ? cuda::nlms_serial_warps * 32 : 32;
            ASSERT_GE(s.threads, fewest) << n;
            if (s.threads > fewest) {
                ASSERT_LT((s.threads - 32) * k, n) << n;
            }
            if (k > 4) {
                ASSERT_GT((n + k / 2 - 1) / (k / 2), target) << n;
            }
            // Within what a block may opt into on every architecture from sm_80 on
            // (99 KB on sm_86 and sm_89).
            ASSERT_LE(s.shared_bytes, 99u * 1024) << n;
            ASSERT_EQ(s.shared_bytes,
                      cuda::nlms_shared_floats(s.threads, s.history, s.tile, k) *
                          sizeof(float))
                << n;
            ASSERT_EQ(s.tile % cuda::nlms_block, 0) << n;
        }
    EXPECT_THROW(cuda::nlms_shape_for(sm_90, 0), std::invalid_argument);
    EXPECT_THROW(cuda::nlms_shape_for(sm_90, cuda::nlms_max_taps + 1),
                 std::invalid_argument);
}

TEST(nlms_emulation, matches_float64_reference_sample_by_sample)
{
    std::mt19937 g(5);
    struct shape {
        int ntaps;
        std::size_t len;
    };
    const shape shapes[] = { { 1, 3000 },    { 2, 3000 },    { 3, 3000 },
                             { 31, 3000 },   { 32, 3000 },   { 33, 3000 },
                             { 100, 3000 },  { 257, 3000 },  { 1000, 2000 },
                             { 2049, 1200 }, { 4096, 1000 }, { 8192, 600 } };
    for (const auto& sh : shapes)
        for (const double mu : { 0.05, 0.5, 1.0 }) {
            const auto x = white(sh.len, g);
            // An echo longer than the filter for short filters (it never converges:
            // w keeps jumping where x is small, as in the block's QA), as long as the
            // filter for the others.
            const auto h = echo_path(sh.ntaps < 48 ? 48 : std::min(sh.ntaps, 64), g);
            const auto d = convolve(x, h);
            nlms_reference ref(sh.ntaps, mu, 1e-6);
            const auto want = ref.run(x, d);
            // The shapes of one filter and of many (other K, other threads).
            const int nf = sh.ntaps % 2 ? 1 : 1000;
            nlms_emulation emu(sh.ntaps,
                               float(mu),
                               1e-6f,
                               cuda::nlms_shape_for(sm_90, sh.ntaps, nf, 132));
            // Uneven calls: tiles and steps restart at each (steps cut short, calls
            // shorter than a step, of one sample), which must not matter.
            std::vector<float> got;
            const std::size_t calls[] = { 1, 255, 256, 257, 7, 1000, 31, 33, 32, 1 };
            for (std::size_t pos = 0, c = 0; pos < x.size(); ++c) {
                const std::size_t n = std::min(calls[c % 10], x.size() - pos);
                const auto e = emu.run(x.data() + pos, d.data() + pos, n);
                got.insert(got.end(), e.begin(), e.end());
                pos += n;
            }
            const double err = error_vs_d(got, want, d);
            EXPECT_LE(err, nlms_float_bound(sh.ntaps, sh.len))
                << "ntaps " << sh.ntaps << " mu " << mu;
            double werr = 0, wn = 0;
            for (int j = 0; j < sh.ntaps; ++j) {
                werr += std::pow(emu.w[j] - ref.w[j], 2);
                wn += ref.w[j] * ref.w[j];
            }
            EXPECT_LE(std::sqrt(werr / std::max(wn, 1e-30)),
                      nlms_float_bound(sh.ntaps, sh.len))
                << "taps, ntaps " << sh.ntaps << " mu " << mu;
            if (std::getenv("GPUFILTER_NLMS_VERBOSE"))
                std::printf("ntaps %5d mu %.2f: error %.3g (bound %.3g)\n",
                            sh.ntaps,
                            mu,
                            err,
                            nlms_float_bound(sh.ntaps, sh.len));
        }
}

TEST(nlms_emulation, silence_between_signals)
{
    // The norm runs through a step from the sum at its start: where x falls silent,
    // what is left of a loud window must not give a step size or an error that the
    // sample-by-sample update would not (digital silence, then signal again).
    std::mt19937 g(7);
    for (const int ntaps : { 8, 33, 256, 1000 }) {
        auto x = white(6000, g);
        for (std::size_t i = 1500; i < 4000; ++i)
            x[i] = 0.0f;
        x[1499] = 30.0f; // a click as the signal stops
        const auto d = convolve(x, echo_path(std::min(ntaps, 64), g));
        for (const double mu : { 0.5, 1.0 }) {
            nlms_reference ref(ntaps, mu, 1e-6);
            const auto want = ref.run(x, d);
            nlms_emulation emu(ntaps, float(mu), 1e-6f, sm_90);
            const auto got = emu.run(x.data(), d.data(), x.size());
            EXPECT_LE(error_vs_d(got, want, d), nlms_float_bound(ntaps, x.size()))
                << "ntaps " << ntaps << " mu " << mu;
            if (std::getenv("GPUFILTER_NLMS_VERBOSE"))
                std::printf("silence ntaps %4d mu %.2f: error %.3g (bound %.3g)\n",
                            ntaps,
                            mu,
                            error_vs_d(got, want, d),
                            nlms_float_bound(ntaps, x.size()));
        }
    }
}

TEST(nlms_emulation, converges_to_an_echo_path)
{
    std::mt19937 g(6);
    const auto x = white(40000, g);
    const auto h = echo_path(200, g);
    const auto d = convolve(x, h);
    nlms_emulation emu(256, 0.5f, 1e-6f, sm_90);
    const auto e = emu.run(x.data(), d.data(), x.size());
    double pd = 0, pe = 0;
    for (std::size_t i = 30000; i < x.size(); ++i) {
        pd += double(d[i]) * d[i];
        pe += double(e[i]) * e[i];
    }
    EXPECT_GE(10 * std::log10(pd / pe), 25.0);
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
