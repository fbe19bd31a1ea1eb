/* SPDX-License-Identifier: GPL-3.0-or-later */
// Host-only, runs without a GPU: the NLMS kernel's launch shape for every tap count,
// and a float32 emulation of its index math and arithmetic (nlms_reference.h) against
// the float64 update, sample by sample.

#include "nlms_reference.h"
#include <gtest/gtest.h>
#include <cmath>
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
    for (int n = 1; n <= cuda::nlms_max_taps; ++n) {
        const auto s = cuda::nlms_shape_for(sm_90, n);
        ASSERT_EQ(s.threads % 32, 0) << n;
        ASSERT_GE(s.threads, 32) << n;
        ASSERT_LE(s.threads, cuda::nlms_max_threads) << n;
        ASSERT_TRUE(s.taps_per_thread == 1 || s.taps_per_thread == 2 ||
                    s.taps_per_thread == 4 || s.taps_per_thread == 8)
            << n;
        ASSERT_GE(s.threads * s.taps_per_thread, n) << n;
        // Fewest threads: one warp less could not hold the taps at 8 each.
        if (s.threads > 32) {
            ASSERT_GT(n, (s.threads - 32) * sm_90.max_taps_per_thread) << n;
        }
        // Within the default dynamic shared memory (no opt-in needed).
        ASSERT_LE(s.shared_bytes, 48u * 1024) << n;
        ASSERT_EQ(s.shared_bytes, (n - 1 + 2 * s.tile + 128) * sizeof(float)) << n;
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
    const shape shapes[] = { { 1, 3000 },    { 2, 3000 },    { 3, 3000 },   { 31, 3000 },
                             { 32, 3000 },   { 33, 3000 },   { 100, 3000 }, { 257, 3000 },
                             { 1000, 2000 }, { 2049, 1200 }, { 8192, 600 } };
    for (const auto& sh : shapes)
        for (const double mu : { 0.05, 0.5, 1.0 }) {
            const auto x = white(sh.len, g);
            const auto h = echo_path(std::min(sh.ntaps, 64), g);
            const auto d = convolve(x, h);
            nlms_reference ref(sh.ntaps, mu, 1e-6);
            const auto want = ref.run(x, d);
            nlms_emulation emu(sh.ntaps, float(mu), 1e-6f, sm_90);
            // Uneven calls: tiles restart at each, which must not matter.
            std::vector<float> got;
            const std::size_t calls[] = { 1, 255, 256, 257, 7, 1000 };
            for (std::size_t pos = 0, c = 0; pos < x.size(); ++c) {
                const std::size_t n = std::min(calls[c % 6], x.size() - pos);
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
