/* SPDX-License-Identifier: GPL-3.0-or-later */
// PFB family: the polyphase channelizer engine alone on device-resident data, timed
// with CUDA events: input samples per second against channels and taps per channel,
// for both output layouts (one stream per channel, one vector port). And the vector
// channelizer block in a flowgraph (complex and int8 IQ input) beside gr-filter's
// stream_to_streams -> pfb_channelizer_ccf and blocks.copy of the same input bytes.

#include "bench.h"
#include "call_timer.h"
#include "common/resources.h"
#include "flowgraph_timer.h"
#include "pfb/pfb_channelizer_engine.h"
#include "pfb/pfb_tuning.h"
#include <gnuradio/blocks/copy.h>
#include <gnuradio/blocks/stream_to_streams.h>
#include <gnuradio/blocks/streams_to_vector.h>
#include <gnuradio/blocks/vector_source.h>
#include <gnuradio/filter/pfb_channelizer_ccf.h>
#include <gnuradio/gpufilter/pfb_channelizer_vcf.h>
#include <gnuradio/hier_block2.h>
#include <gnuradio/io_signature.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace bench {
namespace cuda = gr::gpufilter::cuda;
namespace {

void pfb_row(const options& o,
             const device_info& dev,
             unsigned nchans,
             int taps_per_channel,
             float oversample,
             cuda::pfb_layout layout,
             const cuda::device_buffer<cuda::complex>& in,
             cuda::device_buffer<cuda::complex>& out,
             std::vector<row>& rows)
{
    const bool vec = layout == cuda::pfb_layout::vector;
    row r;
    r.family = "pfb";
    r.type = "ccf";
    r.taps = static_cast<int>(nchans) * taps_per_channel;
    r.impl = std::string("gpufilter pfb_channelizer (") + (vec ? "vector" : "streams") +
             ", os=" + std::to_string(static_cast<int>(oversample)) + ")";
    r.on_gpu = true;
    // Per input sample: 8 bytes in, 8*os out. The fused kernel (the branch FIR and the
    // FFT in one pass) writes the vector port directly, and the rows that the stream
    // layout's transpose reads again; the two passes write the FFT rows and transform
    // them (read + write) before that.
    const double os = oversample;
    const bool fused = cuda::pfb_fused_for(cuda::pfb_tuning_for_device(),
                                           static_cast<int>(nchans),
                                           static_cast<int>(nchans / oversample),
                                           taps_per_channel);
    r.bytes_per_sample =
        8 + 8 * os + (fused ? (vec ? 0 : 16 * os) : (vec ? 8 * os : 24 * os));
    r.flop_per_sample = 4.0 * taps_per_channel * os + 5.0 * std::log2(nchans) * os;
    r.ceiling_msps =
        std::min(dev.mem_bw / r.bytes_per_sample, dev.peak_fp32 / r.flop_per_sample) /
        1e6;
    r.ceiling_kind = dev.mem_bw / r.bytes_per_sample < dev.peak_fp32 / r.flop_per_sample
                         ? "roofline (memory)"
                         : "roofline (fp32)";
    try {
        const auto taps = random_samples<float>(r.taps, 5);
        cuda::pfb_channelizer_engine<cuda::complex> engine(
            nchans, taps, oversample, layout);
        r.decimation = engine.rate_ratio();
        const std::size_t n = in.size();
        const std::size_t steps = engine.max_output_count(n);
        if (steps * nchans > out.size())
            throw std::logic_error("output buffer too small");
        std::vector<void*> ports;
        if (vec)
            ports.push_back(out.get());
        else
            for (unsigned k = 0; k < nchans; ++k)
                ports.push_back(out.get() + k * steps);
        const void* src[] = { in.get() };
        cuda::stream s;
        r.samples = n;
        r.seconds = time_calls(
            o,
            s,
            [&](cudaStream_t st) { engine.reset(st); },
            [&](cudaStream_t st) { engine.process(src, n, ports.data(), st); });
        r.msps = n / r.seconds / 1e6;
        r.note = std::to_string(timed_calls(o)) + " calls of " + std::to_string(n) +
                 ", median";
    } catch (const std::exception& e) {
        r.note = std::string("error: ") + e.what();
    }
    std::printf("  pfb chans=%-5u taps/chan=%-3d %-40s %8.3f GS/s  %s\n",
                nchans,
                taps_per_channel,
                r.impl.c_str(),
                r.msps / 1e3,
                r.note.c_str());
    std::fflush(stdout);
    rows.push_back(r);
}

//! gr-filter's channelizer as a block with one input and one vector output, the
//! vector channelizer's ports: stream_to_streams -> pfb_channelizer_ccf ->
//! streams_to_vector.
gr::basic_block_sptr gr_filter_channelizer(unsigned nchans,
                                           const std::vector<float>& taps)
{
    const std::size_t c = sizeof(gr_complex);
    auto hb = gr::make_hier_block2("gr_filter_channelizer",
                                   gr::io_signature::make(1, 1, c),
                                   gr::io_signature::make(1, 1, c * nchans));
    auto s2ss = gr::blocks::stream_to_streams::make(c, nchans);
    auto pfb = gr::filter::pfb_channelizer_ccf::make(nchans, taps, 1.0f);
    auto s2v = gr::blocks::streams_to_vector::make(c, nchans);
    hb->connect(hb, 0, s2ss, 0);
    for (unsigned i = 0; i < nchans; ++i) {
        hb->connect(s2ss, i, pfb, i);
        hb->connect(pfb, i, s2v, i);
    }
    hb->connect(s2v, 0, hb, 0);
    return hb;
}

//! The vector channelizer in a flowgraph, oversample rate 1: types "ccf" (complex
//! input) and "sc8" (int8 IQ pairs, 2 bytes an item), each with blocks.copy of its
//! input bytes; gr-filter's channelizer (up to 256 channels: one thread per channel).
void run_pfb_flowgraph_cases(const options& o, std::vector<row>& rows)
{
    const std::string family = "pfb-flowgraph";
    constexpr std::size_t source_len = 1 << 19;
    const auto complex_data = random_samples<gr_complex>(source_len, 6);
    std::vector<std::int16_t> iq8(source_len); // an int8 I/Q pair per item
    {
        std::mt19937 gen(7);
        for (auto& v : iq8)
            v = static_cast<std::int16_t>(gen());
    }
    const block_factory complex_source = [&] {
        return gr::blocks::vector_source<gr_complex>::make(complex_data, true);
    };
    const block_factory int8_source = [&] {
        return gr::blocks::vector_source<std::int16_t>::make(iq8, true);
    };
    const auto add = [&](const std::string& type,
                         int taps,
                         int decim,
                         const std::string& impl,
                         const std::string& reference,
                         const block_factory& make,
                         std::size_t out_size) -> row& {
        const bool c = type == "ccf";
        const row_label label{ family, type, taps, decim, impl, reference };
        rows.push_back(flowgraph_row(o,
                                     label,
                                     c ? complex_source : int8_source,
                                     c ? sizeof(gr_complex) : 2,
                                     make,
                                     out_size));
        return rows.back();
    };
    const auto mark = [&](row& r, const gr::basic_block_sptr& blk, double in_bytes) {
        const auto gpu = std::dynamic_pointer_cast<gr::gpufilter::gpu_options>(blk);
        r.on_gpu = gpu && gpu->on_gpu();
        r.note = r.on_gpu ? "GPU " + gpu->method() : "CPU fallback (no GPU)";
        r.bytes_per_sample = in_bytes + 8; // oversample rate 1: 8 bytes out per input
        r.ceiling_msps = o.pcie_gbps * 1e9 / std::max(in_bytes, 8.0) / 1e6;
        r.ceiling_kind = "pcie";
    };

    std::printf("pfb channelizer in a flowgraph (%.2f s per measurement)\n", o.seconds);
    add(
        "ccf",
        0,
        1,
        "blocks.copy",
        "",
        [] { return gr::blocks::copy::make(sizeof(gr_complex)); },
        sizeof(gr_complex));
    add(
        "sc8", 0, 1, "blocks.copy", "", [] { return gr::blocks::copy::make(2); }, 2);
    for (const int nchans : o.pfb_channels) {
        const auto n = static_cast<unsigned>(nchans);
        const std::size_t out = n * sizeof(gr_complex);
        for (const int t : o.pfb_taps) {
            const auto taps = random_samples<float>(n * t, 5);
            const int ntaps = nchans * t;
            const std::string gr_impl = "gr-filter s2ss+pfb_channelizer";
            for (const std::string type : { "ccf", "sc8" }) {
                gr::basic_block_sptr blk;
                const std::string format = type == "ccf" ? "complex" : "int8";
                row& g = add(
                    type,
                    ntaps,
                    nchans,
                    "gpufilter pfb_channelizer_vcf",
                    type == "ccf" ? gr_impl : "",
                    [&] {
                        return blk = gr::gpufilter::pfb_channelizer_vcf::make(
                                   n, taps, 1.0f, format);
                    },
                    out);
                mark(g, blk, type == "ccf" ? 8.0 : 2.0);
            }
            if (nchans <= 256)
                add(
                    "ccf",
                    ntaps,
                    nchans,
                    gr_impl,
                    "",
                    [&] { return gr_filter_channelizer(n, taps); },
                    out);
        }
    }
}

} // namespace

void run_pfb_cases(const options& o, const device_info& dev, std::vector<row>& rows)
{
    run_pfb_flowgraph_cases(o, rows);
    if (dev.count == 0) {
        std::printf("pfb rows skipped: no usable CUDA device (%s)\n",
                    dev.why_none.c_str());
        return;
    }
    cuda::use_device(0);
    std::printf("pfb channelizer engine on %s\n", dev.name.c_str());
    // 2^24 input samples per call, as the FIR engine rows; outputs: os times as many.
    const std::size_t n = o.quick ? std::size_t(1) << 16 : std::size_t(1) << 24;
    const float most_os = 2.0f;
    cuda::device_buffer<cuda::complex> in(n);
    cuda::device_buffer<cuda::complex> out(static_cast<std::size_t>(n * most_os) + 8192);
    {
        const auto block =
            random_samples<cuda::complex>(std::min<std::size_t>(n, 1 << 20), 4);
        for (std::size_t at = 0; at < n; at += block.size())
            GPUFILTER_CHECK(
                cudaMemcpy(in.get() + at,
                           block.data(),
                           std::min(block.size(), n - at) * sizeof(cuda::complex),
                           cudaMemcpyHostToDevice));
    }
    for (const int nchans : o.pfb_channels)
        for (const int t : o.pfb_taps)
            for (const float os : { 1.0f, most_os })
                for (const auto layout :
                     { cuda::pfb_layout::vector, cuda::pfb_layout::streams })
                    if (layout == cuda::pfb_layout::vector || nchans <= 1024)
                        pfb_row(o, dev, nchans, t, os, layout, in, out, rows);
}

} // namespace bench
