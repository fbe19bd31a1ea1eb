/* SPDX-License-Identifier: GPL-3.0-or-later */
// Xlating family: freq_xlating_fir_filter_ccf and hilbert_fc, gr-gpufilter's block vs
// gr-filter's, with blocks.copy of the same input type as the plumbing ceiling. The
// sizes are those of an FM receiver's channel filter and of an SSB demodulator.

#include "bench.h"
#include "flowgraph_timer.h"
#include <gnuradio/blocks/copy.h>
#include <gnuradio/blocks/vector_source.h>
#include <gnuradio/filter/firdes.h>
#include <gnuradio/filter/freq_xlating_fir_filter.h>
#include <gnuradio/filter/hilbert_fc.h>
#include <gnuradio/gpufilter/freq_xlating_fir_filter.h>
#include <gnuradio/gpufilter/hilbert_fc.h>
#include <cstdio>

namespace bench {
namespace {

constexpr std::size_t source_len = 1 << 19;

template <class In>
row measure(const options& o,
            const std::string& type,
            int taps,
            int decim,
            const std::string& impl,
            const std::string& reference_impl,
            const block_factory& make,
            std::size_t out_size)
{
    const auto data = random_samples<In>(source_len, 3);
    const auto source = [&data]() -> gr::basic_block_sptr {
        return gr::blocks::vector_source<In>::make(data, true);
    };
    const row_label label{ "xlating", type, taps, decim, impl, reference_impl };
    return flowgraph_row(o, label, source, sizeof(In), make, out_size);
}

} // namespace

void run_xlating_cases(const options& o, std::vector<row>& rows)
{
    using gr_complex = std::complex<float>;
    namespace gf = gr::gpufilter;
    namespace f = gr::filter;
    std::printf("xlating (%.2f s per measurement)\n", o.seconds);

    rows.push_back(measure<gr_complex>(
        o, "ccf", 0, 1, "blocks.copy", "", [] { return gr::blocks::copy::make(8); }, 8));
    const double fs = 2.4e6, fc = 412.5e3;
    std::vector<std::pair<int, int>> xl{ { 63, 4 }, { 255, 4 }, { 1023, 8 } };
    if (o.quick)
        xl.resize(1);
    for (const auto& [ntaps, decim] : xl) {
        auto taps = f::firdes::low_pass(1.0, fs, fs / (2.5 * decim), fs / (10.0 * decim));
        taps.resize(std::min<std::size_t>(taps.size(), ntaps));
        const int d = decim;
        gr::basic_block_sptr gpu;
        row g = measure<gr_complex>(
            o,
            "ccf",
            ntaps,
            d,
            "gpufilter freq_xlating_fir_filter",
            "gr-filter freq_xlating_fir_filter",
            [&] { return gpu = gf::freq_xlating_fir_filter_ccf::make(d, taps, fc, fs); },
            8);
        mark_gpu_row(g, gpu, o);
        rows.push_back(g);
        rows.push_back(measure<gr_complex>(
            o,
            "ccf",
            ntaps,
            d,
            "gr-filter freq_xlating_fir_filter",
            "gr-filter freq_xlating_fir_filter",
            [&] { return f::freq_xlating_fir_filter_ccf::make(d, taps, fc, fs); },
            8));
    }

    rows.push_back(measure<float>(
        o, "fc", 0, 1, "blocks.copy", "", [] { return gr::blocks::copy::make(4); }, 4));
    std::vector<int> hil{ 65, 257, 1025 };
    if (o.quick)
        hil.resize(1);
    const auto win = gr::fft::window::win_type::WIN_HAMMING;
    for (int ntaps : hil) {
        gr::basic_block_sptr gpu;
        row g = measure<float>(
            o,
            "fc",
            ntaps,
            1,
            "gpufilter hilbert_fc",
            "gr-filter hilbert_fc",
            [&] { return gpu = gf::hilbert_fc::make(ntaps, win, 6.76); },
            8);
        mark_gpu_row(g, gpu, o);
        rows.push_back(g);
        rows.push_back(measure<float>(
            o,
            "fc",
            ntaps,
            1,
            "gr-filter hilbert_fc",
            "gr-filter hilbert_fc",
            [&] { return f::hilbert_fc::make(ntaps, win, 6.76); },
            8));
    }
}

} // namespace bench
