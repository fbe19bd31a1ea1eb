/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_TESTS_CHANNELIZER_TEST_SUPPORT_H
#define INCLUDED_GPUFILTER_TESTS_CHANNELIZER_TEST_SUPPORT_H

// What the channelizer engine's tests share: their tolerance, call sizes, cases and
// fixture.

#include "pfb/pfb_channelizer_engine.h"
#include "pfb/pfb_tuning.h"
#include "pfb_test_support.h"
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

namespace gr {
namespace gpufilter {
namespace test {

using cuda::complex;
using cuda::pfb_channelizer_engine;
using cuda::pfb_layout;

// float32 FIR (T taps) then a float32 N-point FFT: ~1e-7 * (sqrt(T) + log2 N); any
// indexing error gives O(1).
inline double tolerance(unsigned N) { return N >= 4096 ? 3e-5 : 1e-5; }

inline const std::vector<std::size_t> uneven_calls = {
    4099, 1, 17, 0, 3001, 256, 7, 12289
};

struct chan_case {
    unsigned N;
    float os;
    std::size_t ntaps;
};

inline std::string describe(const chan_case& c)
{
    return "N=" + std::to_string(c.N) + " os=" + std::to_string(c.os) +
           " ntaps=" + std::to_string(c.ntaps);
}

class pfb_channelizer_test : public ::testing::Test
{
protected:
    void SetUp() override { GPUFILTER_REQUIRE_DEVICE_OR_SKIP(); }
    std::mt19937 rng{ 1234 };
};

} // namespace test
} // namespace gpufilter
} // namespace gr

#endif
