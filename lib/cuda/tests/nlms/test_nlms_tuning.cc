/* SPDX-License-Identifier: GPL-3.0-or-later */
// The NLMS tuning table and its rule (nlms_tuning.h). Host code only: runs without a
// GPU. The rule as it stood before the table (choose_nlms_shape, constants and all)
// is written out below: the sm_90 entry, which every architecture uses until another
// is measured, must give exactly its shape for every filter length.

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

nlms_shape former_shape(int ntaps)
{
    const int per8 = (ntaps + 8 - 1) / 8;
    int threads = (per8 + 31) / 32 * 32;
    threads = threads < 32 ? 32 : threads > 1024 ? 1024 : threads;
    const int need = (ntaps + threads - 1) / threads;
    int k = 1;
    while (k < need)
        k *= 2;
    return { threads, k, 256, cuda::nlms_shared_floats(ntaps, 256) * sizeof(float) };
}

TEST(nlms_tuning, shape_as_the_former_rule_for_every_length)
{
    const nlms_tuning t = cuda::nlms_tuning_for(90);
    for (int n = 1; n <= cuda::nlms_max_taps; ++n) {
        const nlms_shape got = cuda::nlms_shape_for(t, n), want = former_shape(n);
        ASSERT_EQ(got.threads, want.threads) << n;
        ASSERT_EQ(got.taps_per_thread, want.taps_per_thread) << n;
        ASSERT_EQ(got.tile, want.tile) << n;
        ASSERT_EQ(got.shared_bytes, want.shared_bytes) << n;
    }
    // One warp up to 256 taps, then a warp more per 256.
    EXPECT_EQ(cuda::nlms_shape_for(t, 256).threads, 32);
    EXPECT_EQ(cuda::nlms_shape_for(t, 256).taps_per_thread, 8);
    EXPECT_EQ(cuda::nlms_shape_for(t, 257).threads, 64);
    EXPECT_EQ(cuda::nlms_shape_for(t, 33).taps_per_thread, 2);
    EXPECT_EQ(cuda::nlms_shape_for(t, 8192).threads, 1024);
}

TEST(nlms_tuning, every_architecture_uses_the_measured_entry)
{
    const nlms_tuning want = cuda::nlms_tuning_for(90);
    for (int arch : { 0, 35, 50, 61, 70, 75, 80, 86, 89, 90, 100, 103, 120 }) {
        const nlms_tuning t = cuda::nlms_tuning_for(arch);
        EXPECT_EQ(t.max_taps_per_thread, want.max_taps_per_thread) << arch;
        EXPECT_EQ(t.tile, want.tile) << arch;
    }
}

TEST(nlms_tuning, the_engine_rejects_a_tuning_it_cannot_use)
{
    EXPECT_NO_THROW(cuda::check_nlms_tuning(cuda::nlms_tuning_for(90)));
    EXPECT_THROW(cuda::check_nlms_tuning(nlms_tuning{}), std::invalid_argument);
    nlms_tuning t = cuda::nlms_tuning_for(90);
    t.max_taps_per_thread = 3;
    EXPECT_THROW(cuda::check_nlms_tuning(t), std::invalid_argument);
    t = cuda::nlms_tuning_for(90);
    t.tile = 0;
    EXPECT_THROW(cuda::check_nlms_tuning(t), std::invalid_argument);
    // Fewer taps a thread: more warps, up to the block's limit.
    t = cuda::nlms_tuning_for(90);
    t.max_taps_per_thread = 4;
    EXPECT_EQ(cuda::nlms_shape_for(t, 256).threads, 64);
    EXPECT_EQ(cuda::nlms_shape_for(t, 8192).taps_per_thread, 8);
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
