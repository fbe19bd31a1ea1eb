/* SPDX-License-Identifier: GPL-3.0-or-later */
// The polyphase tuning table and rules (pfb_tuning.h). Host code only: runs without a
// GPU. The rules as they stood before the table, constants and all, are written out
// below (the former_* functions; the channelizer's as last measured): the sm_90
// entry, which every architecture uses until another is measured, must give exactly
// their answers for every shape.

#include "pfb/pfb_tuning.h"
#include <gtest/gtest.h>
#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {
namespace test {
namespace {

using cuda::pfb_path;
using cuda::pfb_tuning;
using cuda::synth_path;

bool former_supported(int N) { return N >= 2 && N <= 4096 && (N & (N - 1)) == 0; }

// The channelizer's rule of the sm_90 entry, as measured with the block-FFT fused
// kernel (pfb_tuning.cc): at R = N up to 1024 channels at any taps per branch, above
// them up to fused_taps; at R < N up to fused_os_taps taps per branch.
constexpr int fused_taps = 8;
constexpr int fused_os_taps = 8;
bool channelizer_rule(int N, int R, int T)
{
    return former_supported(N) &&
           (R == N ? (N <= 1024 || T <= fused_taps) : T <= fused_os_taps);
}
bool bank_fused(pfb_path path, int N, int R, int T)
{
    return former_supported(N) &&
           (path == pfb_path::fused ||
            (path == pfb_path::automatic && channelizer_rule(N, R, T)));
}

// The synthesizer's constructor.
bool former_synth_fused(pfb_path path, int P)
{
    return former_supported(P) && P <= 1024 &&
           (path == pfb_path::fused || (path == pfb_path::automatic && P <= 32));
}
int former_regions(int P, int T, int regions = 0)
{
    if (P < 2 || P > 1024 || (P & (P - 1)) != 0 || T < 1 || regions < 0 || regions > 2)
        return 0;
    const int rows = 4096 / P;
    const auto fits = [&](int g) { return 2 * (T - 1) <= g * rows; };
    if (regions > 0)
        return fits(regions) ? regions : 0;
    if (8 * (T - 1) <= rows)
        return 1;
    return fits(2) ? 2 : 0;
}
bool former_one_pass_wanted(synth_path synth, int P)
{
    return (synth == synth_path::one_pass ||
            (synth == synth_path::automatic && P <= 512)) &&
           former_regions(P, 1) > 0;
}

// polyphase_bank's and the synthesizer's rows per chunk: 2^21 samples.
std::size_t former_chunk_rows(int N)
{
    std::size_t rows = 1;
    while (rows * 2 * N <= (std::size_t(1) << 21))
        rows *= 2;
    return rows;
}

// The arbitrary resampler's outputs per thread.
int former_arb(unsigned int_rate, unsigned dec_rate)
{
    return int_rate >= dec_rate ? 2 : 4;
}

const pfb_path paths[] = { pfb_path::automatic, pfb_path::two_pass, pfb_path::fused };
const synth_path synths[] = { synth_path::automatic,
                              synth_path::rows,
                              synth_path::one_pass };

pfb_tuning with(pfb_path path, synth_path synth = synth_path::automatic, int regions = 0)
{
    pfb_tuning t = cuda::pfb_tuning_for(90);
    t.path = path;
    t.synth = synth;
    t.synth_regions = regions;
    return t;
}

TEST(pfb_tuning, channelizer_path_as_measured)
{
    for (const pfb_path path : paths) {
        const pfb_tuning t = with(path);
        for (int N = 1; N <= 8200; ++N)
            for (const int R : { N, N / 2, N - 1, 1 })
                for (const int T : { 1, 2, 3, 4, 5, 6, 8, 9, 16, 64, 1000 }) {
                    if (R < 1)
                        continue;
                    ASSERT_EQ(cuda::pfb_fused_for(t, N, R, T), bank_fused(path, N, R, T))
                        << "N=" << N << " R=" << R << " T=" << T;
                }
    }
    const pfb_tuning t = with(pfb_path::automatic);
    EXPECT_TRUE(cuda::pfb_fused_for(t, 1024, 1024, 1000));
    EXPECT_FALSE(cuda::pfb_fused_for(t, 36, 36, 1)); // not a power of two
    EXPECT_FALSE(cuda::pfb_fused_for(with(pfb_path::fused), 8192, 8192, 1));
    EXPECT_TRUE(cuda::pfb_fused_for(with(pfb_path::fused), 4096, 1024, 64));
}

TEST(pfb_tuning, fused_block_sizes)
{
    // The rule: 4 input rows' steps, rounded up to 4096, 8192 or 16384 samples.
    const pfb_tuning t = with(pfb_path::automatic);
    for (int N = 2; N < 512; N *= 2)
        for (const int R : { N, N / 2 ? N / 2 : 1, 1 })
            EXPECT_EQ(cuda::pfb_fused_block(t, N, R), 4096) << N << " " << R;
    EXPECT_EQ(cuda::pfb_fused_block(t, 512, 512), 4096);
    EXPECT_EQ(cuda::pfb_fused_block(t, 512, 256), 4096);
    EXPECT_EQ(cuda::pfb_fused_block(t, 1024, 1024), 4096);
    EXPECT_EQ(cuda::pfb_fused_block(t, 1024, 512), 8192);
    EXPECT_EQ(cuda::pfb_fused_block(t, 1024, 256), 16384);
    EXPECT_EQ(cuda::pfb_fused_block(t, 1024, 768), 8192); // 6 steps
    EXPECT_EQ(cuda::pfb_fused_block(t, 2048, 2048), 8192);
    EXPECT_EQ(cuda::pfb_fused_block(t, 2048, 1024), 16384);
    EXPECT_EQ(cuda::pfb_fused_block(t, 4096, 4096), 16384);
    EXPECT_EQ(cuda::pfb_fused_block(t, 4096, 2048), 16384); // 2 rows of 4
    EXPECT_EQ(cuda::pfb_fused_block(t, 4096, 1024), 4096);  // 1 row: one step a block
    EXPECT_EQ(cuda::pfb_fused_block(t, 2048, 512), 16384);  // 2 rows
    EXPECT_EQ(cuda::pfb_fused_block(t, 2048, 256), 4096);   // 1 row
    EXPECT_EQ(cuda::pfb_fused_block(t, 512, 1), 4096);      // os 512: no row
    // Forced: that many samples, at least N, from 512 channels up.
    pfb_tuning f = t;
    for (const int e : { 4096, 8192, 16384 }) {
        f.fused_block_samples = e;
        for (int N = 2; N <= 4096; N *= 2)
            EXPECT_EQ(cuda::pfb_fused_block(f, N, N / 2 ? N / 2 : 1),
                      N < 512 ? 4096 : std::max(N, e));
    }
}

TEST(pfb_tuning, synthesizer_kernels_as_the_former_rules)
{
    for (const pfb_path path : paths)
        for (int P = 0; P <= 5000; ++P)
            ASSERT_EQ(cuda::synth_fused_for(with(path), P), former_synth_fused(path, P))
                << "P=" << P;
    for (const synth_path synth : synths)
        for (int P = 0; P <= 5000; ++P)
            ASSERT_EQ(cuda::synth_one_pass_for(with(pfb_path::automatic, synth), P),
                      former_one_pass_wanted(synth, P))
                << "P=" << P;
    for (int regions = 0; regions <= 2; ++regions) {
        const pfb_tuning t = with(pfb_path::automatic, synth_path::automatic, regions);
        for (int P = 0; P <= 2100; ++P)
            for (int T = 0; T <= 4200; T += (T < 300 ? 1 : 13))
                ASSERT_EQ(cuda::synth_one_pass_regions(t, P, T),
                          former_regions(P, T, regions))
                    << "P=" << P << " T=" << T << " regions=" << regions;
    }
    // The crossovers (docs/kernels.md).
    const pfb_tuning t = with(pfb_path::automatic);
    EXPECT_TRUE(cuda::synth_fused_for(t, 32));
    EXPECT_FALSE(cuda::synth_fused_for(t, 64));
    EXPECT_TRUE(cuda::synth_one_pass_for(t, 512));
    EXPECT_FALSE(cuda::synth_one_pass_for(t, 1024));
    EXPECT_EQ(cuda::synth_one_pass_regions(t, 16, 33), 1); // 8 * 32 <= 256 rows
    EXPECT_EQ(cuda::synth_one_pass_regions(t, 16, 34), 2);
    EXPECT_EQ(cuda::synth_one_pass_regions(t, 32, 17), 1);
    EXPECT_EQ(cuda::synth_one_pass_regions(t, 32, 18), 2);
    EXPECT_EQ(cuda::synth_one_pass_regions(t, 1024, 5), 2); // halo 4 of 8 rows
    EXPECT_EQ(cuda::synth_one_pass_regions(t, 1024, 6), 0);
}

TEST(pfb_tuning, chunks_and_resampler_outputs_as_before)
{
    const pfb_tuning t = cuda::pfb_tuning_for(90);
    for (int N = 1; N <= 70000; ++N)
        ASSERT_EQ(cuda::pfb_chunk_rows(t, N), former_chunk_rows(N)) << "N=" << N;
    EXPECT_EQ(cuda::pfb_chunk_rows(t, 256), 8192u);
    for (unsigned int_rate = 1; int_rate <= 64; ++int_rate)
        for (unsigned dec_rate = 0; dec_rate <= 300; ++dec_rate)
            ASSERT_EQ(cuda::arb_outputs_per_thread_for(t, int_rate, dec_rate),
                      former_arb(int_rate, dec_rate))
                << int_rate << " " << dec_rate;
    EXPECT_EQ(cuda::arb_outputs_per_thread_for(t, 32, 42), 4); // rate 0.75
    EXPECT_EQ(cuda::arb_outputs_per_thread_for(t, 32, 13), 2); // rate 2.3421
}

TEST(pfb_tuning, every_architecture_uses_the_measured_entry)
{
    const pfb_tuning want = cuda::pfb_tuning_for(90);
    for (int arch : { 0, 35, 50, 61, 70, 75, 80, 86, 89, 90, 100, 103, 120 }) {
        const pfb_tuning t = cuda::pfb_tuning_for(arch);
        EXPECT_EQ(t.path, pfb_path::automatic) << arch;
        EXPECT_EQ(t.synth, synth_path::automatic) << arch;
        EXPECT_EQ(t.synth_regions, 0) << arch;
        EXPECT_EQ(t.fused_max_channels, want.fused_max_channels) << arch;
        EXPECT_EQ(t.fused_max_taps_per_branch, want.fused_max_taps_per_branch) << arch;
        EXPECT_EQ(t.fused_oversampled_max_taps_per_branch,
                  want.fused_oversampled_max_taps_per_branch)
            << arch;
        EXPECT_EQ(t.fused_block_samples, 0) << arch;
        EXPECT_EQ(t.fused_block_input_rows, want.fused_block_input_rows) << arch;
        EXPECT_EQ(t.synth_fused_max_fft, want.synth_fused_max_fft) << arch;
        EXPECT_EQ(t.synth_one_pass_max_fft, want.synth_one_pass_max_fft) << arch;
        EXPECT_EQ(t.synth_one_region_halo_ratio, want.synth_one_region_halo_ratio);
        EXPECT_EQ(t.arb_outputs_per_thread_down, want.arb_outputs_per_thread_down);
        EXPECT_EQ(t.arb_outputs_per_thread_up, want.arb_outputs_per_thread_up) << arch;
        EXPECT_EQ(t.chunk_samples, want.chunk_samples) << arch;
    }
}

TEST(pfb_tuning, engines_reject_a_tuning_they_cannot_use)
{
    EXPECT_NO_THROW(cuda::check_pfb_tuning(cuda::pfb_tuning_for(90)));
    const auto message = [](const pfb_tuning& t) {
        try {
            cuda::check_pfb_tuning(t);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_NE(message(pfb_tuning{}).find("fused_max_channels"), std::string::npos);
    pfb_tuning t = cuda::pfb_tuning_for(90);
    t.synth_regions = 3;
    EXPECT_NE(message(t).find("synth_regions"), std::string::npos);
    t = cuda::pfb_tuning_for(90);
    t.arb_outputs_per_thread_up = 3;
    EXPECT_NE(message(t).find("arb_outputs_per_thread_up"), std::string::npos);
    t = cuda::pfb_tuning_for(90);
    t.fused_block_samples = 2048;
    EXPECT_NE(message(t).find("fused_block_samples"), std::string::npos);
    t = cuda::pfb_tuning_for(90);
    t.fused_block_input_rows = 0;
    EXPECT_NE(message(t).find("fused_block_input_rows"), std::string::npos);
    t = cuda::pfb_tuning_for(90);
    t.fused_oversampled_max_taps_per_branch = 0;
    EXPECT_NE(message(t).find("fused_oversampled_max_taps_per_branch"),
              std::string::npos);
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
