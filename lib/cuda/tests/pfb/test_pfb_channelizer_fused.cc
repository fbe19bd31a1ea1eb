/* SPDX-License-Identifier: GPL-3.0-or-later */
// The channelizer's fused FIR + block FFT kernel at the shapes it is tuned for: 8
// taps per branch up to 4096 channels, oversampled at several channel counts, each
// block size, both layouts, integer input and new taps mid-stream,
// against the float64 reference of gr-filter 3.10.

#include "channelizer_test_support.h"
#include <gtest/gtest.h>
#include <string>

namespace gr {
namespace gpufilter {
namespace test {
namespace {

cuda::pfb_tuning fused_tuning(int block_samples)
{
    cuda::pfb_tuning t = test_pfb_tuning();
    t.path = cuda::pfb_path::fused;
    t.fused_block_samples = block_samples;
    return t;
}

std::size_t steps_for(unsigned N) { return N >= 2048 ? 19 : N >= 256 ? 45 : 300; }

TEST_F(pfb_channelizer_test, fused_eight_taps_every_size_and_rate)
{
    std::vector<chan_case> cases;
    for (const unsigned N : { 2u, 16u, 64u, 128u, 256u, 512u, 1024u, 2048u, 4096u })
        for (const unsigned os : { 1u, 2u, 4u, 8u })
            if (os <= N && (N <= 1024 || os <= 4))
                cases.push_back({ N, static_cast<float>(os), 8 * N });
    cases.push_back({ 1024, 1024.0f / 768, 1024 * 8 - 5 });
    cases.push_back({ 4096, 4096.0f / 3072, 4096 * 7 + 1 });
    cases.push_back({ 4096, 1, 4096 * 2 });
    cases.push_back({ 2048, 2, 2048 * 16 + 3 }); // more than one tap chunk
    for (const auto& c : cases) {
        const auto taps = random_taps(c.ntaps, rng);
        const int R = gr_rate_ratio(c.N, c.os);
        const auto x = random_samples<complex>(steps_for(c.N) * R + R / 3 + 2, rng);
        const auto want = reference_channelizer(widen_all(x), c.N, c.os, taps);
        for (const int block : { 4096, 8192, 16384 }) {
            if (block > 4096 && c.N < 512)
                continue; // one block size below 512 channels
            for (const auto layout : { pfb_layout::vector, pfb_layout::streams }) {
                pfb_channelizer_engine<complex> e(
                    c.N, taps, c.os, layout, {}, fused_tuning(block));
                const auto y =
                    run_processor(e, x, { 2 * c.N * 3 + 5, c.N / 2 + 1, x.size() });
                const auto got =
                    layout == pfb_layout::vector ? vectors_to_channels(y[0], c.N) : y;
                const std::string what =
                    describe(c) + " block " + std::to_string(block) +
                    (layout == pfb_layout::vector ? " vector" : " streams");
                ASSERT_EQ(got.size(), c.N) << what;
                ASSERT_EQ(got[0].size(), want[0].size()) << what;
                EXPECT_LE(relative_error(got, want), tolerance(c.N)) << what;
            }
        }
    }
}

TEST_F(pfb_channelizer_test, fused_integer_input_and_channel_map)
{
    for (const chan_case c : std::vector<chan_case>{
             { 4096, 2, 4096 * 8 }, { 1024, 1, 1024 * 8 }, { 64, 4, 64 * 8 } }) {
        const auto taps = random_taps(c.ntaps, rng);
        const int R = gr_rate_ratio(c.N, c.os);
        const auto x8 = random_samples<cuda::iq_s8>(steps_for(c.N) * R + 3, rng);
        const auto x16 = random_samples<cuda::iq_s16>(steps_for(c.N) * R + 3, rng);
        const std::vector<int> map = { static_cast<int>(c.N) - 1, 0, 5, 5, 1 };
        {
            const auto want = reference_channelizer(widen_all(x8), c.N, c.os, taps);
            pfb_channelizer_engine<cuda::iq_s8> e(
                c.N, taps, c.os, pfb_layout::vector, {}, fused_tuning(8192));
            const auto y = run_processor(e, x8, { c.N * 3 + 1, x8.size() });
            EXPECT_LE(relative_error(vectors_to_channels(y[0], c.N), want),
                      tolerance(c.N))
                << describe(c) << " iq_s8";
        }
        {
            const auto want = reference_channelizer(widen_all(x16), c.N, c.os, taps);
            pfb_channelizer_engine<cuda::iq_s16> e(
                c.N, taps, c.os, pfb_layout::streams, map, fused_tuning(4096));
            const auto y = run_processor(e, x16, uneven_calls);
            EXPECT_LE(relative_error(y, mapped(want, map)), tolerance(c.N))
                << describe(c) << " iq_s16 mapped";
        }
    }
}

TEST_F(pfb_channelizer_test, fused_set_taps_mid_stream)
{
    for (const chan_case c :
         std::vector<chan_case>{ { 2048, 2, 2048 * 8 }, { 256, 1, 256 * 8 } }) {
        const int R = gr_rate_ratio(c.N, c.os);
        const auto a = random_taps(c.ntaps, rng);
        const auto fewer = random_taps(c.ntaps / 2 - 3, rng);
        const auto x = random_samples<complex>(R * 2 * steps_for(c.N) + 2, rng);
        const std::size_t at = steps_for(c.N) * R + R / 2;
        pfb_channelizer_engine<complex> e(
            c.N, a, c.os, pfb_layout::vector, {}, fused_tuning(8192));
        const auto y = run_processor(
            e, x, { 97, 1001 }, [&](std::size_t consumed, std::size_t n, cudaStream_t s) {
                if (consumed == at)
                    e.set_taps(fewer, s);
                return consumed < at ? std::min(n, at - consumed) : n;
            });
        const auto want = reference_channelizer(
            widen_all(x), c.N, c.os, [&](std::size_t step) -> const std::vector<float>& {
                return step < at / R ? a : fewer;
            });
        EXPECT_LE(relative_error(vectors_to_channels(y[0], c.N), want), tolerance(c.N))
            << describe(c);
    }
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
