/* SPDX-License-Identifier: GPL-3.0-or-later */
// PFB family: the polyphase channelizer engine alone on device-resident data, timed
// with CUDA events: input samples per second against channels and taps per channel,
// for both output layouts (one stream per channel, one vector port).

#include "bench.h"
#include "common/resources.h"
#include "flowgraph_timer.h"
#include "pfb/pfb_channelizer_engine.h"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace bench {
namespace cuda = gr::gpufilter::cuda;
namespace {

double median(std::vector<float> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

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
    // Per input sample: 8 bytes in, 8*os out; the FFT rows are written, transformed in
    // place (read + write) and read again by the stream layout's transpose.
    const double os = oversample;
    r.bytes_per_sample = 8 + 8 * os + (vec ? 8 * os : 24 * os);
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
        cuda::event start(true), stop(true);
        const int warmup = 2, reps = o.quick ? 3 : 7;
        std::vector<float> ms;
        for (int i = 0; i < warmup + reps; ++i) {
            engine.reset(s);
            start.record(s);
            engine.process(src, n, ports.data(), s);
            stop.record(s);
            stop.synchronize();
            float t;
            GPUFILTER_CHECK(cudaEventElapsedTime(&t, start, stop));
            if (i >= warmup)
                ms.push_back(t);
        }
        r.samples = n;
        r.seconds = median(ms) / 1e3;
        r.msps = n / r.seconds / 1e6;
        r.note = std::to_string(reps) + " calls of " + std::to_string(n) + ", median";
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

} // namespace

void run_pfb_cases(const options& o, const device_info& dev, std::vector<row>& rows)
{
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
