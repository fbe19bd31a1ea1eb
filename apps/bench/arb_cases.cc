/* SPDX-License-Identifier: GPL-3.0-or-later */
// Arbitrary resampler family: the engine on device-resident samples (ccf and fff,
// 32 filters, rates 0.75 and 2.3421), timed two ways with CUDA events: the GPU's
// work alone (the host's schedule made before the timed span) and a whole process()
// call (the host's float schedule included); bytes in + bytes out per input sample
// against the memory roofline. And the block in a flowgraph beside gr-filter's
// pfb_arb_resampler_ccf and blocks.copy of the same output bytes.

#include "bench.h"
#include "call_timer.h"
#include "common/resources.h"
#include "flowgraph_timer.h"
#include "pfb/pfb_arb_resampler_engine.h"
#include <gnuradio/blocks/copy.h>
#include <gnuradio/blocks/vector_source.h>
#include <gnuradio/filter/pfb_arb_resampler_ccf.h>
#include <gnuradio/gpufilter/pfb_arb_resampler.h>
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <sstream>
#include <vector>

namespace bench {
namespace cuda = gr::gpufilter::cuda;
namespace {

constexpr unsigned nfilts = 32;
// gr-filter's pfb.arb_resampler_ccf designs 819 taps at 2.3421 and 969 at 0.75 (32
// filters, 100 dB): 26 and 31 per filter. The rows use random taps of those lengths.
int design_length(float rate) { return rate >= 1.0f ? 819 : 969; }

std::string rate_text(float rate)
{
    std::ostringstream s;
    s << rate;
    return s.str();
}

//! Holds a stream until released: what is queued behind it runs back to back.
void CUDART_CB hold(void* flag)
{
    auto* f = static_cast<std::atomic<bool>*>(flag);
    while (!f->load())
        ;
}

template <class T>
void engine_row(const options& o,
                const device_info& dev,
                const std::string& type,
                float rate,
                bool gpu_only,
                int per_thread,
                std::vector<row>& rows,
                int arm_group = 0)
{
    row r;
    r.family = "arb";
    r.type = type;
    r.taps = design_length(rate);
    r.decimation = 1;
    // k: the kernel with that many consecutive outputs per thread (the engine's
    // set_outputs_per_thread); the rows without k are the engine's choice by the rate.
    r.impl = "gpufilter pfb_arb_resampler r=" + rate_text(rate) +
             (per_thread > 0 ? " k=" + std::to_string(per_thread) : std::string()) +
             (arm_group > 0 ? " g=" + std::to_string(arm_group) : std::string()) +
             (gpu_only ? " (GPU work)" : " (with host schedule)");
    r.on_gpu = true;
    const double item = sizeof(T);
    r.bytes_per_sample = item + item * rate; // per input sample
    const int T_arm = (r.taps + nfilts - 1) / nfilts;
    r.flop_per_sample = rate * (item == 8 ? 8.0 : 4.0) * T_arm;
    r.ceiling_msps =
        std::min(dev.mem_bw / r.bytes_per_sample, dev.peak_fp32 / r.flop_per_sample) /
        1e6;
    r.ceiling_kind = "roofline (memory)";
    int launched = 0; // outputs per thread of the kernel that ran
    std::string kernel;
    try {
        const std::size_t n = o.quick ? std::size_t(1) << 16 : std::size_t(1) << 24;
        const auto taps = random_samples<float>(r.taps, 5);
        cuda::pfb_arb_resampler_engine<T> e(rate, taps, nfilts);
        e.set_outputs_per_thread(per_thread);
        e.set_arm_group(arm_group);
        cuda::device_buffer<T> in(n);
        cuda::device_buffer<T> out(e.max_output_count(n));
        {
            std::vector<T> host;
            if constexpr (std::is_same_v<T, float>)
                host = random_samples<float>(n, 4);
            else
                host = random_samples<cuda::complex>(n, 4);
            GPUFILTER_CHECK(
                cudaMemcpy(in.get(), host.data(), n * sizeof(T), cudaMemcpyHostToDevice));
        }
        const void* src[] = { in.get() };
        void* dst[] = { out.get() };
        cuda::stream s;
        // One call first, unheld: it allocates the engine's checkpoint buffers, which
        // must not happen while hold() keeps the stream.
        e.process(src, n, dst, s);
        s.synchronize();
        cuda::event start(cuda::event_use::timing), stop(cuda::event_use::timing);
        const int warmup = 2, reps = timed_calls(o);
        std::vector<float> ms;
        for (int i = 0; i < warmup + reps; ++i) {
            std::atomic<bool> go{ !gpu_only };
            if (gpu_only)
                GPUFILTER_CHECK(cudaLaunchHostFunc(s, hold, &go));
            start.record(s);
            e.process(src, n, dst, s);
            stop.record(s);
            go = true;
            stop.synchronize();
            float t;
            GPUFILTER_CHECK(cudaEventElapsedTime(&t, start, stop));
            if (i >= warmup)
                ms.push_back(t);
        }
        r.samples = n;
        r.seconds = median(ms) / 1e3;
        r.msps = n / r.seconds / 1e6;
        launched = e.launched_outputs_per_thread();
        kernel = e.launched_kernel();
        r.note = std::to_string(reps) + " calls of " + std::to_string(n) +
                 " inputs, median; MS/s of input; " + kernel + " kernel of " +
                 std::to_string(launched) + " outputs per thread";
    } catch (const std::exception& ex) {
        r.note = std::string("error: ") + ex.what();
    }
    std::printf("  arb %s %-56s %9.1f MS/s in  (%.1f%% of %s; %s, %d per thread)\n",
                type.c_str(),
                r.impl.c_str(),
                r.msps,
                r.ceiling_msps > 0 ? 100.0 * r.msps / r.ceiling_msps : 0.0,
                r.ceiling_kind.c_str(),
                kernel.c_str(),
                launched);
    std::fflush(stdout);
    rows.push_back(r);
}

//! The block in a flowgraph, complex, 32 filters: MS/s of output beside blocks.copy
//! of complex items (the same output bytes) and gr-filter's block.
void run_arb_flowgraph_cases(const options& o, float rate, std::vector<row>& rows)
{
    const std::string family = "arb-flowgraph r=" + rate_text(rate);
    constexpr std::size_t source_len = 1 << 19;
    const auto data = random_samples<gr_complex>(source_len, 6);
    const block_factory source = [&] {
        return gr::blocks::vector_source<gr_complex>::make(data, true);
    };
    const int ntaps = design_length(rate);
    const auto taps = random_samples<float>(ntaps, 5);
    const std::size_t c = sizeof(gr_complex);
    std::printf("arbitrary resampler in a flowgraph, rate %g (%.2f s per measurement)\n",
                rate,
                o.seconds);
    const row_label copy_label{ family, "ccf", 0, 1, "blocks.copy", "" };
    rows.push_back(flowgraph_row(
        o, copy_label, source, c, [] { return gr::blocks::copy::make(c); }, c));

    gr::basic_block_sptr blk;
    const std::string gr_impl = "gr-filter pfb_arb_resampler_ccf";
    const row_label ours{ family, "ccf", ntaps, 1, "gpufilter pfb_arb_resampler_ccf",
                          gr_impl };
    row g = flowgraph_row(
        o,
        ours,
        source,
        c,
        [&] {
            return blk = gr::gpufilter::pfb_arb_resampler_ccf::make(rate, taps, nfilts);
        },
        c);
    mark_gpu_row(g, blk, o);
    g.msps *= rate; // output samples: compared with blocks.copy's items
    g.bytes_per_sample = c + c * rate;
    g.ceiling_msps = o.pcie_gbps * 1e9 / (c * std::max(1.0f, rate)) / 1e6 * rate;
    g.note += "; MS/s of output";
    // flowgraph_row printed the input rate; the table compares output rates.
    std::printf("    (%s: %.2f MS/s of output)\n", g.impl.c_str(), g.msps);
    rows.push_back(g);

    const row_label theirs{ family, "ccf", ntaps, 1, gr_impl, "" };
    row t = flowgraph_row(
        o,
        theirs,
        source,
        c,
        [&] { return gr::filter::pfb_arb_resampler_ccf::make(rate, taps, nfilts); },
        c);
    t.msps *= rate;
    t.note = "MS/s of output";
    std::printf("    (%s: %.2f MS/s of output)\n", t.impl.c_str(), t.msps);
    rows.push_back(t);
}

} // namespace

void run_arb_cases(const options& o, const device_info& dev, std::vector<row>& rows)
{
    // "arb-engine" alone: the engine rows only, e.g. for a profiler that should see
    // the engine's launches first.
    if (o.has_case("arb"))
        for (const float rate : { 0.75f, 2.3421f })
            run_arb_flowgraph_cases(o, rate, rows);
    if (dev.count == 0) {
        std::printf("arb engine rows skipped: no usable CUDA device (%s)\n",
                    dev.why_none.c_str());
        return;
    }
    cuda::use_device(0);
    std::printf("arbitrary resampler engine on %s\n", dev.name.c_str());
    std::fflush(stdout);
    for (const float rate : { 0.75f, 2.3421f })
        for (const bool gpu_only : { true, false }) {
            engine_row<cuda::complex>(o, dev, "ccf", rate, gpu_only, 0, rows);
            engine_row<float>(o, dev, "fff", rate, gpu_only, 0, rows);
        }
    // The same GPU work with each kernel: one output per thread, or K consecutive
    // ones, after the default rows (a profiler's first launches stay the default's).
    for (const float rate : { 0.75f, 2.3421f })
        for (const int k : { 1, 2, 4, 8 }) {
            engine_row<cuda::complex>(o, dev, "ccf", rate, true, k, rows);
            engine_row<float>(o, dev, "fff", rate, true, k, rows);
        }
    // The stationary kernel forced, with groups of 1, 4 and 8 threads a sample.
    for (const float rate : { 0.75f, 2.3421f })
        for (const int g : { 1, 4, 8 }) {
            engine_row<cuda::complex>(o, dev, "ccf", rate, true, 0, rows, g);
            engine_row<float>(o, dev, "fff", rate, true, 0, rows, g);
        }
}

} // namespace bench
