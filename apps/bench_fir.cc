/* SPDX-License-Identifier: GPL-3.0-or-later */
// bench_fir: gr-gpufilter's FIR blocks against GNU Radio's CPU blocks in one run.
// See docs/benchmarks.md for what each row measures and how its ceiling is computed.

#include "bench/bench.h"
#include <gnuradio/logger.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>
#include <stdexcept>

namespace {

const char* usage =
    "usage: bench_fir [--types ccf,fff,ccc] [--taps 16,64,256,1024,4096,16384]\n"
    "                 (--types also takes fcc and scc: real float or int16 samples,\n"
    "                 complex taps; not in the default)\n"
    "                 [--decimations 1,8]\n"
    "                 [--cases flowgraph,engine,xlating,pfb,pfb-ports,pfb-synthesis,\n"
    "                          arb,arb-engine,rational]\n"
    "                 [--pfb-channels 16,64,256,1024,4096] [--pfb-taps 4,8,16,32,64]\n"
    "                 (pfb: the channelizer engine, and the vector channelizer block\n"
    "                 in a flowgraph, complex and int8 input, beside gr-filter's and\n"
    "                 blocks.copy; taps per channel; not in the default --cases)\n"
    "                 (pfb-ports: pfb_channelizer_ccf with an output port per\n"
    "                 channel at 16/64/256 channels beside gr-filter's, GNU Radio's\n"
    "                 stream_to_streams and blocks.copy; not in the default --cases)\n"
    "                 (pfb-synthesis: the interpolator at interp 4/16/64 and the\n"
    "                 synthesizer at 16/64/256/1024 channels, engines and blocks beside\n"
    "                 gr-filter's and blocks.copy, in output samples/s; not default)\n"
    "                 (arb: the arbitrary resampler engine at rates 0.75 and 2.3421,\n"
    "                 32 filters, and the block in a flowgraph beside gr-filter's and\n"
    "                 blocks.copy of the same output bytes; not in the default;\n"
    "                 arb-engine: its engine rows only)\n"
    "                 (rational: the rational resampler engine at gr-filter's designs\n"
    "                 for 3/2, 147/160 and 1/10 and as an interpolating FIR x4, on\n"
    "                 device data against the roofline; not in the default)\n"
    "                 [--fft-sizes 8192,16384,...]  (engine rows of the FFT path at\n"
    "                 each size, to measure the size rule)\n"
    "                 [--kernel-variants]  (engine rows of the untiled direct kernel)\n"
    "                 [--partition-sizes 4096,8192] [--partition-groups 21,22,23]\n"
    "                 (engine rows of the partitioned FFT path above 8192 taps at each\n"
    "                 size, in groups of 2^k samples)\n"
    "                 [--cluster-sizes]  (engine rows above 8192 taps: the FFT path "
    "with\n"
    "                 its cluster kernel at 32768 points, sm_90 on, and without it)\n"
    "                 [--fft-groups 262144,...]  (engine rows of the FFT path with\n"
    "                 groups of about that many samples)\n"
    "                 [--seconds 0.5] [--pcie-gbps 50] [--csv FILE] [--json FILE]\n"
    "                 [--quick]\n"
    "Measures input samples per second of gr-gpufilter's FIR blocks in a flowgraph,\n"
    "of blocks.copy and gr-filter's FIR and FFT filters in the same flowgraph, of the\n"
    "FIR engine alone on device-resident data, and of the xlating/hilbert blocks.\n"
    "--seconds: wall time of each flowgraph measurement (N grows until it is reached).\n"
    "--pcie-gbps: PCIe bandwidth each way, for the ceiling of GPU blocks in a "
    "flowgraph.\n"
    "--quick: few, tiny cases (a smoke test); explicit options still apply.\n";

std::vector<std::string> split(const std::string& s)
{
    std::vector<std::string> v;
    std::stringstream ss(s);
    for (std::string item; std::getline(ss, item, ',');)
        if (!item.empty())
            v.push_back(item);
    return v;
}

std::vector<int> split_ints(const std::string& s, const char* name, int lo, int hi)
{
    std::vector<int> v;
    for (const auto& item : split(s)) {
        std::size_t used = 0;
        int x = 0;
        try {
            x = std::stoi(item, &used);
        } catch (const std::exception&) {
        }
        if (used != item.size() || x < lo || x > hi)
            throw std::invalid_argument(std::string(name) + ": '" + item +
                                        "' is not an integer in [" + std::to_string(lo) +
                                        ", " + std::to_string(hi) + "]");
        v.push_back(x);
    }
    return v;
}

// A finite number in [lo, hi] (NaN and infinity are refused: they would make a run
// that never ends or a ceiling that means nothing).
double parse_real(const std::string& text, const char* name, double lo, double hi)
{
    std::size_t used = 0;
    double x = 0;
    try {
        x = std::stod(text, &used);
    } catch (const std::exception&) {
    }
    if (used != text.size() || text.empty() || !std::isfinite(x) || x < lo || x > hi) {
        std::ostringstream range;
        range << name << ": '" << text << "' is not a finite number in [" << lo << ", "
              << hi << "]";
        throw std::invalid_argument(range.str());
    }
    return x;
}

void check_names(const std::vector<std::string>& v,
                 const std::set<std::string>& known,
                 const char* name)
{
    for (const auto& s : v)
        if (!known.count(s))
            throw std::invalid_argument(std::string(name) + ": unknown '" + s + "'");
}

bench::options parse(int argc, char** argv)
{
    bench::options o;
    bool taps_set = false, decim_set = false, seconds_set = false;
    for (int i = 0; i < argc; ++i)
        o.command_line += (i ? " " : "") + std::string(argv[i]);
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&]() -> std::string {
            if (i + 1 >= argc)
                throw std::invalid_argument(a + " needs a value");
            return argv[++i];
        };
        if (a == "--help" || a == "-h") {
            std::fputs(usage, stdout);
            std::exit(0);
        } else if (a == "--types") {
            o.types = split(value());
            check_names(o.types, { "ccf", "fff", "ccc", "fcc", "scc" }, "--types");
        } else if (a == "--taps") {
            o.taps = split_ints(value(), "--taps", 1, 1 << 16);
            taps_set = true;
        } else if (a == "--decimations") {
            o.decimations = split_ints(value(), "--decimations", 1, 1 << 16);
            decim_set = true;
        } else if (a == "--fft-groups") {
            const std::string groups = value();
            split_ints(groups, "--fft-groups", 1, 1 << 30); // checked, kept as text
            o.fft_groups = split(groups);
        } else if (a == "--kernel-variants") {
            o.kernel_variants = true;
        } else if (a == "--partition-sizes") {
            o.partition_sizes = split_ints(value(), "--partition-sizes", 4096, 8192);
        } else if (a == "--partition-groups") {
            o.partition_groups = split_ints(value(), "--partition-groups", 10, 30);
        } else if (a == "--cluster-sizes") {
            o.cluster_rows = true;
        } else if (a == "--fft-sizes") {
            o.fft_sizes = split_ints(value(), "--fft-sizes", 2, 1 << 22);
        } else if (a == "--cases") {
            o.cases = split(value());
            check_names(o.cases,
                        { "flowgraph",
                          "engine",
                          "xlating",
                          "pfb",
                          "pfb-ports",
                          "pfb-synthesis",
                          "arb",
                          "arb-engine",
                          "rational" },
                        "--cases");
        } else if (a == "--pfb-channels") {
            o.pfb_channels = split_ints(value(), "--pfb-channels", 1, 1 << 16);
        } else if (a == "--pfb-taps") {
            o.pfb_taps = split_ints(value(), "--pfb-taps", 1, 1 << 12);
        } else if (a == "--seconds") {
            o.seconds = parse_real(value(), "--seconds", 1e-3, 3600);
            seconds_set = true;
        } else if (a == "--pcie-gbps") {
            o.pcie_gbps = parse_real(value(), "--pcie-gbps", 0.1, 10000);
        } else if (a == "--csv") {
            o.csv = value();
        } else if (a == "--json") {
            o.json = value();
        } else if (a == "--quick") {
            o.quick = true;
        } else {
            throw std::invalid_argument("unknown argument '" + a + "'\n" + usage);
        }
    }
    if (o.quick) {
        if (!taps_set)
            o.taps = { 16, 256 };
        if (!decim_set)
            o.decimations = { 1, 8 };
        if (!seconds_set)
            o.seconds = 0.02;
    }
    return o;
}

} // namespace

bool bench::options::has_case(const std::string& c) const
{
    for (const auto& x : cases)
        if (x == c)
            return true;
    return false;
}

int main(int argc, char** argv)
{
    try {
        const bench::options o = parse(argc, argv);
        const bench::device_info dev = bench::query_device();
        std::printf("bench_fir on %s, %s\n", dev.name.c_str(), bench::now_utc().c_str());
        const char* require = std::getenv("GPUFILTER_REQUIRE_GPU");
        if (dev.count == 0 && require && std::string(require) == "1")
            // Fail before minutes of CPU-only rows, not at the first GPU block.
            throw std::runtime_error(
                "GPUFILTER_REQUIRE_GPU=1 but no usable CUDA device: " + dev.why_none);
        if (dev.count == 0) {
            std::printf("no usable CUDA device (%s): gpufilter blocks run their CPU "
                        "fallback (rows say so), engine rows are skipped\n",
                        dev.why_none.c_str());
            // Each fallback block would log the same warning; this line said it once.
            gr::logging::singleton().set_default_level(gr::log_level::err);
        }
        std::vector<bench::row> rows;
        if (o.has_case("flowgraph"))
            bench::run_flowgraph_cases(o, rows);
        if (o.has_case("engine"))
            bench::run_engine_cases(o, dev, rows);
        if (o.has_case("xlating"))
            bench::run_xlating_cases(o, rows);
        if (o.has_case("pfb"))
            bench::run_pfb_cases(o, dev, rows);
        if (o.has_case("pfb-ports"))
            bench::run_pfb_port_cases(o, rows);
        if (o.has_case("pfb-synthesis"))
            bench::run_pfb_synthesis_cases(o, dev, rows);
        if (o.has_case("arb") || o.has_case("arb-engine"))
            bench::run_arb_cases(o, dev, rows);
        if (o.has_case("rational"))
            bench::run_rational_cases(o, dev, rows);
        bench::derive(rows);
        std::printf("\n");
        bench::print_table(o, dev, rows);
        if (!o.csv.empty())
            bench::write_csv(o, dev, rows);
        if (!o.json.empty())
            bench::write_json(o, dev, rows);
        for (const auto& r : rows)
            if (r.note.rfind("error", 0) == 0)
                return 1; // a failed row must not look like a good run
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_fir: %s\n", e.what());
        return 1;
    }
}
