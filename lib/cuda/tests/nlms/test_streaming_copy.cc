/* SPDX-License-Identifier: GPL-3.0-or-later */
// The batch pipeline's host copy (streaming_copy.h): the bytes memcpy would copy,
// whatever the alignment of either side and the length, and nothing outside them.
// Host code only: runs without a GPU.

#include "nlms/streaming_copy.h"
#include <gtest/gtest.h>
#include <algorithm>
#include <cstdint>
#include <vector>

namespace gr {
namespace gpufilter {
namespace test {
namespace {

TEST(streaming_copy, copies_every_alignment_and_length)
{
    // Lengths around the 16-byte head and the 64-byte loop, and a row of the batch's
    // chunks (4096 bytes) with a tail; every offset of source and target within 16.
    std::vector<unsigned char> src(5000), dst(5200);
    for (std::size_t i = 0; i < src.size(); ++i)
        src[i] = static_cast<unsigned char>((i * 131 + 7) % 251 + 1);
    const std::size_t lengths[] = { 0,  1,  15,  16,  17,  63,  64,   65,
                                    79, 80, 127, 128, 129, 200, 4096, 4099 };
    for (std::size_t n : lengths)
        for (std::size_t from = 0; from < 16; ++from)
            for (std::size_t to = 0; to < 16; ++to) {
                std::fill(dst.begin(), dst.end(), 0);
                cuda::streaming_copy(dst.data() + to, src.data() + from, n);
                cuda::streaming_copy_fence();
                for (std::size_t i = 0; i < dst.size(); ++i) {
                    const bool inside = i >= to && i < to + n;
                    const unsigned char want = inside ? src[i - to + from] : 0;
                    ASSERT_EQ(dst[i], want) << "n " << n << ", source offset " << from
                                            << ", target offset " << to << ", byte " << i;
                }
            }
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
