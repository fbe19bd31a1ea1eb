/* SPDX-License-Identifier: GPL-3.0-or-later */
// The channelizer with one output port per channel (pfb_channelizer_ccf, as GRC's
// block and gr-filter's are used) at 16, 64 and 256 channels, 8 taps a channel: a
// repeating source -> head -> block -> one null sink per port, input samples/s,
// beside gr-filter's stream_to_streams -> pfb_channelizer_ccf, GNU Radio's own
// stream_to_streams (as many ports, no arithmetic) and blocks.copy, all timed by the
// slope of two runs (starting hundreds of sink threads takes a good part of a second).

#include "bench.h"
#include "flowgraph_timer.h"
#include <gnuradio/blocks/copy.h>
#include <gnuradio/blocks/head.h>
#include <gnuradio/blocks/null_sink.h>
#include <gnuradio/blocks/stream_to_streams.h>
#include <gnuradio/blocks/vector_source.h>
#include <gnuradio/filter/pfb_channelizer_ccf.h>
#include <gnuradio/gpufilter/gpu_options.h>
#include <gnuradio/gpufilter/pfb_channelizer_ccf.h>
#include <gnuradio/top_block.h>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace bench {
namespace {

const std::vector<int> port_counts{ 16, 64, 256 };
constexpr int taps_per_channel = 8;

//! The block under test between head and its sinks: gets the flowgraph and the head,
//! connects itself and one null sink per output port, returns the block to report.
using wiring = std::function<gr::basic_block_sptr(gr::top_block_sptr&,
                                                  const gr::basic_block_sptr& head)>;

double run_ports_flowgraph(const std::vector<gr_complex>& data,
                           std::uint64_t n,
                           const wiring& wire,
                           gr::basic_block_sptr* last)
{
    last->reset(); // the last run's buffers go first (System V segments are few)
    auto tb = gr::make_top_block("bench_ports");
    auto head = gr::blocks::head::make(sizeof(gr_complex), n);
    tb->connect(gr::blocks::vector_source<gr_complex>::make(data, true), 0, head, 0);
    auto blk = wire(tb, head);
    feed_whole_batches(head, blk); // as offline use sets them up
    const auto start = std::chrono::steady_clock::now();
    tb->run();
    const std::chrono::duration<double> t = std::chrono::steady_clock::now() - start;
    *last = blk;
    return t.count();
}

void sinks(gr::top_block_sptr& tb, const gr::basic_block_sptr& from, int ports)
{
    for (int k = 0; k < ports; ++k)
        tb->connect(from, k, gr::blocks::null_sink::make(sizeof(gr_complex)), 0);
}

} // namespace

void run_pfb_port_cases(const options& o, std::vector<row>& rows)
{
    const std::string family = "pfb-ports";
    const auto data = random_samples<gr_complex>(1 << 19, 6);
    const std::size_t c = sizeof(gr_complex);
    const auto add = [&](const std::string& impl,
                         int M,
                         const std::string& reference,
                         const wiring& wire) {
        row r;
        r.family = family;
        r.type = "ccf";
        r.taps = M > 1 && impl != "blocks.stream_to_streams" ? M * taps_per_channel : 0;
        r.decimation = M;
        r.impl = impl;
        r.copy_family = family;
        if (!reference.empty()) {
            r.reference_family = family;
            r.reference_impl = reference;
        }
        gr::basic_block_sptr blk;
        try {
            std::string how;
            const timing m = measure_by_slope(
                [&](std::uint64_t n) { return run_ports_flowgraph(data, n, wire, &blk); },
                o.seconds,
                &how);
            r.samples = m.samples;
            r.seconds = m.seconds;
            r.msps = m.msps();
            const auto gpu = std::dynamic_pointer_cast<gr::gpufilter::gpu_options>(blk);
            r.on_gpu = gpu && gpu->on_gpu();
            r.note = gpu ? (r.on_gpu ? "GPU; " : "CPU fallback (no GPU); ") + how : how;
        } catch (const std::exception& e) {
            r.note = std::string("error: ") + e.what();
        }
        std::printf("  %s ports=%d %-34s %10.2f MS/s in\n",
                    family.c_str(),
                    M,
                    r.impl.c_str(),
                    r.msps);
        std::fflush(stdout);
        rows.push_back(r);
    };

    std::printf("channelizer with one output port per channel (%.2f s per measurement; "
                "input samples/s)\n",
                o.seconds);
    add("blocks.copy", 1, "", [&](gr::top_block_sptr& tb, const gr::basic_block_sptr& h) {
        auto blk = gr::blocks::copy::make(c);
        tb->connect(h, 0, blk, 0);
        sinks(tb, blk, 1);
        return blk;
    });
    const std::string gr_impl = "gr-filter s2ss+pfb_channelizer";
    for (const int M : port_counts) {
        const auto taps = random_samples<float>(M * taps_per_channel, 5);
        add("gpufilter pfb_channelizer_ccf",
            M,
            gr_impl,
            [&](gr::top_block_sptr& tb, const gr::basic_block_sptr& h) {
                auto blk = gr::gpufilter::pfb_channelizer_ccf::make(M, taps, 1.0f);
                tb->connect(h, 0, blk, 0);
                sinks(tb, blk, M);
                return blk;
            });
        add(gr_impl, M, "", [&](gr::top_block_sptr& tb, const gr::basic_block_sptr& h) {
            auto s2ss = gr::blocks::stream_to_streams::make(c, M);
            auto blk = gr::filter::pfb_channelizer_ccf::make(M, taps, 1.0f);
            tb->connect(h, 0, s2ss, 0);
            for (int k = 0; k < M; ++k)
                tb->connect(s2ss, k, blk, k);
            sinks(tb, blk, M);
            return blk;
        });
        add("blocks.stream_to_streams",
            M,
            "",
            [&](gr::top_block_sptr& tb, const gr::basic_block_sptr& h) {
                auto blk = gr::blocks::stream_to_streams::make(c, M);
                tb->connect(h, 0, blk, 0);
                sinks(tb, blk, M);
                return blk;
            });
    }
}

} // namespace bench
