/* SPDX-License-Identifier: GPL-3.0-or-later */
// Host-only: the float64 references (pfb_reference.h) against GNU Radio's own blocks.
// check_reference.py writes inputs and gr-filter's outputs into the directory named
// by GPUFILTER_PFB_GR_DATA; without it the test skips. GNU Radio's outputs stop at
// its output multiple, so the reference's first outputs are compared.

#include "pfb_reference.h"
#include <gtest/gtest.h>
#include <cstdlib>
#include <fstream>
#include <string>

namespace gr {
namespace gpufilter {
namespace test {
namespace {

template <class T>
std::vector<T> load(const std::string& file)
{
    std::ifstream in(file, std::ios::binary | std::ios::ate);
    if (!in)
        throw std::runtime_error("cannot read " + file);
    const std::size_t bytes = in.tellg();
    in.seekg(0);
    std::vector<T> v(bytes / sizeof(T));
    in.read(reinterpret_cast<char*>(v.data()), v.size() * sizeof(T));
    return v;
}

class against_gnuradio : public ::testing::Test
{
protected:
    void SetUp() override
    {
        const char* dir = std::getenv("GPUFILTER_PFB_GR_DATA");
        if (!dir || !*dir)
            GTEST_SKIP()
                << "GPUFILTER_PFB_GR_DATA not set (check_reference.py writes it)";
        d_dir = dir;
    }
    std::string file(const std::string& name) const { return d_dir + "/" + name; }
    std::string d_dir;
};

TEST_F(against_gnuradio, channelizer_reference_equals_gr_filter)
{
    // The cases of check_reference.py.
    struct chan_case {
        unsigned N;
        float os;
    };
    const chan_case cases[] = { { 8, 1.0f },     { 8, 2.0f }, { 36, 36.0f / 25 },
                                { 4, 4.0f / 3 }, { 5, 1.0f }, { 36, 36.0f / 7 },
                                { 3, 1.5f } };
    for (int i = 0; i < 7; ++i) {
        const auto si = std::to_string(i);
        const auto x = load<cuda::complex>(file("x" + si + ".bin"));
        const auto taps = load<float>(file("t" + si + ".bin"));
        const auto y = load<cuda::complex>(file("y" + si + ".bin"));
        const unsigned N = cases[i].N;
        const std::size_t steps = y.size() / N;
        const auto want = reference_channelizer(widen_all(x), N, cases[i].os, taps);
        ASSERT_GT(steps, 10u);
        ASSERT_LE(steps, want[0].size());
        double num = 0, den = 0;
        for (unsigned c = 0; c < N; ++c)
            for (std::size_t s = 0; s < steps; ++s) {
                num += std::norm(to_cd(y[c * steps + s]) - want[c][s]);
                den += std::norm(want[c][s]);
            }
        EXPECT_LT(std::sqrt(num / den), 1e-6) << "N=" << N << " os=" << cases[i].os;
    }
}

TEST_F(against_gnuradio, decimator_reference_equals_gr_filter)
{
    struct dec_case {
        unsigned M, channel;
        bool fft_rotator;
    };
    const dec_case cases[] = { { 8, 3, true },  { 8, 3, false },   { 5, 4, true },
                               { 5, 2, false }, { 16, 15, false }, { 16, 7, true } };
    for (int i = 0; i < 6; ++i) {
        const auto si = std::to_string(i);
        const auto x = load<cuda::complex>(file("dx" + si + ".bin"));
        const auto taps = load<float>(file("dt" + si + ".bin"));
        const auto& c = cases[i];
        const auto want =
            reference_decimator(widen_all(x), c.M, taps, c.channel, c.fft_rotator);
        for (const int fft_filters : { 0, 1 }) {
            const auto y = load<cuda::complex>(
                file("d" + si + "_" + std::to_string(fft_filters) + ".bin"));
            ASSERT_GT(y.size(), 10u);
            ASSERT_LE(y.size(), want.size());
            double num = 0, den = 0;
            for (std::size_t k = 0; k < y.size(); ++k) {
                num += std::norm(to_cd(y[k]) - want[k]);
                den += std::norm(want[k]);
            }
            EXPECT_LT(std::sqrt(num / den), 1e-6)
                << "M=" << c.M << " channel=" << c.channel
                << " fft_rotator=" << c.fft_rotator << " fft_filters=" << fft_filters;
        }
    }
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
