/* SPDX-License-Identifier: GPL-3.0-or-later */
// The NLMS batch form (nlms_batch_rows, gpufilter.nlms_batch in Python) against the
// float64 update: one filter and many, calls of one sample to many chunks, a device
// budget that splits the filters into groups and the samples into the smallest
// chunks, pageable copies and (large calls) pinned staging filled by several host
// threads; outputs poisoned first.

#include "../gpu_test_env.h"
#include "nlms/nlms_host.h"
#include "nlms_reference.h"
#include <gtest/gtest.h>
#include <cmath>
#include <limits>
#include <random>
#include <string>

namespace gr {
namespace gpufilter {
namespace test {
namespace {

class nlms_batch_rows_test : public ::testing::Test
{
protected:
    void SetUp() override { GPUFILTER_REQUIRE_DEVICE_OR_SKIP(); }
    std::mt19937 rng{ 29 };
};

//! nf filters' rows of random x and d (an echo of x plus noise), their step sizes
//! and the float64 e and final taps of every `every`-th filter and the last.
struct batch_case {
    std::size_t nf, len;
    int ntaps;
    std::vector<float> x, d, mu;
    std::vector<std::size_t> checked;
    std::vector<std::vector<double>> want_e, want_w;

    batch_case(std::size_t nf_,
               std::size_t len_,
               int ntaps_,
               std::mt19937& g,
               int echo = 24,
               std::size_t every = 1)
        : nf(nf_), len(len_), ntaps(ntaps_)
    {
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        for (std::size_t k = 0; k < nf; ++k) {
            std::vector<float> xk(len);
            for (auto& v : xk)
                v = u(g);
            auto dk = convolve(xk, echo_path(std::min(ntaps, echo), g));
            for (auto& v : dk)
                v += 0.01f * u(g);
            x.insert(x.end(), xk.begin(), xk.end());
            d.insert(d.end(), dk.begin(), dk.end());
            mu.push_back(0.1f + 1.5f * k / nf);
            if (k % every != 0 && k + 1 != nf)
                continue;
            checked.push_back(k);
            nlms_reference ref(ntaps, mu.back(), 1e-6);
            want_e.push_back(ref.run(xk, dk));
            want_w.push_back(ref.w);
        }
    }

    //! One call with `max_bytes`; e and the taps poisoned first, with a poisoned
    //! tail each that must stay so. Returns e, then the taps.
    std::pair<std::vector<float>, std::vector<float>> run(std::size_t max_bytes) const
    {
        const float nan = std::numeric_limits<float>::quiet_NaN();
        std::vector<float> e(nf * len + 7, nan), taps(nf * ntaps + 7, nan);
        cuda::nlms_batch_rows(0,
                              x.data(),
                              d.data(),
                              nf,
                              len,
                              ntaps,
                              mu,
                              1e-6f,
                              e.data(),
                              taps.data(),
                              max_bytes);
        for (std::size_t i = nf * len; i < e.size(); ++i)
            EXPECT_TRUE(std::isnan(e[i])) << "e written past the end";
        for (std::size_t i = nf * ntaps; i < taps.size(); ++i)
            EXPECT_TRUE(std::isnan(taps[i])) << "taps written past the end";
        e.resize(nf * len);
        taps.resize(nf * ntaps);
        return { e, taps };
    }

    void check(const std::vector<float>& e,
               const std::vector<float>& taps,
               const std::string& what) const
    {
        const double bound = nlms_float_bound(ntaps, len);
        for (std::size_t i = 0; i < checked.size(); ++i) {
            const std::size_t k = checked[i];
            const std::vector<float> got(e.begin() + k * len, e.begin() + (k + 1) * len);
            const std::vector<float> dk(d.begin() + k * len, d.begin() + (k + 1) * len);
            std::size_t nans = 0;
            for (float v : got)
                nans += std::isnan(v);
            ASSERT_EQ(nans, 0u) << what << " filter " << k << ": e not all written";
            EXPECT_LE(error_vs_d(got, want_e[i], dk), bound) << what << " filter " << k;
            double err = 0.0, norm = 0.0;
            for (int j = 0; j < ntaps; ++j) {
                const double t = taps[k * ntaps + j], w = want_w[i][j];
                err += (t - w) * (t - w);
                norm += w * w;
            }
            EXPECT_LE(std::sqrt(err / std::max(norm, 1e-30)), bound)
                << what << " taps of filter " << k;
        }
    }
};

TEST_F(nlms_batch_rows_test, matches_reference_over_shapes_and_budgets)
{
    const int ntaps = 33;
    for (const std::size_t nf : { 1, 3, 64 })
        for (const std::size_t len : { 1, 5, 4097, 100003 }) {
            const batch_case c(nf, len, ntaps, rng);
            // The default budget (chunks of a sixteenth of the call, pageable copies),
            // then one so small that every group holds 5 filters and every chunk 1024
            // samples, twice (the same result).
            const std::size_t tiny = 2 * 2 * sizeof(float) * ntaps * 5;
            const std::string name =
                std::to_string(nf) + " filters x " + std::to_string(len) + " samples";
            const auto big = c.run(std::size_t(256) << 20);
            c.check(big.first, big.second, name + ", default budget");
            const auto small = c.run(tiny);
            c.check(small.first, small.second, name + ", small budget");
            const auto again = c.run(tiny);
            EXPECT_EQ(again.first, small.first) << name << ": a second call differs";
            EXPECT_EQ(again.second, small.second) << name << ": a second call differs";
        }
}

TEST_F(nlms_batch_rows_test, large_calls_through_pinned_staging)
{
    // Calls of hundreds of MiB copy through pinned staging, filled and drained by
    // several host threads (240 rows: parts of uneven size); one group, then two
    // groups of 120 in chunks of 1024 samples; every 17th filter and the last checked.
    const int ntaps = 33;
    const batch_case c(240, 250003, ntaps, rng, 8, 17);
    for (const std::size_t group : { 240, 120 }) {
        const std::size_t max_bytes =
            group == 240 ? std::size_t(256) << 20 : 2 * 2 * sizeof(float) * ntaps * group;
        for (int call = 0; call < 2; ++call) {
            const auto got = c.run(max_bytes);
            c.check(got.first,
                    got.second,
                    "groups of " + std::to_string(group) + ", call " +
                        std::to_string(call));
        }
    }
}

TEST_F(nlms_batch_rows_test, long_filters_one_per_group)
{
    // 4096 taps, a budget of one filter's state: groups of one filter, chunks of
    // 1024 samples, the history carried across five of them.
    const int ntaps = 4096;
    const batch_case c(3, 4097, ntaps, rng);
    const auto got = c.run(2 * 2 * sizeof(float) * ntaps);
    c.check(got.first, got.second, "4096 taps, one filter a group");
    const auto all = c.run(std::size_t(256) << 20);
    c.check(all.first, all.second, "4096 taps, one group");
}

TEST_F(nlms_batch_rows_test, no_samples_leave_zero_taps)
{
    std::vector<float> x, d, e, taps(2 * 8, std::numeric_limits<float>::quiet_NaN());
    cuda::nlms_batch_rows(
        0, x.data(), d.data(), 2, 0, 8, { 0.5f }, 1e-6f, e.data(), taps.data());
    for (float t : taps)
        EXPECT_EQ(t, 0.0f);
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
