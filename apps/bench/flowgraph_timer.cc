/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "flowgraph_timer.h"
#include <gnuradio/blocks/head.h>
#include <gnuradio/blocks/null_sink.h>
#include <gnuradio/gpufilter/gpu_options.h>
#include <gnuradio/top_block.h>
#include <algorithm>
#include <chrono>
#include <cstdio>

namespace bench {

void feed_whole_batches(const gr::block_sptr& upstream,
                        const gr::basic_block_sptr& blk,
                        long items)
{
    if (std::dynamic_pointer_cast<gr::gpufilter::gpu_options>(blk))
        upstream->set_min_output_buffer(0, 2 * items);
}

double run_flowgraph(const block_factory& source,
                     std::size_t in_itemsize,
                     std::size_t out_itemsize,
                     std::uint64_t n,
                     const block_factory& make,
                     gr::basic_block_sptr* last)
{
    auto tb = gr::make_top_block("bench");
    auto src = source();
    auto head = gr::blocks::head::make(in_itemsize, n);
    auto blk = make ? make() : nullptr;
    feed_whole_batches(head, blk); // as offline use sets them up
    tb->connect(src, 0, head, 0);
    if (blk) {
        tb->connect(head, 0, blk, 0);
        tb->connect(blk, 0, gr::blocks::null_sink::make(out_itemsize), 0);
    } else {
        tb->connect(head, 0, gr::blocks::null_sink::make(in_itemsize), 0);
    }
    const auto start = std::chrono::steady_clock::now();
    tb->run();
    const std::chrono::duration<double> t = std::chrono::steady_clock::now() - start;
    if (last)
        *last = blk;
    return t.count();
}

timing measure_flowgraph(const block_factory& source,
                         std::size_t in_itemsize,
                         std::size_t out_itemsize,
                         double seconds,
                         const block_factory& make,
                         gr::basic_block_sptr* last)
{
    // Probe: start small (a slow CPU filter does 64 Ki samples in a fraction of a
    // second) and grow until start-up costs (threads, buffers, a GPU block's pinned
    // memory) are a small part of the time, so the rate estimate is trustworthy.
    std::uint64_t n = 1 << 16;
    double t = run_flowgraph(source, in_itemsize, out_itemsize, n, make, last);
    while (t < 0.25 * seconds) {
        const double grow = std::clamp(0.3 * seconds / std::max(t, 1e-6), 2.0, 64.0);
        n = static_cast<std::uint64_t>(n * grow);
        t = run_flowgraph(source, in_itemsize, out_itemsize, n, make, last);
    }
    // Measure: one run of about `seconds`; a second one when start-up still made the
    // estimate too low (the run came out much shorter than asked).
    timing m;
    if (t >= 0.5 * seconds) { // the probe was long enough: do not pay for it twice
        m.samples = n;
        m.seconds = t;
        return m;
    }
    for (int attempt = 0; attempt < 2; ++attempt) {
        const double rate = n / t;
        m.samples = std::max<std::uint64_t>(1 << 16, rate * seconds);
        m.seconds =
            run_flowgraph(source, in_itemsize, out_itemsize, m.samples, make, last);
        if (m.seconds >= 0.5 * seconds)
            break;
        n = m.samples;
        t = m.seconds;
    }
    return m;
}

timing measure_by_slope(const std::function<double(std::uint64_t)>& run,
                        double seconds,
                        std::string* note)
{
    std::uint64_t n = std::uint64_t(1) << 18;
    double t = run(n);
    const double enough = 2 * t + 0.5 * seconds;
    while (t < enough && n < (std::uint64_t(1) << 40)) {
        n = static_cast<std::uint64_t>(n *
                                       std::clamp(enough / std::max(t, 1e-6), 2.0, 64.0));
        t = run(n);
    }
    const std::uint64_t n3 = 3 * n;
    const double t3 = run(n3);
    const bool slope = t3 > t;
    timing m;
    m.samples = slope ? n3 - n : n3;
    m.seconds = slope ? t3 - t : t3;
    char text[96];
    std::snprintf(text,
                  sizeof text,
                  "%s (start-up and end %.3f s)",
                  slope ? "slope of two runs" : "one run",
                  slope ? t3 - (t3 - t) * 1.5 : 0.0);
    *note = text;
    return m;
}

row flowgraph_row(const options& o,
                  const row_label& label,
                  const block_factory& source,
                  std::size_t in_itemsize,
                  const block_factory& make,
                  std::size_t out_itemsize)
{
    gr::basic_block_sptr last;
    const timing t =
        measure_flowgraph(source, in_itemsize, out_itemsize, o.seconds, make, &last);
    row r;
    r.family = label.family;
    r.type = label.type;
    r.taps = label.taps;
    r.decimation = label.decimation;
    r.impl = label.impl;
    r.samples = t.samples;
    r.seconds = t.seconds;
    r.msps = t.msps();
    r.copy_family = label.family;
    if (!label.reference_impl.empty()) {
        r.reference_family = label.family;
        r.reference_impl = label.reference_impl;
    }
    std::printf("  %s %s taps=%d D=%d %-34s %10.2f MS/s\n",
                r.family.c_str(),
                r.type.c_str(),
                r.taps,
                r.decimation,
                r.impl.c_str(),
                r.msps);
    std::fflush(stdout);
    return r;
}

void mark_gpu_row(row& r, const gr::basic_block_sptr& block, const options& o)
{
    const auto gpu = std::dynamic_pointer_cast<gr::gpufilter::gpu_options>(block);
    r.on_gpu = gpu && gpu->on_gpu();
    r.note = r.on_gpu ? "GPU " + gpu->method() : "CPU fallback (no GPU)";
    const double in = in_bytes(r.type), out = out_bytes(r.type, r.decimation);
    r.bytes_per_sample = in + out;
    r.ceiling_msps = o.pcie_gbps * 1e9 / std::max(in, out) / 1e6;
    r.ceiling_kind = "pcie";
}

} // namespace bench
