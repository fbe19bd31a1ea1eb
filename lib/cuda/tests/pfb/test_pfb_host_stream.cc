/* SPDX-License-Identifier: GPL-3.0-or-later */
// The PFB engines as processors of the host path (host_stream): host samples in, host
// samples out, in calls that host_stream cuts into sub-chunks round its slot ring;
// the outputs against the float64 reference of gr-filter's blocks.

#include "../gpu_test_env.h"
#include "pfb/pfb_channelizer_engine.h"
#include "pfb/pfb_decimator_engine.h"
#include "pfb_test_support.h"
#include "stream/host_stream.h"
#include <gtest/gtest.h>
#include <memory>

namespace gr {
namespace gpufilter {
namespace test {
namespace {

using cuda::complex;

class pfb_host_stream_test : public ::testing::Test
{
protected:
    void SetUp() override { GPUFILTER_REQUIRE_DEVICE_OR_SKIP(); }
    std::mt19937 rng{ 99 };
};

/*!
 * x through hs in calls of the given sizes (cycled), into host outputs (one vector
 * per port, items of per_item complex samples) poisoned with NaN. Returns them cut
 * to what was written.
 */
template <class In>
std::vector<std::vector<complex>> run_host(cuda::host_stream& hs,
                                           const std::vector<In>& x,
                                           std::size_t nports,
                                           std::size_t per_item,
                                           const std::vector<std::size_t>& calls)
{
    // Fresh state: one call's count is the total.
    const std::size_t cap = hs.output_count(x.size()) + 64;
    std::vector<std::vector<complex>> y(
        nports, std::vector<complex>(cap * per_item, poison<complex>()));
    std::size_t consumed = 0, produced = 0;
    std::vector<void*> outs(nports);
    for (std::size_t call = 0; consumed < x.size(); ++call) {
        const std::size_t n = std::min(calls[call % calls.size()], x.size() - consumed);
        for (std::size_t k = 0; k < nports; ++k)
            outs[k] = y[k].data() + produced * per_item;
        const void* in[] = { x.data() + consumed };
        const std::size_t expected = hs.output_count(n);
        const std::size_t got = hs.process(in, n, outs.data());
        EXPECT_EQ(got, expected) << "call " << call;
        consumed += n;
        produced += got;
    }
    for (auto& port : y) {
        std::size_t written_past = 0;
        for (std::size_t i = produced * per_item; i < port.size(); ++i)
            written_past += !std::isnan(port[i].real());
        EXPECT_EQ(written_past, 0u);
        port.resize(produced * per_item);
    }
    return y;
}

TEST_F(pfb_host_stream_test, channelizer_stream_layout_with_map)
{
    const unsigned N = 36;
    const float os = 36.0f / 25;
    const auto taps = random_taps(36 * 9 + 4, rng);
    const std::vector<int> map = { 3, 35, 0, 17, 17 };
    const auto x = random_samples<complex>(25 * 9000 + 11, rng);
    const auto want = reference_channelizer(widen_all(x), N, os, taps);
    // max_chunk 40000: sub-chunks of 16384 input samples, not multiples of R = 25.
    cuda::host_stream hs(
        0,
        std::make_unique<cuda::pfb_channelizer_engine<complex>>(
            N, taps, os, cuda::pfb_layout::streams, map, test_pfb_tuning()),
        40000);
    EXPECT_STREQ(hs.method(), "pfb");
    EXPECT_EQ(hs.history_items(), 36u * 10 - 1);
    const auto y = run_host(hs, x, map.size(), 1, { 100000, 7, 33333 });
    ASSERT_EQ(y[0].size(), want[0].size());
    EXPECT_LE(relative_error(y, mapped(want, map)), 1e-5);
}

TEST_F(pfb_host_stream_test, channelizer_vector_layout_int8)
{
    const unsigned N = 256;
    const auto taps = random_taps(256 * 6, rng);
    const auto x = random_samples<cuda::iq_s8>(256 * 300 + 100, rng);
    const auto want = reference_channelizer(widen_all(x), N, 2.0f, taps);
    cuda::host_stream hs(0,
                         std::make_unique<cuda::pfb_channelizer_engine<cuda::iq_s8>>(
                             N,
                             taps,
                             2.0f,
                             cuda::pfb_layout::vector,
                             std::vector<int>{},
                             test_pfb_tuning()),
                         20000);
    const auto y = run_host(hs, x, 1, N, { 50000, 129 });
    std::vector<std::vector<complex>> got(N);
    for (std::size_t i = 0; i < y[0].size(); ++i)
        got[i % N].push_back(y[0][i]);
    ASSERT_EQ(got[0].size(), want[0].size());
    EXPECT_LE(relative_error(got, want), 1e-5);
}

TEST_F(pfb_host_stream_test, decimator)
{
    const unsigned M = 10;
    const auto taps = random_taps(M * 8 + 3, rng);
    const auto x = random_samples<cuda::iq_u8>(M * 20000 + 9, rng);
    for (const bool fft_rotator : { true, false }) {
        const auto want = reference_decimator(widen_all(x), M, taps, 7, fft_rotator);
        cuda::host_stream hs(0,
                             std::make_unique<cuda::pfb_decimator_engine<cuda::iq_u8>>(
                                 M, taps, 7, fft_rotator),
                             30000);
        const auto y = run_host(hs, x, 1, 1, { 65537, 3 });
        ASSERT_EQ(y[0].size(), want.size());
        EXPECT_LE(relative_error(y, std::vector<std::vector<cd>>{ want }), 1e-5)
            << "fft_rotator=" << fft_rotator;
    }
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
