/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/arch_table.h"
#include "fir_tuning.h"
#include <stdexcept>
#include <utility>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {

int fmas_per_tap(fir_types types)
{
    return (types.complex_input ? 2 : 1) * (types.complex_taps ? 2 : 1);
}

/*
 * sm_90 (H100, H200). The figures are from bench_fir on an H200 (docs/kernels.md,
 * docs/benchmarks.md). No other architecture has been measured: every one uses this
 * entry until it has its own.
 */
fir_tuning sm_90(fir_types types)
{
    fir_tuning t;
    // The direct form's rate falls as 1/(taps per kept output). The fused FFT path is
    // faster from about 64 taps per kept output (ccf 64 taps, H200: direct 113.8,
    // FFT 121.1), but its rounding, ~1e-6 of the signal's scale, fails gr-filter's own
    // QA (fir_filter_ccc at 40 taps, freq_xlating_fir_filter_scc) where the direct
    // form passes: the FFT path starts at 512 FMAs per kept output over the FMAs of a
    // tap (512 fff, 256 ccf and fcc, 128 ccc), where the cuFFT path used to cross.
    t.fft_taps_per_output = 512 / fmas_per_tap(types);
    // With few taps per phase at D >= 4, fir_blocked's staging of strided samples costs
    // more than it saves: ccf 16 taps at D = 8, fir_untiled 199.7 GS/s against 133.0;
    // fff 16 taps at D = 8, 350.9 against 197.0; but ccf 32 taps at D = 4, 104.1
    // against 202.8.
    t.untiled_min_decimation = 4;
    t.untiled_max_taps_per_phase = 2;
    // Fewer sub-taps per phase and fir_blocked's per-phase staging and barriers cost
    // more than its register reuse saves (D >= ntaps: one tap per phase).
    t.blocked_min_sub_taps = 4;
    // At D >= 8 the per-phase strided staging caps fir_blocked at about 72 GS/s (ccf);
    // fir_deinterleaved reads the span once: ccf 64 taps at D = 8, 164.6 against 72.5;
    // 1024 taps at D = 16 (64 sub-taps), 78.6 against 53.3. With more sub-taps, and
    // below D = 8, fir_blocked's larger tiles win: 1024 taps at D = 8 (128 sub-taps),
    // 49.2 against 63.5. With the kernel's smaller tiles (below) it wins from D = 5 at
    // up to 64 sub-taps on an H100 (bench_fir --kernel-variants): ccf 64 taps at
    // D = 6, 181.2 against 69.8; fff 256 taps at D = 7, 194.9 against 96.2; ccc 128
    // taps at D = 5, 113.7 against 105.5; at D = 4 and below fir_blocked is as fast or
    // faster from 16 sub-taps (fcc 64 taps at D = 4, 205.9 against 234.4). int16
    // samples keep D = 8: at D = 5 and 6 fir_blocked ran 1-6% faster for them.
    t.deinterleaved_min_decimation = types.integer_input ? 8 : 5;
    t.deinterleaved_max_sub_taps = 64;
    // For D > 1 each phase pass reads every D-th sample of a tile*D span: smaller tiles
    // keep it in L1 for the next phase. 64, 128 and 256 threads measured the same at
    // D >= 8 (bench_fir --kernel-variants). At D = 1, 128 threads beat 256 in every
    // row of two runs on an H100 (16 to 512 taps, ccf, ccc, fff: 1-4%, ccc 16 taps
    // 144.1 and 146.1 GS/s against 143.1 and 140.5); at D = 2 they are within 2%
    // either way.
    t.blocked_threads_d2 = 128;
    t.blocked_threads_d4 = 128;
    t.blocked_threads_more = 64;
    // fir_deinterleaved (outputs_per_thread there), bench_fir --kernel-variants on an
    // H100, GS/s at 8 to 64 sub-taps: 256 threads up to D = 8 (fff 64 taps at D = 8,
    // 268 against 207 for 64 threads before); above D = 8, 128 threads where the
    // samples are complex or the taps real (ccf 256 taps at D = 16, 145 against 84 for
    // 32 threads before; fff 128 taps at D = 32, 176 against 97), 256 for real samples
    // through complex taps (fcc 128 taps at D = 16, 229 against 201 for 128 threads;
    // scc 256 taps at D = 32, 144 against 62 for 32 threads).
    t.deinterleaved_threads_d8 = 256;
    t.deinterleaved_threads_more = !types.complex_input && types.complex_taps ? 256 : 128;
    // Groups small enough for L2 lose to their launches: 1024 taps ran at 5.7 GS/s with
    // 2^17 samples a group, 26.5 with 2^20 and 36.5 with 2^22 (32 MB of segments).
    t.fft_group_samples = 1LL << 22;
    // Overlap at most 1/8 of a segment; 4096 the smallest size worth a cuFFT launch;
    // above 8192 points cuFFT takes more passes. bench_fir --fft-sizes (ccf, D = 1):
    // the best size or within 5% of it at 256 to 16384 taps.
    t.fft_taps_factor = 8;
    t.fft_min_size = 4096;
    t.fft_max_auto_size = 262144;
    // The fused kernel, bench_fir --fft-sizes on an H200 (ccf, GS/s): up to 512 taps
    // N = 2048 is best (122, 118, 109 at 64, 256, 512 taps, against 114, 105, 82 at
    // 1024), then 4096 at 1024 taps (85.6), 8192 at 2048 (75.0), 16384 at 4096 and
    // 8192 (67.3, 50.2): 4 * ntaps from 2048 up.
    t.fused_max_size = 16384;
    t.fused_taps_factor = 4;
    t.fused_min_size = 2048;
    // On an H100 (same run, GS/s, 1024 taps) complex samples run faster at 2048 points
    // than at 4096 (ccf 81.7 against 72.9, ccc 81.1 against 73.0), real ones slower
    // (fff 131.9 against 143.7); the H200 runs ccf at 82 against 85.6. Complex samples
    // take the smallest size that holds the filter up to 1024 taps (4096 taps: 16384
    // points stay best, 62.5 against 53.1 at 8192).
    t.fused_tight_max_taps = types.complex_input || types.complex_taps ? 1024 : 0;
    // Partitioned, on an H100 (bench_fir --partition-sizes 4096,8192
    // --partition-groups 21,22,23, one run, GS/s): 4096 points beat 8192 up to 32768
    // taps (ccf 16384 taps 32.7 against 30.0, fff 57.4 against 49.5) and run 65536
    // taps within 3% of it (ccf 26.0 against 26.8), where cuFFT gives 18.0; 2048 and
    // 16384 points were slower still in an earlier run (ccf 16384 taps 25.3 and 23.0
    // against 27.5 at 4096). Larger groups run faster though they outgrow L2 (ccf
    // 16384 taps 27.2 / 30.2 / 32.7 at 2^21 / 2^22 / 2^23 samples, fff 52.7 / 52.6 /
    // 57.4): 2^23 samples, whose spectra and sums take 268 MB of device memory for
    // complex samples (32 bytes a sample) and 134 MB for real ones (two blocks a
    // transform).
    t.fused_max_partitions = 32;
    t.partition_size = 4096;
    t.partition_group_samples = 1LL << 23;
    // The cluster kernel at 32768 points runs filters of 8193 to 16384 taps (at D = 1)
    // faster than the partitions, on an H100 (one run of bench_fir's cluster rows on a
    // build that also had 4-block clusters, GS/s, partitions / cluster of 2 blocks /
    // of 4 blocks at 65536 points): ccf 8193
    // taps 33.5 / 46.4 / 38.2, 12000 taps 33.0 / 40.3 / 35.5, 16384 taps 32.5 / 34.9 /
    // 33.9; fff 59.4 / 81.6 / 71.6, 58.7 / 69.9 / 59.3, 57.2 / 64.8 / 60.5. Past half
    // a segment new, 4 blocks stay within 2% of the partitions (ccf 20000 taps 32.8
    // against 32.1): the kernel has only the 2-block size.
    t.cluster_size = 32768;
    return t;
}

struct fir_entry {
    int arch;
    fir_tuning (*rules)(fir_types);
};
constexpr fir_entry s_table[] = { { 90, sm_90 } }; // ascending arch (entry_for_arch)

bool is_block_size(int threads)
{
    return threads == 32 || threads == 64 || threads == 128 || threads == 256;
}

} // namespace

fir_tuning fir_tuning_for(int arch, fir_types types)
{
    fir_tuning t = entry_for_arch(s_table, arch).rules(types);
    if (arch < 90) // thread block clusters came with sm_90
        t.cluster_size = 0;
    return t;
}

void check_fir_tuning(const fir_tuning& t)
{
    if (t.block_threads != 0 && !is_block_size(t.block_threads))
        throw std::invalid_argument("block_threads: must be 32, 64, 128 or 256, got " +
                                    std::to_string(t.block_threads));
    const std::pair<const char*, long long> rules[] = {
        { "fft_taps_per_output", t.fft_taps_per_output },
        { "untiled_min_decimation", t.untiled_min_decimation },
        { "untiled_max_taps_per_phase", t.untiled_max_taps_per_phase },
        { "blocked_min_sub_taps", t.blocked_min_sub_taps },
        { "deinterleaved_min_decimation", t.deinterleaved_min_decimation },
        { "deinterleaved_max_sub_taps", t.deinterleaved_max_sub_taps },
        { "fft_group_samples", t.fft_group_samples },
        { "fft_taps_factor", t.fft_taps_factor },
        { "fft_min_size", t.fft_min_size },
        { "fft_max_auto_size", t.fft_max_auto_size },
        { "fused_taps_factor", t.fused_taps_factor },
        { "fused_min_size", t.fused_min_size },
        { "fused_max_partitions", t.fused_max_partitions },
        { "partition_group_samples", t.partition_group_samples },
    };
    for (const auto& [name, value] : rules)
        if (value < 1)
            throw std::invalid_argument(std::string(name) +
                                        ": must be >= 1 (fir_tuning_for sets it), got " +
                                        std::to_string(value));
    const std::pair<const char*, int> threads[] = {
        { "blocked_threads_d2", t.blocked_threads_d2 },
        { "blocked_threads_d4", t.blocked_threads_d4 },
        { "blocked_threads_more", t.blocked_threads_more },
        { "deinterleaved_threads_d8", t.deinterleaved_threads_d8 },
        { "deinterleaved_threads_more", t.deinterleaved_threads_more },
    };
    for (const auto& [name, value] : threads)
        if (!is_block_size(value))
            throw std::invalid_argument(std::string(name) +
                                        ": must be 32, 64, 128 or 256, got " +
                                        std::to_string(value));
    if (t.fused_max_size < 0 || (t.fused_max_size & (t.fused_max_size - 1)) != 0)
        throw std::invalid_argument("fused_max_size: must be 0 or a power of two, got " +
                                    std::to_string(t.fused_max_size));
    if (!fir_partition_size_supported(t.partition_size))
        throw std::invalid_argument("partition_size: must be 4096 or 8192, got " +
                                    std::to_string(t.partition_size));
    if (t.fused_tight_max_taps < 0)
        throw std::invalid_argument("fused_tight_max_taps: must be >= 0, got " +
                                    std::to_string(t.fused_tight_max_taps));
    if ((t.fused_min_size & (t.fused_min_size - 1)) != 0)
        throw std::invalid_argument("fused_min_size: must be a power of two, got " +
                                    std::to_string(t.fused_min_size));
    if (t.cluster_size && !fir_cluster_size_supported(t.cluster_size))
        throw std::invalid_argument("cluster_size: must be 0 or 32768, got " +
                                    std::to_string(t.cluster_size));
    if ((t.fft_min_size & (t.fft_min_size - 1)) != 0)
        throw std::invalid_argument("fft_min_size: must be a power of two, got " +
                                    std::to_string(t.fft_min_size));
}

fir_method fir_method_for(const fir_tuning& t,
                          std::size_t ntaps,
                          int decimation,
                          fir_method requested)
{
    if (requested != fir_method::automatic)
        return requested;
    // The direct form costs ntaps/D multiply-adds per input sample, overlap-save a
    // roughly constant rate: the crossover is in taps per kept output.
    return ntaps >= static_cast<std::size_t>(t.fft_taps_per_output) *
                        static_cast<std::size_t>(decimation)
               ? fir_method::fft
               : fir_method::direct;
}

fir_kernel fir_kernel_for(const fir_tuning& t, int ntaps, int decimation)
{
    if (t.kernel != fir_kernel::automatic)
        return t.kernel;
    const long long T = ntaps;
    const long long D = decimation;
    const long long sub_taps = (T + D - 1) / D; // phase 0's, the most
    if (D >= t.untiled_min_decimation && T <= t.untiled_max_taps_per_phase * D)
        return fir_kernel::untiled;
    if (sub_taps < t.blocked_min_sub_taps)
        return fir_kernel::tiled;
    if (D >= t.deinterleaved_min_decimation && sub_taps <= t.deinterleaved_max_sub_taps)
        return fir_kernel::deinterleaved;
    return fir_kernel::blocked;
}

int fir_block_threads_for(const fir_tuning& t, fir_kernel kernel, int decimation)
{
    if (t.block_threads)
        return t.block_threads;
    if (kernel == fir_kernel::deinterleaved)
        return decimation <= 8 ? t.deinterleaved_threads_d8
                               : t.deinterleaved_threads_more;
    return decimation <= 2   ? t.blocked_threads_d2
           : decimation <= 4 ? t.blocked_threads_d4
                             : t.blocked_threads_more;
}

long long fir_fft_size_for(const fir_tuning& t, int ntaps, int decimation)
{
    const long long needed = 2LL * (ntaps - 1 + decimation); // half a segment new
    if (t.fused_max_size > 0) {
        long long f = t.fused_min_size;
        const long long want = ntaps <= t.fused_tight_max_taps
                                   ? needed
                                   : static_cast<long long>(t.fused_taps_factor) * ntaps;
        while (f < want && f < t.fused_max_size)
            f *= 2;
        if (f <= t.fused_max_size && f >= needed)
            return f;
        if (t.cluster_size > 0 && t.cluster_size >= needed)
            return t.cluster_size;
        const long long half = t.partition_size / 2;
        if ((ntaps + half - 1) / half <= t.fused_max_partitions)
            return t.partition_size; // partitioned
    }
    long long n = t.fft_min_size;
    while (n < static_cast<long long>(t.fft_taps_factor) * ntaps &&
           n < t.fft_max_auto_size)
        n *= 2;
    while (n < needed)
        n *= 2;
    return n;
}

const char* fir_method_name(fir_method m)
{
    switch (m) {
    case fir_method::direct:
        return "direct";
    case fir_method::fft:
        return "fft";
    default:
        return "auto";
    }
}

fir_kernel parse_fir_kernel(const std::string& name)
{
    if (name.empty() || name == "auto")
        return fir_kernel::automatic;
    if (name == "tiled")
        return fir_kernel::tiled;
    if (name == "untiled")
        return fir_kernel::untiled;
    if (name == "blocked")
        return fir_kernel::blocked;
    if (name == "deinterleaved")
        return fir_kernel::deinterleaved;
    throw std::invalid_argument("kernel: must be \"tiled\", \"untiled\", \"blocked\" or "
                                "\"deinterleaved\", got \"" +
                                name + "\"");
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
