/* SPDX-License-Identifier: GPL-3.0-or-later */
// Engine family: an engine alone on device-resident data, timed with CUDA events, so
// the row shows what the GPU computes with no PCIe and no scheduler in the way. Any
// engine with fir_engine's API (constructor (taps, decimation), output_count(),
// process(d_in, n, d_out, stream)) is one more engine_row<> line in one_type().

#include "bench.h"
#include "call_timer.h"
#include "common/resources.h"
#include "fir/fft_fir_engine.h"
#include "fir/fir_engine.h"
#include "fir/fir_tuning.h"
#include "flowgraph_timer.h"
#include <type_traits>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>

namespace bench {
namespace cuda = gr::gpufilter::cuda;
namespace {

//! A variant of the engines: their tuning on this device with one choice changed.
cuda::fir_tuning with_kernel(cuda::fir_tuning t, cuda::fir_kernel k)
{
    t.kernel = k;
    return t;
}

//! What every engine row of one (type, taps, D) shares: data on the device, the roofline.
template <class In, class Tap>
struct engine_case {
    using Out = cuda::filter_output_t<In, Tap>;
    const options& o;
    const device_info& dev;
    std::string type;
    std::vector<Tap> taps;
    int decimation;
    const cuda::device_buffer<In>& in;
    cuda::device_buffer<Out>& out;
    std::vector<row>& rows;
};

double flop_per_sample(const std::string& type, int taps, int decim)
{
    // Direct form, 2 FLOP per real multiply-add: a complex*real product (ccf, and the
    // real samples with complex taps of fcc and scc) is 2 real multiply-adds,
    // complex*complex is 4.
    const double per_tap = type == "fff" ? 2 : type == "ccc" ? 8 : 4;
    return per_tap * taps / decim;
}

/*!
 * Times Engine<In, Tap>::process() on c.in after warm-up calls; the row's rate is from
 * the median of several calls. `tuning` is the engine's (a variant: kernel, block
 * size, FFT group size), fft_size the FFT engine's (0: the tuning's rule).
 */
template <template <class, class> class Engine, class In, class Tap>
void engine_row(engine_case<In, Tap>& c,
                const std::string& impl,
                const cuda::fir_tuning& tuning,
                int fft_size = 0)
{
    row r;
    r.family = "engine";
    r.type = c.type;
    r.taps = static_cast<int>(c.taps.size());
    r.decimation = c.decimation;
    r.impl = impl;
    r.on_gpu = true;
    r.reference_family = "flowgraph";
    r.reference_impl = "gr-filter fir_filter";
    r.bytes_per_sample = in_bytes(c.type) + out_bytes(c.type, c.decimation);
    r.flop_per_sample = flop_per_sample(c.type, r.taps, c.decimation);
    r.ceiling_msps =
        std::min(c.dev.mem_bw / r.bytes_per_sample, c.dev.peak_fp32 / r.flop_per_sample) /
        1e6;
    r.ceiling_kind =
        c.dev.mem_bw / r.bytes_per_sample < c.dev.peak_fp32 / r.flop_per_sample
            ? "roofline (memory)"
            : "roofline (fp32)";
    try {
        cuda::stream s;
        std::optional<Engine<In, Tap>> made;
        if constexpr (std::is_constructible_v<Engine<In, Tap>,
                                              const std::vector<Tap>&,
                                              int,
                                              int,
                                              const cuda::fir_tuning&>)
            made.emplace(c.taps, c.decimation, fft_size, tuning);
        else
            made.emplace(c.taps, c.decimation, tuning);
        Engine<In, Tap>& engine = *made;
        const std::size_t n = c.in.size();
        if (engine.output_count(n) > c.out.size())
            throw std::logic_error("output buffer too small");
        r.samples = n;
        r.seconds = time_calls(c.o, s, [&](cudaStream_t st) {
            engine.process(c.in.get(), n, c.out.get(), st);
        });
        r.msps = n / r.seconds / 1e6;
        r.note = std::to_string(timed_calls(c.o)) + " calls of " + std::to_string(n) +
                 ", median";
    } catch (const std::exception& e) {
        r.note = std::string("error: ") + e.what();
    }
    std::printf("  engine %s taps=%d D=%d %-28s %10.3f GS/s  %s\n",
                r.type.c_str(),
                r.taps,
                r.decimation,
                impl.c_str(),
                r.msps / 1e3,
                r.note.c_str());
    std::fflush(stdout);
    c.rows.push_back(r);
}

template <class In, class Tap>
void one_type(const std::string& type,
              const options& o,
              const device_info& dev,
              std::vector<row>& rows)
{
    using Out = cuda::filter_output_t<In, Tap>;
    // 2^24 input samples: long enough that launch overheads vanish, small enough that
    // the heaviest case (ccc, 16384 taps) stays well under a second per call.
    const std::size_t n = o.quick ? std::size_t(1) << 16 : std::size_t(1) << 24;
    cuda::device_buffer<In> in(n);
    cuda::device_buffer<Out> out(n);
    {
        // Tile a 1 Mi-sample random block: random enough, and quick to make.
        const auto block = random_samples<In>(std::min<std::size_t>(n, 1 << 20), 4);
        for (std::size_t at = 0; at < n; at += block.size())
            GPUFILTER_CHECK(cudaMemcpy(in.get() + at,
                                       block.data(),
                                       std::min(block.size(), n - at) * sizeof(In),
                                       cudaMemcpyHostToDevice));
    }
    const int most = o.taps.empty() ? 0 : *std::max_element(o.taps.begin(), o.taps.end());
    const auto taps_all = random_samples<Tap>(most, 5);
    // The engines' own tuning on this device; the variants change one choice of it.
    const cuda::fir_tuning tuning = cuda::fir_tuning_for_device<In, Tap>();
    cuda::fir_tuning cufft_only = tuning; // the FFT path before its fused kernel
    cufft_only.fused_max_size = 0;
    for (int ntaps : o.taps) {
        for (int d : o.decimations) {
            engine_case<In, Tap> c{
                o,    dev,
                type, std::vector<Tap>(taps_all.begin(), taps_all.begin() + ntaps),
                d,    in,
                out,  rows
            };
            // One line per engine with fir_engine's API.
            engine_row<cuda::fir_engine>(c, "gpufilter direct", tuning);
            engine_row<cuda::fft_fir_engine>(c, "gpufilter fft", tuning);
            engine_row<cuda::fft_fir_engine>(c, "gpufilter fft (cuFFT)", cufft_only);
            engine_row<cuda::fir_engine>(c,
                                         "gpufilter direct (old tiled)",
                                         with_kernel(tuning, cuda::fir_kernel::tiled));
            for (const auto& g : o.fft_groups) { // --fft-groups: the group size
                cuda::fir_tuning t = tuning;
                t.fft_group_samples = std::max(1LL, std::atoll(g.c_str()));
                engine_row<cuda::fft_fir_engine>(c, "gpufilter fft group=" + g, t);
            }
            if (o.kernel_variants) { // --kernel-variants: the dispatch rule's measurement
                engine_row<cuda::fir_engine>(
                    c,
                    "gpufilter direct (untiled)",
                    with_kernel(tuning, cuda::fir_kernel::untiled));
                engine_row<cuda::fir_engine>(
                    c,
                    "gpufilter direct (blocked)",
                    with_kernel(tuning, cuda::fir_kernel::blocked));
                engine_row<cuda::fir_engine>(
                    c,
                    "gpufilter direct (deinterleaved)",
                    with_kernel(tuning, cuda::fir_kernel::deinterleaved));
                // The automatic kernel's block size (deinterleaved from D = 5).
                for (int threads : { 32, 64, 128, 256 }) {
                    cuda::fir_tuning t = tuning;
                    t.block_threads = threads;
                    engine_row<cuda::fir_engine>(
                        c,
                        "gpufilter direct (" + std::to_string(threads) + " threads)",
                        t);
                }
            }
            const bool partition_rows =
                !o.partition_sizes.empty() || !o.partition_groups.empty();
            if (partition_rows && ntaps > 8192) { // the partitioned path's rules
                cuda::fir_tuning t = tuning;
                t.fused_max_partitions = 1 << 10;
                const std::vector<int> sizes = o.partition_sizes.empty()
                                                   ? std::vector<int>{ 4096, 8192 }
                                                   : o.partition_sizes;
                const std::vector<int> groups = o.partition_groups.empty()
                                                    ? std::vector<int>{ 22 }
                                                    : o.partition_groups;
                for (int size : sizes)
                    for (int shift : groups) {
                        t.partition_size = size;
                        t.partition_group_samples = 1LL << shift;
                        engine_row<cuda::fft_fir_engine>(
                            c,
                            "gpufilter fft N=" + std::to_string(size) + " group=2^" +
                                std::to_string(shift),
                            t);
                    }
            }
            for (int n : o.fft_sizes) // --fft-sizes: the FFT size rule's measurement
                if (n >= ntaps - 1 + d)
                    engine_row<cuda::fft_fir_engine>(
                        c, "gpufilter fft N=" + std::to_string(n), tuning, n);
            if (o.cluster_rows && ntaps > 8192) { // the cluster kernel's sizes
                cuda::fir_tuning t = tuning;
                t.cluster_size = 32768;
                if (t.cluster_size >= 2 * (ntaps - 1 + d)) // half of a segment new
                    engine_row<cuda::fft_fir_engine>(
                        c, "gpufilter fft cluster", t, 32768);
                t.cluster_size = 0;
                engine_row<cuda::fft_fir_engine>(c, "gpufilter fft no cluster", t);
            }
        }
    }
}

} // namespace

void run_engine_cases(const options& o, const device_info& dev, std::vector<row>& rows)
{
    if (dev.count == 0) {
        std::printf("engine rows skipped: no usable CUDA device (%s)\n",
                    dev.why_none.c_str());
        return;
    }
    cuda::use_device(0);
    for (const auto& type : o.types) {
        std::printf("engine %s on %s\n", type.c_str(), dev.name.c_str());
        if (type == "ccf")
            one_type<cuda::complex, float>(type, o, dev, rows);
        else if (type == "fff")
            one_type<float, float>(type, o, dev, rows);
        else if (type == "ccc")
            one_type<cuda::complex, cuda::complex>(type, o, dev, rows);
        else if (type == "fcc")
            one_type<float, cuda::complex>(type, o, dev, rows);
        else if (type == "scc") // int16 samples: sums in double (device_math.cuh)
            one_type<std::int16_t, cuda::complex>(type, o, dev, rows);
    }
}

} // namespace bench
