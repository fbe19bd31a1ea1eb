/* SPDX-License-Identifier: GPL-3.0-or-later */
// Flowgraph family: source -> head -> X -> null_sink with X one of gr-gpufilter's FIR,
// gr-filter's FIR and FFT filters, blocks.copy (the plumbing ceiling), or nothing.

#include "bench.h"
#include "flowgraph_timer.h"
#include <gnuradio/blocks/copy.h>
#include <gnuradio/blocks/vector_source.h>
#include <gnuradio/filter/fft_filter_ccc.h>
#include <gnuradio/filter/fft_filter_ccf.h>
#include <gnuradio/filter/fft_filter_fff.h>
#include <gnuradio/filter/fir_filter_blk.h>
#include <gnuradio/gpufilter/fir_filter.h>
#include <gnuradio/gpufilter/transfer.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace bench {
namespace {

constexpr std::size_t source_len = 1 << 19; // 2-4 MB: a few MB, as the issue asks

template <class In, class Out, class Tap, class GrFir, class GrFft, class GpuFir>
void one_type(const std::string& type, const options& o, std::vector<row>& rows)
{
    const auto data = random_samples<In>(source_len, 1);
    const auto source = [&data]() -> gr::basic_block_sptr {
        return gr::blocks::vector_source<In>::make(data, true);
    };
    const auto add = [&](int taps,
                         int decim,
                         const std::string& impl,
                         const block_factory& make,
                         std::size_t out_size) -> row& {
        const row_label label{
            "flowgraph", type, taps, decim, impl, taps > 0 ? "gr-filter fir_filter" : ""
        };
        rows.push_back(flowgraph_row(o, label, source, sizeof(In), make, out_size));
        return rows.back();
    };

    add(0, 1, "none (source->head->sink)", nullptr, sizeof(In));
    add(
        0,
        1,
        "blocks.copy",
        [] { return gr::blocks::copy::make(sizeof(In)); },
        sizeof(In));

    const int most = o.taps.empty() ? 0 : *std::max_element(o.taps.begin(), o.taps.end());
    const auto taps_all = random_samples<Tap>(most, 2);
    for (int ntaps : o.taps) {
        const std::vector<Tap> taps(taps_all.begin(), taps_all.begin() + ntaps);
        for (int d : o.decimations) {
            gr::basic_block_sptr gpu;
            row& g = add(
                ntaps,
                d,
                "gpufilter fir_filter",
                [&] { return gpu = GpuFir::make(d, taps); },
                sizeof(Out));
            mark_gpu_row(g, gpu, o);
            if (d == 1 && g.on_gpu) {
                // The other host path: pinned staging instead of in-place DMA.
                gr::gpufilter::set_host_transfer(
                    gr::gpufilter::host_transfer::pinned_staging);
                row& st = add(
                    ntaps,
                    d,
                    "gpufilter fir_filter (staged)",
                    [&] { return gpu = GpuFir::make(d, taps); },
                    sizeof(Out));
                gr::gpufilter::set_host_transfer(
                    gr::gpufilter::host_transfer::dma_in_place);
                mark_gpu_row(st, gpu, o);
            }
            add(
                ntaps,
                d,
                "gr-filter fir_filter",
                [&] { return GrFir::make(d, taps); },
                sizeof(Out));
            add(
                ntaps,
                d,
                "gr-filter fft_filter",
                [&] { return GrFft::make(d, taps, 1); },
                sizeof(Out));
        }
    }
}

} // namespace

void run_flowgraph_cases(const options& o, std::vector<row>& rows)
{
    using gr_complex = std::complex<float>;
    for (const auto& type : o.types) {
        std::printf("flowgraph %s (%.2f s per measurement)\n", type.c_str(), o.seconds);
        if (type == "ccf")
            one_type<gr_complex,
                     gr_complex,
                     float,
                     gr::filter::fir_filter_ccf,
                     gr::filter::fft_filter_ccf,
                     gr::gpufilter::fir_filter_ccf>(type, o, rows);
        else if (type == "fff")
            one_type<float,
                     float,
                     float,
                     gr::filter::fir_filter_fff,
                     gr::filter::fft_filter_fff,
                     gr::gpufilter::fir_filter_fff>(type, o, rows);
        else if (type == "ccc")
            one_type<gr_complex,
                     gr_complex,
                     gr_complex,
                     gr::filter::fir_filter_ccc,
                     gr::filter::fft_filter_ccc,
                     gr::gpufilter::fir_filter_ccc>(type, o, rows);
    }
}

} // namespace bench
