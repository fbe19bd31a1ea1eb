/* SPDX-License-Identifier: GPL-3.0-or-later */
// The FIR tuning table and rules (fir_tuning.h). Host code only: runs without a GPU.
// The rules as they stood before the table, constants and all, are written out below
// (the former_* functions): the sm_90 entry, which every architecture uses until
// another is measured, must give exactly their answers for every shape.

#include "common/sample_types.h"
#include "fir/fir_tuning.h"
#include <gtest/gtest.h>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {
namespace test {
namespace {

using cuda::complex;
using cuda::fir_kernel;
using cuda::fir_method;
using cuda::fir_tuning;
using cuda::fir_types;

const fir_types fff{ false, false }, ccf{ true, false }, ccc{ true, true },
    fcc{ false, true }, scc{ false, true, true };

// choose_fir_method: the FFT path from 512 / (FMAs per tap) taps per kept output.
fir_method documented_method(fir_types t, std::size_t ntaps, int decimation)
{
    const std::size_t fmas_per_tap = (t.complex_input ? 2 : 1) * (t.complex_taps ? 2 : 1);
    const std::size_t crossover_taps_per_output = 512 / fmas_per_tap;
    return ntaps >= crossover_taps_per_output * static_cast<std::size_t>(decimation)
               ? fir_method::fft
               : fir_method::direct;
}

// The automatic kernel of docs/kernels.md: untiled for T <= 2D at D >= 4, tiled
// under 4 sub-taps, deinterleaved from D = 5 (int16 samples: 8) up to 64 sub-taps,
// else blocked.
fir_kernel documented_kernel(fir_types types, int T, int D)
{
    const long long sub_taps = (T + static_cast<long long>(D) - 1) / D;
    if (D >= 4 && T <= 2 * D)
        return fir_kernel::untiled;
    if (sub_taps < 4)
        return fir_kernel::tiled;
    if (D >= (types.integer_input ? 8 : 5) && sub_taps <= 64)
        return fir_kernel::deinterleaved;
    return fir_kernel::blocked;
}

// The block sizes of the sm_90 rule: blocked 128 threads up to D = 4, 64 above;
// deinterleaved 256 up to D = 8, above 128 (real samples through complex taps: 256).
int expected_threads(fir_types types, fir_kernel k, int D)
{
    if (k == fir_kernel::deinterleaved)
        return D <= 8 || (!types.complex_input && types.complex_taps) ? 256 : 128;
    return D <= 4 ? 128 : 64;
}

// fft_fir_engine::default_fft_size before its upper limit.
long long former_fft_size(int ntaps, int decimation)
{
    long long n = 4096;
    while (n < 8LL * ntaps && n < 262144)
        n *= 2;
    while (n < 2LL * (ntaps - 1 + decimation))
        n *= 2;
    return n;
}

const char* name(fir_kernel k)
{
    switch (k) {
    case fir_kernel::tiled:
        return "tiled";
    case fir_kernel::untiled:
        return "untiled";
    case fir_kernel::blocked:
        return "blocked";
    case fir_kernel::deinterleaved:
        return "deinterleaved";
    default:
        return "automatic";
    }
}

TEST(fir_tuning, crossover_to_the_fft_path_at_the_measured_taps_per_output)
{
    EXPECT_EQ(cuda::fir_tuning_for(90, fff).fft_taps_per_output, 512);
    EXPECT_EQ(cuda::fir_tuning_for(90, ccf).fft_taps_per_output, 256);
    EXPECT_EQ(cuda::fir_tuning_for(90, fcc).fft_taps_per_output, 256);
    EXPECT_EQ(cuda::fir_tuning_for(90, ccc).fft_taps_per_output, 128);
    // The engines' types, as they key the table (int16 input is real).
    EXPECT_EQ((cuda::fir_tuning_for_device<std::int16_t, complex>().fft_taps_per_output),
              256);
    const fir_tuning t = cuda::fir_tuning_for(90, ccf);
    const auto automatic = fir_method::automatic;
    EXPECT_EQ(cuda::fir_method_for(t, 255, 1, automatic), fir_method::direct);
    EXPECT_EQ(cuda::fir_method_for(t, 256, 1, automatic), fir_method::fft);
    EXPECT_EQ(cuda::fir_method_for(t, 2047, 8, automatic), fir_method::direct);
    EXPECT_EQ(cuda::fir_method_for(t, 2048, 8, automatic), fir_method::fft);
    // A method asked for is the method.
    EXPECT_EQ(cuda::fir_method_for(t, 100000, 1, fir_method::direct), fir_method::direct);
    EXPECT_EQ(cuda::fir_method_for(t, 1, 1, fir_method::fft), fir_method::fft);
    for (const fir_types types : { fff, ccf, ccc, fcc }) {
        const fir_tuning u = cuda::fir_tuning_for(90, types);
        for (int D = 1; D <= 70; ++D)
            for (std::size_t ntaps = 1; ntaps <= 40000; ntaps += 1 + ntaps / 64)
                ASSERT_EQ(cuda::fir_method_for(u, ntaps, D, automatic),
                          documented_method(types, ntaps, D))
                    << "ntaps=" << ntaps << " D=" << D;
        // Exactly at and below each crossover.
        for (int D : { 1, 2, 3, 7, 8, 1000 }) {
            const std::size_t at = std::size_t(u.fft_taps_per_output) * D;
            EXPECT_EQ(cuda::fir_method_for(u, at, D, automatic),
                      documented_method(types, at, D));
            EXPECT_EQ(cuda::fir_method_for(u, at - 1, D, automatic),
                      documented_method(types, at - 1, D));
        }
    }
}

TEST(fir_tuning, direct_kernel_as_documented_for_every_shape)
{
    for (const fir_types types : { fff, ccf, ccc, fcc, scc }) {
        const fir_tuning u = cuda::fir_tuning_for(90, types);
        for (int D = 1; D <= 130; ++D)
            for (int T = 1; T <= 9000; T += (T < 600 ? 1 : 7))
                ASSERT_EQ(cuda::fir_kernel_for(u, T, D), documented_kernel(types, T, D))
                    << "T=" << T << " D=" << D << ": "
                    << name(cuda::fir_kernel_for(u, T, D));
        for (int D : { 1000, 4096, 100000, 1 << 29 })
            for (int T : { 1, 4000, 4001, 1 << 20, 1 << 30 })
                ASSERT_EQ(cuda::fir_kernel_for(u, T, D), documented_kernel(types, T, D))
                    << "T=" << T << " D=" << D;
    }
    const fir_tuning t = cuda::fir_tuning_for(90, ccf);

    // The crossovers themselves (docs/kernels.md).
    EXPECT_EQ(cuda::fir_kernel_for(t, 8, 4), fir_kernel::untiled);  // T <= 2D at D >= 4
    EXPECT_EQ(cuda::fir_kernel_for(t, 9, 4), fir_kernel::tiled);    // 3 sub-taps
    EXPECT_EQ(cuda::fir_kernel_for(t, 13, 4), fir_kernel::blocked); // 4 sub-taps, D < 5
    EXPECT_EQ(cuda::fir_kernel_for(t, 6, 3), fir_kernel::tiled);    // D < 4: no untiled
    EXPECT_EQ(cuda::fir_kernel_for(t, 10, 3), fir_kernel::blocked);
    EXPECT_EQ(cuda::fir_kernel_for(t, 16, 8), fir_kernel::untiled);
    EXPECT_EQ(cuda::fir_kernel_for(t, 17, 8), fir_kernel::tiled);
    EXPECT_EQ(cuda::fir_kernel_for(t, 25, 8), fir_kernel::deinterleaved);
    EXPECT_EQ(cuda::fir_kernel_for(t, 512, 8), fir_kernel::deinterleaved); // 64 sub-taps
    EXPECT_EQ(cuda::fir_kernel_for(t, 513, 8), fir_kernel::blocked);       // 65
    EXPECT_EQ(cuda::fir_kernel_for(t, 256, 4), fir_kernel::blocked);
    EXPECT_EQ(cuda::fir_kernel_for(t, 256, 5), fir_kernel::deinterleaved); // 52
    EXPECT_EQ(cuda::fir_kernel_for(t, 449, 7), fir_kernel::blocked);       // 65
    const fir_tuning int16 = cuda::fir_tuning_for(90, scc);
    EXPECT_EQ(cuda::fir_kernel_for(int16, 256, 7), fir_kernel::blocked);
    EXPECT_EQ(cuda::fir_kernel_for(int16, 256, 8), fir_kernel::deinterleaved);
    EXPECT_EQ(cuda::fir_kernel_for(t, 1, 1), fir_kernel::tiled);
    EXPECT_EQ(cuda::fir_kernel_for(t, 4, 1), fir_kernel::blocked);

    // A forced kernel is the kernel, for every shape.
    for (const fir_kernel k : { fir_kernel::tiled,
                                fir_kernel::untiled,
                                fir_kernel::blocked,
                                fir_kernel::deinterleaved }) {
        fir_tuning forced = t;
        forced.kernel = k;
        for (int D : { 1, 4, 8, 64 })
            for (int T : { 1, 16, 513, 20000 })
                EXPECT_EQ(cuda::fir_kernel_for(forced, T, D), k) << name(k);
    }
}

TEST(fir_tuning, block_sizes_by_decimation)
{
    for (const fir_types types : { fff, ccf, ccc, fcc, scc }) {
        const fir_tuning u = cuda::fir_tuning_for(90, types);
        for (int D = 1; D <= 100; ++D)
            for (const fir_kernel k : { fir_kernel::blocked, fir_kernel::deinterleaved })
                ASSERT_EQ(cuda::fir_block_threads_for(u, k, D),
                          expected_threads(types, k, D))
                    << name(k) << " D=" << D;
    }
    fir_tuning t = cuda::fir_tuning_for(90, fff);
    EXPECT_EQ(cuda::fir_block_threads_for(t, fir_kernel::blocked, 1), 128);
    EXPECT_EQ(cuda::fir_block_threads_for(t, fir_kernel::blocked, 2), 128);
    EXPECT_EQ(cuda::fir_block_threads_for(t, fir_kernel::blocked, 3), 128);
    EXPECT_EQ(cuda::fir_block_threads_for(t, fir_kernel::blocked, 5), 64);
    EXPECT_EQ(cuda::fir_block_threads_for(t, fir_kernel::deinterleaved, 8), 256);
    EXPECT_EQ(cuda::fir_block_threads_for(t, fir_kernel::deinterleaved, 9), 128);
    const fir_tuning real_by_complex = cuda::fir_tuning_for(90, fcc);
    EXPECT_EQ(cuda::fir_block_threads_for(real_by_complex, fir_kernel::deinterleaved, 9),
              256);
    t.block_threads = 128; // forced, for either kernel
    EXPECT_EQ(cuda::fir_block_threads_for(t, fir_kernel::blocked, 1), 128);
    EXPECT_EQ(cuda::fir_block_threads_for(t, fir_kernel::deinterleaved, 64), 128);
}

TEST(fir_tuning, fft_sizes_and_groups)
{
    const fir_tuning t = cuda::fir_tuning_for(90, ccf);
    EXPECT_EQ(t.fft_group_samples, 1LL << 22);
    // The documented size rule (docs/kernels.md, "Size rule"): the fused kernel's
    // sizes first, 4 * ntaps in [2048, 16384] where half a segment is new (complex
    // samples up to 1024 taps: the smallest such size)...
    EXPECT_EQ(t.fused_max_size, 16384);
    EXPECT_EQ(cuda::fir_fft_size_for(t, 1, 1), 2048);
    EXPECT_EQ(cuda::fir_fft_size_for(t, 1024, 1), 2048);
    EXPECT_EQ(cuda::fir_fft_size_for(t, 1024, 2), 4096);
    EXPECT_EQ(cuda::fir_fft_size_for(cuda::fir_tuning_for(90, fff), 1024, 1), 4096);
    EXPECT_EQ(cuda::fir_fft_size_for(t, 1025, 1), 8192);
    EXPECT_EQ(cuda::fir_fft_size_for(t, 4096, 1), 16384);
    EXPECT_EQ(cuda::fir_fft_size_for(t, 8192, 1), 16384);
    // ...then the cluster kernel's 32768 where half a segment is new (next test)...
    EXPECT_EQ(cuda::fir_fft_size_for(t, 8193, 1), 32768);
    // ...longer filters up to 32 partitions of 2048 taps at 4096 (partitioned)...
    EXPECT_EQ(t.partition_size, 4096);
    EXPECT_EQ(t.fused_max_partitions, 32);
    EXPECT_EQ(cuda::fir_fft_size_for(t, 16385, 1), 4096);
    EXPECT_EQ(cuda::fir_fft_size_for(t, 16384, 70000), 4096);
    EXPECT_EQ(cuda::fir_fft_size_for(t, 65536, 1), 4096);
    EXPECT_EQ(cuda::fir_fft_size_for(cuda::fir_tuning_for(90, fff), 65536, 1), 4096);
    // ...then cuFFT's, the former rule.
    EXPECT_EQ(cuda::fir_fft_size_for(t, 65537, 1), 262144);
    EXPECT_EQ(cuda::fir_fft_size_for(cuda::fir_tuning_for(90, fff), 65537, 1), 262144);
    EXPECT_EQ(cuda::fir_fft_size_for(t, 100000, 1), 262144);
    fir_tuning cufft_only = t;
    cufft_only.fused_max_size = 0;
    EXPECT_EQ(cuda::fir_fft_size_for(cufft_only, 1, 1), 4096);
    EXPECT_EQ(cuda::fir_fft_size_for(cufft_only, 4096, 1), 32768);
    for (int ntaps = 1; ntaps <= 300000; ntaps += 1 + ntaps / 16)
        for (int D : { 1, 2, 7, 64, 1000, 100000 }) {
            ASSERT_EQ(cuda::fir_fft_size_for(cufft_only, ntaps, D),
                      former_fft_size(ntaps, D))
                << "ntaps=" << ntaps << " D=" << D;
            const long long n = cuda::fir_fft_size_for(t, ntaps, D);
            if (n < 2LL * (ntaps - 1 + D)) { // partitioned
                ASSERT_EQ(n, 4096) << "ntaps=" << ntaps << " D=" << D;
                ASSERT_LE((ntaps + 2047) / 2048, 32) << "D=" << D;
            } else if (n == t.cluster_size) { // the cluster kernel, half of it new
                ASSERT_GT(2LL * (ntaps - 1 + D), 16384)
                    << "ntaps=" << ntaps << " D=" << D;
            } else if (n > 16384) {
                ASSERT_EQ(n, former_fft_size(ntaps, D))
                    << "ntaps=" << ntaps << " D=" << D;
            }
        }
}

TEST(fir_tuning, cluster_size_between_the_fused_ones_and_the_partitions)
{
    fir_tuning t = cuda::fir_tuning_for(90, ccf);
    EXPECT_EQ(t.cluster_size, 32768);
    // The fused sizes as before, then 32768 where half a segment is new, then the
    // partitions or cuFFT.
    EXPECT_EQ(cuda::fir_fft_size_for(t, 8192, 1), 16384);
    EXPECT_EQ(cuda::fir_fft_size_for(t, 8193, 1), 32768);
    EXPECT_EQ(cuda::fir_fft_size_for(t, 8192, 2), 32768);
    EXPECT_EQ(cuda::fir_fft_size_for(t, 16384, 1), 32768);
    EXPECT_EQ(cuda::fir_fft_size_for(t, 4096, 12289), 32768);
    EXPECT_EQ(cuda::fir_fft_size_for(t, 16385, 1), 4096);
    EXPECT_EQ(cuda::fir_fft_size_for(t, 16384, 2), 4096);
    EXPECT_EQ(cuda::fir_fft_size_for(t, 4096, 12290), 4096);
    for (int bad : { 16384, 65536 }) {
        t.cluster_size = bad;
        EXPECT_THROW(cuda::check_fir_tuning(t), std::invalid_argument) << bad;
    }
    // Thread block clusters came with sm_90.
    for (int arch : { 0, 75, 80, 86, 89 })
        EXPECT_EQ(cuda::fir_tuning_for(arch, ccf).cluster_size, 0) << arch;
    for (int arch : { 90, 100, 120 })
        EXPECT_EQ(cuda::fir_tuning_for(arch, ccf).cluster_size, 32768) << arch;
}

TEST(fir_tuning, every_architecture_uses_the_measured_entry)
{
    for (const fir_types types : { fff, ccf, ccc, fcc, scc }) {
        const fir_tuning want = cuda::fir_tuning_for(90, types);
        for (int arch : { 0, 35, 50, 61, 70, 75, 80, 86, 89, 90, 100, 103, 120 }) {
            const fir_tuning t = cuda::fir_tuning_for(arch, types);
            EXPECT_EQ(t.kernel, fir_kernel::automatic) << arch;
            EXPECT_EQ(t.block_threads, 0) << arch;
            EXPECT_EQ(t.fft_taps_per_output, want.fft_taps_per_output) << arch;
            EXPECT_EQ(t.untiled_min_decimation, want.untiled_min_decimation) << arch;
            EXPECT_EQ(t.untiled_max_taps_per_phase, want.untiled_max_taps_per_phase);
            EXPECT_EQ(t.blocked_min_sub_taps, want.blocked_min_sub_taps) << arch;
            EXPECT_EQ(t.deinterleaved_min_decimation, want.deinterleaved_min_decimation);
            EXPECT_EQ(t.deinterleaved_max_sub_taps, want.deinterleaved_max_sub_taps);
            EXPECT_EQ(t.blocked_threads_d2, want.blocked_threads_d2) << arch;
            EXPECT_EQ(t.blocked_threads_d4, want.blocked_threads_d4) << arch;
            EXPECT_EQ(t.blocked_threads_more, want.blocked_threads_more) << arch;
            EXPECT_EQ(t.deinterleaved_threads_d8, want.deinterleaved_threads_d8) << arch;
            EXPECT_EQ(t.deinterleaved_threads_more, want.deinterleaved_threads_more);
            EXPECT_EQ(t.fft_group_samples, want.fft_group_samples) << arch;
            EXPECT_EQ(t.fft_taps_factor, want.fft_taps_factor) << arch;
            EXPECT_EQ(t.fft_min_size, want.fft_min_size) << arch;
            EXPECT_EQ(t.fft_max_auto_size, want.fft_max_auto_size) << arch;
            EXPECT_EQ(t.partition_size, want.partition_size) << arch;
            EXPECT_EQ(t.partition_group_samples, want.partition_group_samples) << arch;
        }
    }
}

TEST(fir_tuning, engines_reject_a_tuning_they_cannot_use)
{
    EXPECT_NO_THROW(cuda::check_fir_tuning(cuda::fir_tuning_for(90, ccf)));
    const auto message = [](const fir_tuning& t) {
        try {
            cuda::check_fir_tuning(t);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_NE(message(fir_tuning{}).find("fft_taps_per_output"), std::string::npos);
    fir_tuning t = cuda::fir_tuning_for(90, ccf);
    t.block_threads = 48;
    EXPECT_NE(message(t).find("block_threads"), std::string::npos);
    t = cuda::fir_tuning_for(90, ccf);
    t.fft_min_size = 3000;
    EXPECT_NE(message(t).find("fft_min_size"), std::string::npos);
    t = cuda::fir_tuning_for(90, ccf);
    t.deinterleaved_threads_more = 512;
    EXPECT_NE(message(t).find("deinterleaved_threads_more"), std::string::npos);
    t = cuda::fir_tuning_for(90, ccf);
    t.partition_size = 16384; // no partitioned kernel of that size
    EXPECT_NE(message(t).find("partition_size"), std::string::npos);
    for (int threads : { 0, 32, 64, 128, 256 }) {
        t = cuda::fir_tuning_for(90, ccf);
        t.block_threads = threads;
        EXPECT_NO_THROW(cuda::check_fir_tuning(t)) << threads;
    }
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
