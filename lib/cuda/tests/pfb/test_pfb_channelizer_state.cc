/* SPDX-License-Identifier: GPL-3.0-or-later */
// pfb_channelizer_engine's state across calls against the float64 reference of
// gr-filter 3.10's stream_to_streams(N) -> pfb_channelizer_ccf(N, taps,
// oversample_rate): new channel maps and taps mid-stream, any split into calls, and
// the integer input formats.

#include "channelizer_test_support.h"
#include <gtest/gtest.h>
#include <numeric>
#include <set>
#include <string>

namespace gr {
namespace gpufilter {
namespace test {
namespace {

TEST_F(pfb_channelizer_test, a_map_of_another_length_changes_the_ports_and_restarts)
{
    // Between runs a channelizer block learns how many outputs are connected: the
    // engine then has that many ports and starts afresh, as a new engine would.
    const chan_case c{ 8, 2, 8 * 5 + 3 };
    const auto taps = random_taps(c.ntaps, rng);
    const int R = gr_rate_ratio(c.N, c.os);
    const auto before = random_samples<complex>(R * 300 + 5, rng);
    const auto x = random_samples<complex>(R * 900, rng);
    pfb_channelizer_engine<complex> e(
        c.N, taps, c.os, pfb_layout::streams, { 0, 7, 3 }, test_pfb_tuning());
    run_processor(e, before, uneven_calls);
    const std::vector<int> map = { 5, 1 };
    e.set_channel_map(map, nullptr);
    EXPECT_EQ(e.ports().out_item_bytes.size(), map.size());
    const auto y = run_processor(e, x, uneven_calls);
    ASSERT_EQ(y.size(), map.size());
    const auto want = reference_channelizer(widen_all(x), c.N, c.os, taps);
    EXPECT_LE(relative_error(y, mapped(want, map)), tolerance(c.N)) << describe(c);
}

TEST_F(pfb_channelizer_test, set_channel_map_mid_stream)
{
    const chan_case c{ 8, 2, 8 * 5 + 3 };
    const auto taps = random_taps(c.ntaps, rng);
    const int R = gr_rate_ratio(c.N, c.os);
    const auto x = random_samples<complex>(R * 2000, rng);
    const auto want = reference_channelizer(widen_all(x), c.N, c.os, taps);
    const std::vector<int> first = { 0, 7, 3 }, second = { 6, 6, 1 };
    pfb_channelizer_engine<complex> e(
        c.N, taps, c.os, pfb_layout::streams, first, test_pfb_tuning());
    EXPECT_THROW(e.set_channel_map({ 1, 2, 8 }, nullptr), std::invalid_argument);
    const std::size_t switch_at = R * 1000; // a call boundary, 1000 steps done
    const auto y = run_processor(
        e, x, { 333, 1000 }, [&](std::size_t consumed, std::size_t n, cudaStream_t s) {
            if (consumed == switch_at)
                e.set_channel_map(second, s);
            return consumed < switch_at ? std::min(n, switch_at - consumed) : n;
        });
    ASSERT_EQ(y.size(), 3u);
    std::vector<std::vector<complex>> got_first(3), got_second(3);
    std::vector<std::vector<cd>> want_first(3), want_second(3);
    for (int k = 0; k < 3; ++k) {
        ASSERT_EQ(y[k].size(), want[0].size());
        got_first[k].assign(y[k].begin(), y[k].begin() + 1000);
        got_second[k].assign(y[k].begin() + 1000, y[k].end());
        want_first[k].assign(want[first[k]].begin(), want[first[k]].begin() + 1000);
        want_second[k].assign(want[second[k]].begin() + 1000, want[second[k]].end());
    }
    EXPECT_LE(relative_error(got_first, want_first), tolerance(c.N));
    EXPECT_LE(relative_error(got_second, want_second), tolerance(c.N));
}

TEST_F(pfb_channelizer_test, any_split_into_calls_gives_one_calls_output)
{
    const chan_case c{ 36, 36.0f / 25, 36 * 7 + 4 };
    const auto taps = random_taps(c.ntaps, rng);
    const auto x = random_samples<complex>(25 * 300 + 13, rng);
    const auto want = reference_channelizer(widen_all(x), c.N, c.os, taps);
    for (const auto& calls : std::vector<std::vector<std::size_t>>{
             { x.size() }, { 1 }, { 24, 1, 25, 26 }, { 36 }, { 900, 0, 3 } }) {
        pfb_channelizer_engine<complex> e(
            c.N, taps, c.os, pfb_layout::streams, {}, test_pfb_tuning());
        const auto y = run_processor(e, x, calls);
        EXPECT_LE(relative_error(y, want), tolerance(c.N)) << "first call " << calls[0];
    }
}

TEST_F(pfb_channelizer_test, set_taps_mid_stream)
{
    for (const chan_case c : std::vector<chan_case>{
             { 8, 2, 8 * 6 + 1 }, { 36, 36.0f / 25, 36 * 5 + 2 }, { 5, 1, 5 * 9 } }) {
        const int R = gr_rate_ratio(c.N, c.os);
        const auto a = random_taps(c.ntaps, rng);
        const auto fewer = random_taps(c.ntaps / 3 + 1, rng);
        const auto more = random_taps(c.ntaps * 2 + 3, rng);
        const auto x = random_samples<complex>(R * 1500 + 2, rng);
        const auto xw = widen_all(x);

        // Fewer taps per filter, mid-step, without set_history: the kept history is
        // trimmed to the real past samples, which is what gr-filter's window holds.
        {
            const std::size_t at = 400 * R + R / 2;
            pfb_channelizer_engine<complex> e(
                c.N, a, c.os, pfb_layout::streams, {}, test_pfb_tuning());
            const auto y =
                run_processor(e,
                              x,
                              { 97, 1001 },
                              [&](std::size_t consumed, std::size_t n, cudaStream_t s) {
                                  if (consumed == at)
                                      e.set_taps(fewer, s);
                                  return consumed < at ? std::min(n, at - consumed) : n;
                              });
            const auto want = reference_channelizer(
                xw, c.N, c.os, [&](std::size_t step) -> const std::vector<float>& {
                    return step < at / R ? a : fewer;
                });
            EXPECT_LE(relative_error(y, want), tolerance(c.N)) << describe(c) << " fewer";
        }
        // More taps per filter, at a boundary of gr-filter's calls (whole rows and a
        // whole rotation period), then set_history from the real past samples, as the
        // block does from GNU Radio's window.
        {
            const std::size_t period = std::lcm<std::size_t>(c.N, R); // input samples
            const std::size_t at = (600 * R / period + 1) * period;
            pfb_channelizer_engine<complex> e(
                c.N, a, c.os, pfb_layout::streams, {}, test_pfb_tuning());
            const auto y =
                run_processor(e,
                              x,
                              { 333, 64 },
                              [&](std::size_t consumed, std::size_t n, cudaStream_t s) {
                                  if (consumed == at) {
                                      e.set_taps(more, s);
                                      const std::size_t H = e.history_items();
                                      std::vector<complex> past(H, complex(0.0f, 0.0f));
                                      for (std::size_t i = 0; i < H; ++i)
                                          if (at + i >= H)
                                              past[i] = x[at + i - H];
                                      const void* host[] = { past.data() };
                                      e.set_history(host, s);
                                  }
                                  return consumed < at ? std::min(n, at - consumed) : n;
                              });
            const auto want = reference_channelizer(
                xw, c.N, c.os, [&](std::size_t step) -> const std::vector<float>& {
                    return step < at / R ? a : more;
                });
            EXPECT_LE(relative_error(y, want), tolerance(c.N)) << describe(c) << " more";
        }
    }
}

template <class In>
class pfb_channelizer_format_test : public pfb_channelizer_test
{
};
using formats = ::testing::Types<complex, cuda::iq_s8, cuda::iq_u8, cuda::iq_s16>;
TYPED_TEST_SUITE(pfb_channelizer_format_test, formats);

TYPED_TEST(pfb_channelizer_format_test, integer_formats_convert_in_the_load_path)
{
    for (const chan_case c : std::vector<chan_case>{ { 8, 2, 8 * 7 + 3 },
                                                     { 36, 36.0f / 25, 36 * 4 - 1 },
                                                     { 3, 1, 13 },
                                                     { 256, 1, 256 * 3 } }) {
        const auto taps = random_taps(c.ntaps, this->rng);
        const int R = gr_rate_ratio(c.N, c.os);
        const std::size_t steps = c.N >= 256 ? 60 : 1200;
        const auto x = random_samples<TypeParam>(steps * R + 1, this->rng);
        const auto want = reference_channelizer(widen_all(x), c.N, c.os, taps);
        pfb_channelizer_engine<TypeParam> e(
            c.N, taps, c.os, pfb_layout::streams, {}, test_pfb_tuning());
        EXPECT_EQ(e.ports().in_item_bytes[0], sizeof(TypeParam));
        const auto y = run_processor(e, x, uneven_calls);
        EXPECT_LE(relative_error(y, want), tolerance(c.N)) << describe(c);

        // set_history converts host items as the kernels do: restart from the real
        // past at a call boundary of whole rotation periods.
        const std::size_t period = std::lcm<std::size_t>(c.N, R);
        const std::size_t at = (x.size() / 2 / period) * period;
        pfb_channelizer_engine<TypeParam> e2(
            c.N, taps, c.os, pfb_layout::streams, {}, test_pfb_tuning());
        const auto y2 = run_processor(
            e2, x, { 101 }, [&](std::size_t consumed, std::size_t n, cudaStream_t s) {
                if (consumed == at) {
                    const std::size_t H = e2.history_items();
                    std::vector<TypeParam> past(H);
                    for (std::size_t i = 0; i < H; ++i)
                        past[i] = at + i >= H ? x[at + i - H] : x[0];
                    if (at < H)
                        return n; // not enough past to restart from; skip
                    e2.reset(s);
                    const void* host[] = { past.data() };
                    e2.set_history(host, s);
                }
                return consumed < at ? std::min(n, at - consumed) : n;
            });
        EXPECT_LE(relative_error(y2, want), tolerance(c.N)) << describe(c) << " restart";
    }
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
