/* SPDX-License-Identifier: GPL-3.0-or-later */
// PFB synthesis side: the polyphase interpolator (interp 4, 16, 64) and synthesizer
// (16, 256, 1024 channels). Engine rows on device-resident data (CUDA events) with the
// fraction of the memory roofline of their own input and output bytes; flowgraph rows
// beside gr-filter's same block and blocks.copy of the same output bytes (and, for
// the synthesizer, GNU Radio's streams_to_stream of as many inputs). Every rate
// in this family is in OUTPUT samples per second, so a row and its copy row compare
// the same bytes.

#include "bench.h"
#include "call_timer.h"
#include "common/resources.h"
#include "flowgraph_timer.h"
#include "pfb/pfb_interpolator_engine.h"
#include "pfb/pfb_synthesizer_engine.h"
#include "pfb/pfb_tuning.h"
#include <gnuradio/blocks/copy.h>
#include <gnuradio/blocks/head.h>
#include <gnuradio/blocks/null_sink.h>
#include <gnuradio/blocks/streams_to_stream.h>
#include <gnuradio/blocks/vector_source.h>
#include <gnuradio/filter/pfb_interpolator_ccf.h>
#include <gnuradio/filter/pfb_synthesizer_ccf.h>
#include <gnuradio/gpufilter/pfb_interpolator_ccf.h>
#include <gnuradio/gpufilter/pfb_synthesizer_ccf.h>
#include <gnuradio/top_block.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace bench {
namespace cuda = gr::gpufilter::cuda;
namespace {

const std::vector<int> interps{ 4, 16, 64 };
const std::vector<int> synth_channels{ 16, 64, 256, 1024 };
const std::vector<int> taps_per_branch{ 8, 32 };

//! Seconds per call (call_timer.h) on a stream of its own.
template <class F>
double time_on_new_stream(const options& o, F&& call)
{
    cuda::stream s;
    return time_calls(o, s, call);
}

void engine_row(const options& o,
                const device_info& dev,
                const std::string& what,
                int rate,
                int T,
                std::size_t outputs,
                double bytes_per_output,
                const std::function<double()>& run,
                std::vector<row>& rows)
{
    row r;
    r.family = "engine";
    r.type = "ccf";
    r.taps = rate * T;
    r.decimation = rate;
    r.impl = what;
    r.on_gpu = true;
    r.bytes_per_sample = bytes_per_output;
    r.ceiling_msps = dev.mem_bw / bytes_per_output / 1e6;
    r.ceiling_kind = "roofline (memory, bytes in + out)";
    try {
        r.seconds = run();
        r.samples = outputs;
        r.msps = outputs / r.seconds / 1e6;
        r.note = "output samples/s; median of calls of " + std::to_string(outputs) +
                 " outputs";
    } catch (const std::exception& e) {
        r.note = std::string("error: ") + e.what();
    }
    std::printf("  %-34s rate=%-5d taps/branch=%-3d %8.3f GS/s out  %5.1f%% of memory "
                "roofline  %s\n",
                what.c_str(),
                rate,
                T,
                r.msps / 1e3,
                r.ceiling_msps > 0 ? 100.0 * r.msps / r.ceiling_msps : 0.0,
                r.note.c_str());
    std::fflush(stdout);
    rows.push_back(r);
}

void run_engine_rows(const options& o, const device_info& dev, std::vector<row>& rows)
{
    cuda::use_device(0);
    std::printf("pfb synthesis engines on %s\n", dev.name.c_str());
    const std::size_t outputs = o.quick ? std::size_t(1) << 18 : std::size_t(1) << 26;
    cuda::device_buffer<cuda::complex> in(outputs), out(outputs);
    {
        const auto block = random_samples<cuda::complex>(1 << 20, 4);
        for (std::size_t at = 0; at < outputs; at += block.size())
            GPUFILTER_CHECK(
                cudaMemcpy(in.get() + at,
                           block.data(),
                           std::min(block.size(), outputs - at) * sizeof(cuda::complex),
                           cudaMemcpyHostToDevice));
    }
    for (const int L : interps)
        for (const int T : taps_per_branch) {
            const std::size_t n = outputs / L;
            engine_row(
                o,
                dev,
                "gpufilter pfb_interpolator engine",
                L,
                T,
                n * L,
                8.0 + 8.0 / L,
                [&] {
                    cuda::pfb_interpolator_engine e(L, random_samples<float>(L * T, 5));
                    const void* src[] = { in.get() };
                    void* dst[] = { out.get() };
                    return time_on_new_stream(
                        o, [&](cudaStream_t s) { e.process(src, n, dst, s); });
                },
                rows);
        }
    // Each synthesizer shape on the default path, then on the one-pass kernel (gather,
    // inverse FFT and branch filters in one kernel) with 1 and 2 regions of 4096 samples
    // a block where they fit (synth_one_pass_regions' rule picks one of them).
    const cuda::pfb_tuning tuning = cuda::pfb_tuning_for_device(); // the engines' own
    for (const int M : synth_channels)
        for (const int T : taps_per_branch)
            for (const bool twox : { false, true })
                for (const int regions : { 0, 1, 2 }) { // 0: the default path
                    const int P = M * (twox ? 2 : 1);
                    cuda::pfb_tuning variant = tuning;
                    if (regions > 0) {
                        variant.synth = cuda::synth_path::one_pass;
                        variant.synth_regions = regions;
                    }
                    if (regions > 0 && cuda::synth_one_pass_regions(variant, P, T) == 0)
                        continue;
                    std::string what = "gpufilter pfb_synthesizer engine";
                    if (twox)
                        what += " 2x";
                    if (regions > 0)
                        what +=
                            " one-pass G=" + std::to_string(regions) +
                            (cuda::synth_one_pass_regions(tuning, P, T) == regions ? "*"
                                                                                   : "");
                    const std::size_t n = outputs / M; // steps; each port n samples
                    engine_row(
                        o,
                        dev,
                        what,
                        M,
                        T,
                        n * M,
                        16.0, // 8 bytes in (one sample of each of M ports) + 8 out
                        [&] {
                            std::vector<int> map(M);
                            std::vector<const void*> src(M);
                            for (int k = 0; k < M; ++k) {
                                map[k] = k;
                                src[k] = in.get() + static_cast<std::size_t>(k) * n;
                            }
                            const auto e = std::make_unique<cuda::pfb_synthesizer_engine>(
                                M, random_samples<float>(M * T, 5), twox, map, variant);
                            if (regions > 0 && e->one_pass_regions() != regions)
                                throw std::logic_error("one-pass kernel not taken");
                            void* dst[] = { out.get() };
                            return time_on_new_stream(o, [&](cudaStream_t s) {
                                e->process(src.data(), n, dst, s);
                            });
                        },
                        rows);
                }
}

//! A synthesizer flowgraph: M repeating sources -> block -> head(n outputs) -> null
//! sink; seconds of tb->run().
double run_synth_flowgraph(int M,
                           const std::vector<gr_complex>& data,
                           std::uint64_t n,
                           const std::function<gr::basic_block_sptr()>& make,
                           gr::basic_block_sptr* last)
{
    // The last run's block holds its input buffers, and GNU Radio's default buffers
    // take System V shared-memory segments (4096 per machine by default): with 1024
    // channels two flowgraphs' worth do not fit, so it goes first.
    last->reset();
    auto tb = gr::make_top_block("bench_synth");
    auto blk = make();
    // Whole batches into the block, as offline use sets them up: each port carries
    // 1/M of the block's input.
    const long port_batch = (gr::gpufilter::default_batch_size + M - 1) / M;
    for (int k = 0; k < M; ++k) {
        auto src = gr::blocks::vector_source<gr_complex>::make(data, true);
        feed_whole_batches(src, blk, port_batch);
        tb->connect(src, 0, blk, k);
    }
    auto head = gr::blocks::head::make(sizeof(gr_complex), n);
    tb->connect(blk, 0, head, 0);
    tb->connect(head, 0, gr::blocks::null_sink::make(sizeof(gr_complex)), 0);
    const auto start = std::chrono::steady_clock::now();
    tb->run();
    const std::chrono::duration<double> t = std::chrono::steady_clock::now() - start;
    *last = blk;
    return t.count();
}

void run_flowgraph_rows(const options& o, std::vector<row>& rows)
{
    const std::string family = "pfb-synthesis-flowgraph";
    const auto data = random_samples<gr_complex>(1 << 16, 6);
    const block_factory source = [&] {
        return gr::blocks::vector_source<gr_complex>::make(data, true);
    };
    const auto finish = [&](row& r, const gr::basic_block_sptr& blk) {
        const auto gpu = std::dynamic_pointer_cast<gr::gpufilter::gpu_options>(blk);
        r.on_gpu = gpu && gpu->on_gpu();
        if (gpu)
            r.note = r.on_gpu ? "GPU " + gpu->method() : "CPU fallback (no GPU)";
        r.note += (r.note.empty() ? "" : "; ") + std::string("output samples/s");
    };
    std::printf("pfb synthesis in a flowgraph (%.2f s per measurement; output "
                "samples/s)\n",
                o.seconds);
    rows.push_back(flowgraph_row(
        o,
        { family, "ccf", 0, 1, "blocks.copy", "" },
        source,
        sizeof(gr_complex),
        [] { return gr::blocks::copy::make(sizeof(gr_complex)); },
        sizeof(gr_complex)));

    for (const int L : interps) {
        const auto taps = random_samples<float>(L * 8, 5);
        const std::string gr_impl = "gr-filter pfb_interpolator";
        for (const bool ours : { true, false }) {
            gr::basic_block_sptr blk;
            row r = flowgraph_row(
                o,
                { family,
                  "ccf",
                  L * 8,
                  L,
                  ours ? "gpufilter pfb_interpolator" : gr_impl,
                  ours ? gr_impl : "" },
                source,
                sizeof(gr_complex),
                [&]() -> gr::basic_block_sptr {
                    if (ours)
                        return blk = gr::gpufilter::pfb_interpolator_ccf::make(L, taps);
                    return blk = gr::filter::pfb_interpolator_ccf::make(L, taps);
                },
                sizeof(gr_complex));
            r.msps *= L; // input rate -> output rate
            finish(r, blk);
            rows.push_back(r);
        }
    }

    for (const int M : synth_channels) {
        const auto taps = random_samples<float>(M * 8, 5);
        const std::string gr_impl = "gr-filter pfb_synthesizer";
        // GNU Radio's streams_to_stream has the synthesizer's ports and rates and does
        // no arithmetic: the most any block of M inputs gets from the scheduler.
        const std::string interleave_impl = "blocks.streams_to_stream";
        for (const auto& impl :
             { std::string("gpufilter pfb_synthesizer"), gr_impl, interleave_impl }) {
            const bool ours = impl == "gpufilter pfb_synthesizer";
            const auto make = [&]() -> gr::basic_block_sptr {
                if (ours)
                    return gr::gpufilter::pfb_synthesizer_ccf::make(M, taps);
                if (impl == gr_impl)
                    return gr::filter::pfb_synthesizer_ccf::make(M, taps);
                return gr::blocks::streams_to_stream::make(sizeof(gr_complex), M);
            };
            row r;
            r.family = family;
            r.type = "ccf";
            r.taps = impl == interleave_impl ? 0 : M * 8;
            r.decimation = M;
            r.impl = impl;
            r.copy_family = family;
            if (ours) {
                r.reference_family = family;
                r.reference_impl = gr_impl;
            }
            gr::basic_block_sptr blk;
            try {
                // Starting M source threads and their buffers takes up to half a
                // second at 1024 channels, longer than a measurement.
                std::string how;
                const timing m = measure_by_slope(
                    [&](std::uint64_t n) {
                        return run_synth_flowgraph(M, data, n, make, &blk);
                    },
                    o.seconds,
                    &how);
                r.samples = m.samples;
                r.seconds = m.seconds;
                r.msps = m.msps();
                finish(r, blk);
                r.note += "; " + how;
            } catch (const std::exception& e) {
                r.note = std::string("error: ") + e.what();
            }
            std::printf("  %s ccf chans=%d %-34s %10.2f MS/s out\n",
                        family.c_str(),
                        M,
                        r.impl.c_str(),
                        r.msps);
            std::fflush(stdout);
            rows.push_back(r);
        }
    }
}

} // namespace

void run_pfb_synthesis_cases(const options& o,
                             const device_info& dev,
                             std::vector<row>& rows)
{
    run_flowgraph_rows(o, rows);
    if (dev.count == 0) {
        std::printf("pfb synthesis engine rows skipped: no usable CUDA device (%s)\n",
                    dev.why_none.c_str());
        return;
    }
    run_engine_rows(o, dev, rows);
}

} // namespace bench
