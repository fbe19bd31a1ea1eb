/* SPDX-License-Identifier: GPL-3.0-or-later */
// Ratios between rows, and the three outputs: the table, CSV and JSON. The CSV schema
// is shared with apps/bench_cupy.py and read by apps/plot_benchmarks.py.

#include "bench.h"
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace bench {

double in_bytes(const std::string& type)
{
    return type[0] == 'c' ? 8 : type[0] == 's' ? 2 : 4;
}

double out_bytes(const std::string& type, int decimation)
{
    return (type[1] == 'c' ? 8.0 : 4.0) / decimation;
}

std::string now_utc()
{
    char buf[32];
    const std::time_t t = std::time(nullptr);
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

void derive(std::vector<row>& rows)
{
    const auto find = [&rows](const std::string& family,
                              const std::string& type,
                              int taps,
                              int decim,
                              const std::string& impl) -> const row* {
        for (const auto& r : rows)
            if (r.family == family && r.type == type && r.taps == taps &&
                r.decimation == decim && r.impl == impl && r.msps > 0)
                return &r;
        return nullptr;
    };
    for (auto& r : rows) {
        if (r.msps <= 0)
            continue;
        if (!r.reference_impl.empty())
            if (auto ref = find(
                    r.reference_family, r.type, r.taps, r.decimation, r.reference_impl))
                r.speedup = r.msps / ref->msps;
        if (!r.copy_family.empty())
            if (auto c = find(r.copy_family, r.type, 0, 1, "blocks.copy"))
                r.vs_copy = r.msps / c->msps;
        if (r.ceiling_msps > 0)
            r.fraction = r.msps / r.ceiling_msps;
    }
}

namespace {

std::string fmt(const char* f, double v)
{
    if (v <= 0 || !std::isfinite(v))
        return "-";
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

//! Engine rows in GS/s, flowgraph rows in MS/s: each in the unit that reads well.
std::string rate(const row& r, double msps)
{
    return r.family == "engine" ? fmt("%.3f GS/s", msps / 1e3) : fmt("%.2f MS/s", msps);
}

void header(std::ostream& os, const options& o, const device_info& dev)
{
    os << "# bench_fir: gr-gpufilter's filters vs GNU Radio's, input samples per "
          "second\n";
    os << "# gpu: " << dev.name;
    if (dev.count)
        os << " (memory " << fmt("%.0f", dev.mem_bw / 1e9) << " GB/s, fp32 "
           << fmt("%.1f", dev.peak_fp32 / 1e12) << " TFLOP/s)";
    else
        os << " (" << dev.why_none << ")";
    os << "\n# date: " << now_utc() << "\n# command: " << o.command_line << "\n";
}

std::string csv_field(const std::string& s)
{
    if (s.find_first_of(",\"\n") == std::string::npos)
        return s;
    std::string q = "\"";
    for (char c : s)
        q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

std::string json_string(const std::string& s)
{
    std::string q = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            q += '\\';
        if (static_cast<unsigned char>(c) < 0x20)
            q += ' ';
        else
            q += c;
    }
    return q + "\"";
}

std::string num(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", std::isfinite(v) ? v : 0.0);
    return buf;
}

} // namespace

void print_table(const options& o, const device_info& dev, const std::vector<row>& rows)
{
    std::ostringstream os;
    header(os, o, dev);
    char line[512];
    const char* f = "%-9s %-4s %5s %2s  %-34s %14s %9s %8s %6s %9s %-26s %8s  %s\n";
    std::snprintf(line,
                  sizeof line,
                  f,
                  "family",
                  "type",
                  "taps",
                  "D",
                  "implementation",
                  "rate",
                  "vs gr-fir",
                  "vs copy",
                  "B/smp",
                  "FLOP/smp",
                  "ceiling",
                  "of ceil",
                  "note");
    os << line;
    for (const auto& r : rows) {
        const std::string ceiling =
            r.ceiling_msps > 0 ? r.ceiling_kind + " " + rate(r, r.ceiling_msps) : "-";
        std::snprintf(line,
                      sizeof line,
                      f,
                      r.family.c_str(),
                      r.type.c_str(),
                      r.taps ? std::to_string(r.taps).c_str() : "-",
                      std::to_string(r.decimation).c_str(),
                      r.impl.c_str(),
                      rate(r, r.msps).c_str(),
                      fmt("%.2fx", r.speedup).c_str(),
                      fmt("%.2fx", r.vs_copy).c_str(),
                      fmt("%.2f", r.bytes_per_sample).c_str(),
                      fmt("%.0f", r.flop_per_sample).c_str(),
                      ceiling.c_str(),
                      fmt("%.1f%%", 100 * r.fraction).c_str(),
                      r.note.c_str());
        os << line;
    }
    std::fputs(os.str().c_str(), stdout);
}

void write_csv(const options& o, const device_info& dev, const std::vector<row>& rows)
{
    std::ofstream f(o.csv);
    if (!f)
        throw std::runtime_error("--csv: cannot write " + o.csv);
    header(f, o, dev);
    f << "family,type,taps,decimation,implementation,on_gpu,samples,seconds,msps,"
         "speedup_vs_grfilter,ratio_vs_copy,bytes_per_sample,flop_per_sample,"
         "ceiling_msps,ceiling_kind,fraction_of_ceiling,note\n";
    for (const auto& r : rows)
        f << r.family << ',' << r.type << ',' << r.taps << ',' << r.decimation << ','
          << csv_field(r.impl) << ',' << (r.on_gpu ? 1 : 0) << ',' << r.samples << ','
          << num(r.seconds) << ',' << num(r.msps) << ',' << num(r.speedup) << ','
          << num(r.vs_copy) << ',' << num(r.bytes_per_sample) << ','
          << num(r.flop_per_sample) << ',' << num(r.ceiling_msps) << ','
          << csv_field(r.ceiling_kind) << ',' << num(r.fraction) << ','
          << csv_field(r.note) << '\n';
}

void write_json(const options& o, const device_info& dev, const std::vector<row>& rows)
{
    std::ofstream f(o.json);
    if (!f)
        throw std::runtime_error("--json: cannot write " + o.json);
    f << "{\n  \"gpu\": " << json_string(dev.name)
      << ",\n  \"memory_bandwidth_bytes_per_s\": " << num(dev.mem_bw)
      << ",\n  \"peak_fp32_flop_per_s\": " << num(dev.peak_fp32)
      << ",\n  \"pcie_gbps\": " << num(o.pcie_gbps)
      << ",\n  \"date\": " << json_string(now_utc())
      << ",\n  \"command\": " << json_string(o.command_line) << ",\n  \"rows\": [";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const row& r = rows[i];
        f << (i ? ",\n" : "\n") << "    {\"family\": " << json_string(r.family)
          << ", \"type\": " << json_string(r.type) << ", \"taps\": " << r.taps
          << ", \"decimation\": " << r.decimation
          << ", \"implementation\": " << json_string(r.impl)
          << ", \"on_gpu\": " << (r.on_gpu ? "true" : "false")
          << ", \"samples\": " << r.samples << ", \"seconds\": " << num(r.seconds)
          << ", \"msps\": " << num(r.msps)
          << ", \"speedup_vs_grfilter\": " << num(r.speedup)
          << ", \"ratio_vs_copy\": " << num(r.vs_copy)
          << ", \"bytes_per_sample\": " << num(r.bytes_per_sample)
          << ", \"flop_per_sample\": " << num(r.flop_per_sample)
          << ", \"ceiling_msps\": " << num(r.ceiling_msps)
          << ", \"ceiling_kind\": " << json_string(r.ceiling_kind)
          << ", \"fraction_of_ceiling\": " << num(r.fraction)
          << ", \"note\": " << json_string(r.note) << "}";
    }
    f << "\n  ]\n}\n";
}

} // namespace bench
