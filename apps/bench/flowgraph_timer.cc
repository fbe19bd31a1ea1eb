/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "flowgraph_timer.h"
#include <gnuradio/blocks/head.h>
#include <gnuradio/blocks/null_sink.h>
#include <gnuradio/top_block.h>
#include <algorithm>
#include <chrono>

namespace bench {

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

} // namespace bench
