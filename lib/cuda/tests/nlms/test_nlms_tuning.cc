/* SPDX-License-Identifier: GPL-3.0-or-later */
// The NLMS tuning table and its rule (nlms_tuning.h). Host code only: runs without a
// GPU.

#include "nlms/nlms_tuning.h"
#include <gtest/gtest.h>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {
namespace test {
namespace {

using cuda::nlms_shape;
using cuda::nlms_tuning;

TEST(nlms_tuning, shapes_of_few_and_many_filters)
{
    const nlms_tuning t = cuda::nlms_tuning_for(90);
    struct want {
        int ntaps, nfilters, threads, k;
    };
    // 132 multiprocessors (an H100 SXM): up to 132 filters are "few", and their
    // blocks have at least four warps (one for each chain of the serial part).
    const want cases[] = {
        { 1, 1, 128, 4 },        { 128, 1, 128, 4 },     { 129, 1, 128, 4 },
        { 600, 1, 160, 4 },      { 16, 132, 128, 4 },    { 16, 133, 32, 4 },
        { 2048, 1, 512, 4 },     { 2049, 1, 288, 8 },    { 4096, 16, 512, 8 },
        { 4096, 132, 512, 8 },   { 4096, 133, 256, 16 }, { 4096, 1024, 256, 16 },
        { 1024, 1024, 256, 4 },  { 1025, 1024, 160, 8 }, { 8192, 1, 512, 16 },
        { 8192, 1024, 512, 16 }, { 6000, 1, 384, 16 },
    };
    for (const auto& c : cases) {
        const nlms_shape s = cuda::nlms_shape_for(t, c.ntaps, c.nfilters, 132);
        EXPECT_EQ(s.threads, c.threads) << c.ntaps << " x " << c.nfilters;
        EXPECT_EQ(s.taps_per_thread, c.k) << c.ntaps << " x " << c.nfilters;
        EXPECT_EQ(s.history, c.threads * c.k) << c.ntaps << " x " << c.nfilters;
        EXPECT_EQ(s.tile, t.tile);
    }
}

TEST(nlms_tuning, every_architecture_uses_the_measured_entry)
{
    const nlms_tuning want = cuda::nlms_tuning_for(90);
    for (int arch : { 0, 35, 50, 61, 70, 75, 80, 86, 89, 90, 100, 103, 120 }) {
        const nlms_tuning t = cuda::nlms_tuning_for(arch);
        EXPECT_EQ(t.threads_few, want.threads_few) << arch;
        EXPECT_EQ(t.threads_many, want.threads_many) << arch;
        EXPECT_EQ(t.tile, want.tile) << arch;
    }
}

TEST(nlms_tuning, the_engine_rejects_a_tuning_it_cannot_use)
{
    EXPECT_NO_THROW(cuda::check_nlms_tuning(cuda::nlms_tuning_for(90)));
    EXPECT_THROW(cuda::check_nlms_tuning(nlms_tuning{}), std::invalid_argument);
    nlms_tuning t = cuda::nlms_tuning_for(90);
    t.threads_few = 48;
    EXPECT_THROW(cuda::check_nlms_tuning(t), std::invalid_argument);
    t = cuda::nlms_tuning_for(90);
    t.threads_many = 1024;
    EXPECT_THROW(cuda::check_nlms_tuning(t), std::invalid_argument);
    t = cuda::nlms_tuning_for(90);
    t.tile = 0;
    EXPECT_THROW(cuda::check_nlms_tuning(t), std::invalid_argument);
    t.tile = 100; // not a whole number of steps
    EXPECT_THROW(cuda::check_nlms_tuning(t), std::invalid_argument);
    // A smaller target: more taps a thread, up to 16.
    t = cuda::nlms_tuning_for(90);
    t.threads_few = 128;
    EXPECT_EQ(cuda::nlms_shape_for(t, 1024).taps_per_thread, 8);
    EXPECT_EQ(cuda::nlms_shape_for(t, 1024).threads, 128);
    EXPECT_EQ(cuda::nlms_shape_for(t, 8192).threads, 512);
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
