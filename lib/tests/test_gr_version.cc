/* SPDX-License-Identifier: GPL-3.0-or-later */
// Which GNU Radio versions get device buffers: from 3.10.2 on (gnuradio#5634 was fixed
// there), read from the strings gr::version() gives for releases and source builds.
#include "core/gr_version.h"
#include <gtest/gtest.h>

namespace gr {
namespace gpufilter {
namespace {

using parts = std::array<int, 3>;

TEST(gr_version, parses_release_and_source_build_strings)
{
    EXPECT_EQ(parse_gr_version("3.10.5.1"), (parts{ 3, 10, 5 }));
    EXPECT_EQ(parse_gr_version("3.10.12.0"), (parts{ 3, 10, 12 }));
    EXPECT_EQ(parse_gr_version("3.10.1"), (parts{ 3, 10, 1 }));
    EXPECT_EQ(parse_gr_version("v3.10.1.0-rc1"), (parts{ 3, 10, 1 }));
    EXPECT_EQ(parse_gr_version("3.11.0.0git-66-g931ae5ff"), (parts{ 3, 11, 0 }));
    EXPECT_EQ(parse_gr_version("3.10.2git"), (parts{ 3, 10, 2 }));
}

TEST(gr_version, rejects_what_is_not_three_numbers)
{
    for (const char* s : { "",
                           "v",
                           "3",
                           "3.10",
                           "3.10.",
                           "3..5",
                           "x3.10.5",
                           "3.10.x",
                           "3.10.5000000",
                           "unknown" })
        EXPECT_FALSE(parse_gr_version(s)) << '"' << s << '"';
}

TEST(gr_version, device_buffers_from_3_10_2)
{
    for (const char* s : { "3.10.0.0",
                           "3.10.1.0",
                           "3.10.1.1",
                           "v3.10.1.0-rc1",
                           "3.9.8.0",
                           "3.8.5.0",
                           "2.99.99" })
        EXPECT_FALSE(device_buffers_supported(s)) << s;
    for (const char* s :
         { "3.10.2.0", "3.10.5.1", "3.10.12.0", "3.11.0.0git-66-g931ae5ff" })
        EXPECT_TRUE(device_buffers_supported(s)) << s;
}

TEST(gr_version, unreadable_strings_keep_device_buffers)
{
    // A 3.10 release too old always names itself; an odd string is a source build.
    EXPECT_TRUE(device_buffers_supported("unknown"));
    EXPECT_TRUE(device_buffers_supported(""));
}

} // namespace
} // namespace gpufilter
} // namespace gr
