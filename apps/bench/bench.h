/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_APPS_BENCH_H
#define INCLUDED_GPUFILTER_APPS_BENCH_H

// Shared types of the bench_fir harness: options, one result row, device facts.
// Case families fill rows; report.cc derives the ratios and ceilings and writes them.

#include <cstdint>
#include <string>
#include <vector>

namespace bench {

struct options {
    std::vector<std::string> types{ "ccf", "fff", "ccc" };
    std::vector<int> taps{ 16, 64, 256, 1024, 4096, 16384 };
    std::vector<int> decimations{ 1, 8 };
    std::vector<int> fft_sizes;          // extra engine rows: the FFT path at these sizes
    std::vector<std::string> fft_groups; // extra engine rows: FFT group sizes (samples)
    bool kernel_variants = false; // extra engine rows: the one-output-per-thread kernel
    // Extra engine rows above 8192 taps: the partitioned path at these sizes and
    // groups of 2^k samples (either option alone takes the other's defaults).
    std::vector<int> partition_sizes;
    std::vector<int> partition_groups;
    // Extra engine rows above 8192 taps: the FFT path with its cluster kernel at
    // 32768 points and without it.
    bool cluster_rows = false;
    std::vector<int> pfb_channels{ 16, 64, 256, 1024, 4096 }; // pfb rows
    std::vector<int> pfb_taps{ 4, 8, 16, 32, 64 };            // pfb rows: taps/channel
    std::vector<std::string> cases{ "flowgraph", "engine", "xlating" };
    double seconds = 0.5; // per flowgraph measurement
    double pcie_gbps = 50.0;
    bool quick = false;
    std::string csv, json;
    std::string command_line;
    bool has_case(const std::string& c) const;
};

//! What the GPU can do at best; zero when there is no GPU.
struct device_info {
    int count = 0;
    std::string name = "none";
    std::string why_none;
    double mem_bw = 0;    // bytes/s: 2 * memory clock * bus width / 8
    double peak_fp32 = 0; // FLOP/s: SMs * FP32 lanes/SM * 2 * clock
};
device_info query_device();

struct row {
    std::string family; // flowgraph, engine, xlating (CuPy rows: engine)
    std::string type;   // ccf, fff, ccc; fc for hilbert_fc
    int taps = 0;       // 0 for rows without a filter (copy, baseline)
    int decimation = 1;
    std::string
        impl; // "gpufilter fir_filter", "gr-filter fft_filter", "blocks.copy", ...
    bool on_gpu = false;
    std::uint64_t samples = 0; // input samples measured
    double seconds = 0;
    double msps = 0; // input samples per second / 1e6 (engine rows too)
    // Ceiling of this row: PCIe for GPU blocks in a flowgraph, roofline for engines.
    double bytes_per_sample = 0;
    double flop_per_sample = 0;
    double ceiling_msps = 0;
    std::string ceiling_kind;
    // Which rows this one is compared with (filled by the case that makes it).
    std::string reference_family, reference_impl; // speed-up vs this (same taps, D)
    std::string copy_family;                      // ratio vs blocks.copy of this family
    std::string note;
    // Derived by report.cc.
    double speedup = 0, vs_copy = 0, fraction = 0;
};

// Case families; each appends its rows.
void run_flowgraph_cases(const options& o, std::vector<row>& rows);
void run_xlating_cases(const options& o, std::vector<row>& rows);
void run_engine_cases(const options& o, const device_info& dev, std::vector<row>& rows);
void run_pfb_cases(const options& o, const device_info& dev, std::vector<row>& rows);
void run_pfb_port_cases(const options& o, std::vector<row>& rows);
void run_pfb_synthesis_cases(const options& o,
                             const device_info& dev,
                             std::vector<row>& rows);
void run_arb_cases(const options& o, const device_info& dev, std::vector<row>& rows);
void run_rational_cases(const options& o, const device_info& dev, std::vector<row>& rows);

// Bytes per input sample in and out of a filter of this type at decimation D.
double in_bytes(const std::string& type);
double out_bytes(const std::string& type, int decimation);

void derive(std::vector<row>& rows);
void print_table(const options& o, const device_info& dev, const std::vector<row>& rows);
void write_csv(const options& o, const device_info& dev, const std::vector<row>& rows);
void write_json(const options& o, const device_info& dev, const std::vector<row>& rows);
std::string now_utc();

} // namespace bench

#endif
