/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_APPS_FLOWGRAPH_TIMER_H
#define INCLUDED_GPUFILTER_APPS_FLOWGRAPH_TIMER_H

// Times vector_source (repeat) -> head(N) -> block -> null_sink, with N grown until one
// run lasts about the requested time, so slow CPU cases (gr-filter's FIR at 16384 taps
// runs well under 1 MS/s) and fast ones (blocks.copy, GBs/s) cost the same wall time.

#include "bench.h"
#include <gnuradio/basic_block.h>
#include <gnuradio/block.h>
#include <gnuradio/gpufilter/device.h>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace bench {

//! Makes a fresh block for each run (GPU blocks keep state); nullptr: no block at all.
using block_factory = std::function<gr::basic_block_sptr()>;

struct timing {
    std::uint64_t samples = 0;
    double seconds = 0;
    bool on_gpu = false; // filled by the caller from the block
    double msps() const { return seconds > 0 ? samples / seconds / 1e6 : 0; }
};

//! As gpufilter.feed_whole_batches, when `blk` is a GPU block: `upstream` hands it
//! whole batches of `items` (a GPU block's input buffer is otherwise GNU Radio's
//! default, as gr-filter's). Other blocks keep the default buffer they were measured
//! with before GPU blocks stopped sizing the buffer in front themselves.
void feed_whole_batches(const gr::block_sptr& upstream,
                        const gr::basic_block_sptr& blk,
                        long items = gr::gpufilter::default_batch_size);

//! Wall time of tb->run() for n input samples; `source` makes a fresh repeating source.
//! `last` receives the block that ran.
double run_flowgraph(const block_factory& source,
                     std::size_t in_itemsize,
                     std::size_t out_itemsize,
                     std::uint64_t n,
                     const block_factory& make,
                     gr::basic_block_sptr* last);

//! Probes with growing N, then measures once for about `seconds`.
timing measure_flowgraph(const block_factory& source,
                         std::size_t in_itemsize,
                         std::size_t out_itemsize,
                         double seconds,
                         const block_factory& make,
                         gr::basic_block_sptr* last);

/*!
 * The rate of a flowgraph whose start-up is long (hundreds of block threads and their
 * buffers take a tenth to half a second): the slope between a run of n items and one
 * of 3n, start-up excluded, the shorter run lasting at least twice the first,
 * start-up-bound one plus half of `seconds`. run(n): seconds of a run of n items.
 * note: how it was measured, and the start-up and end seen.
 */
timing measure_by_slope(const std::function<double(std::uint64_t)>& run,
                        double seconds,
                        std::string* note);

//! Which row a flowgraph measurement fills.
struct row_label {
    std::string family; // "flowgraph" or "xlating": also the family of its copy row
    std::string type;
    int taps;
    int decimation;
    std::string impl;
    std::string reference_impl; // the gr-filter row it is compared with ("": none)
};

//! Times `make` between a fresh `source` of in_itemsize samples and a null sink
//! (measure_flowgraph), prints the rate, and returns the filled row.
row flowgraph_row(const options& o,
                  const row_label& label,
                  const block_factory& source,
                  std::size_t in_itemsize,
                  const block_factory& make,
                  std::size_t out_itemsize);

//! Marks a gr-gpufilter block's row: where it ran and with which algorithm, and its
//! PCIe ceiling (both directions at once: the busier one limits).
void mark_gpu_row(row& r, const gr::basic_block_sptr& block, const options& o);

//! A few MB of uniform random samples in [-1, 1), the same for every run of a type.
template <class T>
std::vector<T> random_samples(std::size_t n, unsigned seed)
{
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<T> v(n);
    for (auto& x : v) {
        if constexpr (std::is_same_v<T, float>)
            x = u(gen);
        else if constexpr (std::is_same_v<T, std::int16_t>)
            x = static_cast<std::int16_t>(32767.0f * u(gen)); // full scale
        else
            x = T(u(gen), u(gen));
    }
    return v;
}

} // namespace bench

#endif
