/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/arch_table.h"
#include "pfb_tuning.h"
#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {

bool power_of_two_in(int n, int lo, int hi)
{
    return n >= lo && n <= hi && (n & (n - 1)) == 0;
}

/*
 * sm_90 (H100, H200). The figures are from bench_fir on an H100 (docs/kernels.md,
 * docs/benchmarks.md; GS/s of input for the channelizer, of output for the
 * synthesizer). No other architecture has been measured: every one uses this entry
 * until it has its own.
 */
pfb_tuning sm_90()
{
    pfb_tuning t;
    // Channelizer, vector layout, complex input, 8 taps per branch, GS/s of input on
    // an H200 (engine process() on device data): the fused kernel against the two
    // passes at every channel count, 16 to 4096, and oversample rate (os 1: 131-214
    // against 51-56; os 2: 58-124 against 27-29; os 4: 23-56 against 14-16). Up to
    // 1024 channels at R = N it wins at any tap count (the former fused kernel's
    // measurements: 1024 x 64 taps 31 against 22); above them and oversampled it is
    // measured to 8 taps per branch.
    t.fused_max_channels = 1024;
    t.fused_max_taps_per_branch = 8;
    t.fused_oversampled_max_taps_per_branch = 8;
    // Blocks of 4 input rows' steps: 4096 samples at 1024 x os 1 (175 against 143 with
    // 8192), 8192 at 2048 (147 against 142) and at 1024 x os 2 (85 against 79), 16384
    // at 4096 (130 against 126 and 104) and 2048 x os 2 (72 against 67); 4096 at
    // 4096 x os 4 (pfb_fused_block).
    t.fused_block_input_rows = 4;
    // Synthesizer, fused gather + inverse FFT against the gather kernel and cuFFT: 49.0
    // against 46.1 at 16 points, 28.8 against 25.0 at 32 (2x), but 38.9 against 46.9
    // at 256 and 33.4 against 46.4 at 1024: a 4096-sample block then holds 16 steps or
    // fewer, and cuFFT's transform beats the in-block passes.
    t.synth_fused_max_fft = 32;
    // The one-pass kernel where it fits: 2.3 to 3.1 times the rows path at 16 and 32
    // points, 1.8 times at 256, 1.06 times at 512 (2x). At 1024 points 8 taps per
    // branch need four regions a block (37.0 against 47.6 on the rows path); up to 5
    // taps two regions fit, not timed: the rows path stays there.
    t.synth_one_pass_max_fft = 512;
    // One region a block where the halo is at most 1/8 of its rows: within 2.5% of two
    // regions there (16 points, 8 taps: 151.3 against 149.6), and two where it is more
    // (256 points, 8 taps: 86.0 against 61.0). Four regions, one block an SM, were
    // slower than two at every size.
    t.synth_one_region_halo_ratio = 8;
    // Arbitrary resampler, 32 filters, ccf (GS/s of input): at rate 0.75, 4 outputs a
    // thread 67.2 against 58.8 with 2 and 61.2 with 8; at rate 2.3421, 2 a thread 25.3
    // against 20.3 with 4: above rate 1 a thread's outputs sit on few inputs, and more
    // of them add arms to load.
    t.arb_outputs_per_thread_down = 4;
    t.arb_outputs_per_thread_up = 2;
    // 2^21 complex (16 MB) a chunk of rows: enough work per launch to fill the GPU at
    // any channel count.
    t.chunk_samples = 1LL << 21;
    return t;
}

struct pfb_entry {
    int arch;
    pfb_tuning (*rules)();
};
constexpr pfb_entry s_table[] = { { 90, sm_90 } }; // ascending arch (entry_for_arch)

} // namespace

pfb_tuning pfb_tuning_for(int arch) { return entry_for_arch(s_table, arch).rules(); }

void check_pfb_tuning(const pfb_tuning& t)
{
    if (t.synth_regions < 0 || t.synth_regions > 2)
        throw std::invalid_argument("synth_regions: must be 0, 1 or 2, got " +
                                    std::to_string(t.synth_regions));
    const std::pair<const char*, long long> rules[] = {
        { "fused_max_channels", t.fused_max_channels },
        { "fused_max_taps_per_branch", t.fused_max_taps_per_branch },
        { "fused_oversampled_max_taps_per_branch",
          t.fused_oversampled_max_taps_per_branch },
        { "fused_block_input_rows", t.fused_block_input_rows },
        { "synth_fused_max_fft", t.synth_fused_max_fft },
        { "synth_one_pass_max_fft", t.synth_one_pass_max_fft },
        { "synth_one_region_halo_ratio", t.synth_one_region_halo_ratio },
        { "chunk_samples", t.chunk_samples },
    };
    for (const auto& [name, value] : rules)
        if (value < 1)
            throw std::invalid_argument(std::string(name) +
                                        ": must be >= 1 (pfb_tuning_for sets it), got " +
                                        std::to_string(value));
    if (t.fused_block_samples != 0 &&
        !power_of_two_in(t.fused_block_samples, pfb_block_samples, 4 * pfb_block_samples))
        throw std::invalid_argument("fused_block_samples: must be 0, 4096, 8192 or "
                                    "16384, got " +
                                    std::to_string(t.fused_block_samples));
    const std::pair<const char*, int> outputs[] = {
        { "arb_outputs_per_thread_down", t.arb_outputs_per_thread_down },
        { "arb_outputs_per_thread_up", t.arb_outputs_per_thread_up },
    };
    for (const auto& [name, value] : outputs)
        if (!power_of_two_in(value, 1, 8))
            throw std::invalid_argument(std::string(name) +
                                        ": must be 1, 2, 4 or 8, got " +
                                        std::to_string(value));
}

bool pfb_fused_supported(int N) { return power_of_two_in(N, 2, pfb_block_samples); }

bool pfb_fused_for(const pfb_tuning& t, int N, int R, int T)
{
    if (!pfb_fused_supported(N))
        return false;
    switch (t.path) {
    case pfb_path::fused:
        return true;
    case pfb_path::two_pass:
        return false;
    case pfb_path::automatic:
        break;
    }
    if (R < N)
        return T <= t.fused_oversampled_max_taps_per_branch;
    return N <= t.fused_max_channels || T <= t.fused_max_taps_per_branch;
}

int pfb_fused_block(const pfb_tuning& t, int N, int R)
{
    if (N < 512)
        return pfb_block_samples;
    if (t.fused_block_samples)
        return std::max(N, t.fused_block_samples);
    const long long steps =
        (static_cast<long long>(t.fused_block_input_rows) * N + R - 1) / R;
    int e = pfb_block_samples;
    while (e < steps * N && e < 4 * pfb_block_samples)
        e *= 2;
    // Where even the largest block holds under half of those rows (4096 channels at
    // os 4 and up: one row), its steps share little input, and the smallest block,
    // more of them a multiprocessor, is faster (4096 channels, os 4: 28.2 against 21.2
    // GS/s on an H100, 28.4 against 23.2 on an H200).
    const long long rows_held = static_cast<long long>(e / N) * R / N;
    if (2 * rows_held < t.fused_block_input_rows)
        return std::max(N, pfb_block_samples);
    return std::max(N, e);
}

std::size_t pfb_chunk_rows(const pfb_tuning& t, int N)
{
    std::size_t rows = 1;
    while (static_cast<long long>(rows * 2 * N) <= t.chunk_samples)
        rows *= 2;
    return rows;
}

bool synth_fused_for(const pfb_tuning& t, int P)
{
    if (!pfb_fused_supported(P) || P > synth_block_max_fft)
        return false;
    return t.path == pfb_path::fused ||
           (t.path == pfb_path::automatic && P <= t.synth_fused_max_fft);
}

bool synth_one_pass_supported(int P)
{
    return power_of_two_in(P, 2, synth_block_max_fft);
}

bool synth_one_pass_for(const pfb_tuning& t, int P)
{
    return synth_one_pass_supported(P) &&
           (t.synth == synth_path::one_pass ||
            (t.synth == synth_path::automatic && P <= t.synth_one_pass_max_fft));
}

int synth_one_pass_regions(const pfb_tuning& t, int P, int T)
{
    const int regions = t.synth_regions;
    if (!synth_one_pass_supported(P) || T < 1 || regions < 0 || regions > 2)
        return 0;
    const int rows = pfb_block_samples / P;
    const auto fits = [&](int g) { return 2 * (T - 1) <= g * rows; };
    if (regions > 0)
        return fits(regions) ? regions : 0;
    if (t.synth_one_region_halo_ratio * (T - 1) <= rows)
        return 1;
    return fits(2) ? 2 : 0;
}

int arb_outputs_per_thread_for(const pfb_tuning& t, unsigned int_rate, unsigned dec_rate)
{
    return int_rate >= dec_rate ? t.arb_outputs_per_thread_up
                                : t.arb_outputs_per_thread_down;
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
