/* SPDX-License-Identifier: GPL-3.0-or-later */
// Rational resampler family: the polyphase engine (rational_resampler_ccf's) on
// device-resident samples, timed with CUDA events, at the ratios and tap counts
// gr-filter designs for 3/2, 147/160 and 1/10, and as interp_fir_filter_ccf x4 with
// 64 and 256 taps; bytes in + out and FLOP per input sample against the roofline.

#include "bench.h"
#include "call_timer.h"
#include "common/resources.h"
#include "flowgraph_timer.h"
#include "resampler/rational_engine.h"
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace bench {
namespace cuda = gr::gpufilter::cuda;
namespace {

struct ratio_case {
    unsigned interpolation, decimation;
    int taps; // gr-filter's designed length for the ratio, or the interp FIR's
    const char* what;
};

void engine_row(const options& o,
                const device_info& dev,
                const ratio_case& c,
                std::vector<row>& rows)
{
    row r;
    r.family = "rational";
    r.type = "ccf";
    r.taps = c.taps;
    r.decimation = static_cast<int>(c.decimation);
    r.impl = std::string("gpufilter ") + c.what;
    r.on_gpu = true;
    const double rate = double(c.interpolation) / c.decimation;
    const int per_arm = (c.taps + c.interpolation - 1) / c.interpolation;
    r.bytes_per_sample = 8.0 + 8.0 * rate;    // per input sample
    r.flop_per_sample = rate * 4.0 * per_arm; // complex x real multiply-adds
    const double mem = dev.mem_bw / r.bytes_per_sample,
                 flop = dev.peak_fp32 / r.flop_per_sample;
    r.ceiling_msps = std::min(mem, flop) / 1e6;
    r.ceiling_kind = mem < flop ? "roofline (memory)" : "roofline (FP32)";
    try {
        const std::size_t n = o.quick ? std::size_t(1) << 16 : std::size_t(1) << 24;
        const auto taps = random_samples<float>(c.taps, 5);
        cuda::rational_engine<cuda::complex, cuda::complex, float> e(
            c.interpolation, c.decimation, taps, cuda::rational_start::first_window);
        cuda::device_buffer<cuda::complex> in(n), out(e.max_output_count(n));
        const auto host = random_samples<cuda::complex>(n, 4);
        GPUFILTER_CHECK(cudaMemcpy(
            in.get(), host.data(), n * sizeof(cuda::complex), cudaMemcpyHostToDevice));
        cuda::stream s;
        r.seconds = time_calls(
            o, s, [&](cudaStream_t st) { e.process(in.get(), n, out.get(), st); });
        r.samples = n;
        r.msps = n / r.seconds / 1e6;
        r.note = std::to_string(timed_calls(o)) + " calls of " + std::to_string(n) +
                 " inputs, median; MS/s of input";
    } catch (const std::exception& ex) {
        r.note = std::string("error: ") + ex.what();
    }
    std::printf("  rational ccf %-34s %9.1f MS/s in  (%.1f%% of %s)\n",
                r.impl.c_str(),
                r.msps,
                r.ceiling_msps > 0 ? 100.0 * r.msps / r.ceiling_msps : 0.0,
                r.ceiling_kind.c_str());
    std::fflush(stdout);
    rows.push_back(r);
}

} // namespace

void run_rational_cases(const options& o, const device_info& dev, std::vector<row>& rows)
{
    if (dev.count == 0) {
        std::printf("rational engine rows skipped: no usable CUDA device (%s)\n",
                    dev.why_none.c_str());
        return;
    }
    cuda::use_device(0);
    std::printf("rational resampler engine on %s\n", dev.name.c_str());
    const ratio_case cases[] = { { 3, 2, 99, "rational_resampler 3/2" },
                                 { 147, 160, 5292, "rational_resampler 147/160" },
                                 { 1, 10, 329, "rational_resampler 1/10" },
                                 { 4, 1, 64, "interp_fir_filter x4, 64 taps" },
                                 { 4, 1, 256, "interp_fir_filter x4, 256 taps" } };
    for (const auto& c : cases)
        engine_row(o, dev, c, rows);
}

} // namespace bench
