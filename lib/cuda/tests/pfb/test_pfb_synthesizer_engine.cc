/* SPDX-License-Identifier: GPL-3.0-or-later */
// pfb_synthesizer_engine against a float64 reference written as gr-filter 3.10's
// pfb_synthesizer_ccf work() is: a channel map into an FFT buffer, fft_complex_rev,
// and numchans (twox: 2*numchans, two banks and the d_state flip) filters with
// buffers, fed one FFT output each per step.

#include "pfb/pfb_synthesizer_engine.h"
#include "pfb/pfb_tuning.h"
#include "pfb_test_support.h"
#include <gtest/gtest.h>
#include <algorithm>
#include <deque>
#include <set>
#include <string>

namespace gr {
namespace gpufilter {
namespace test {
namespace {

using cuda::complex;
using cuda::pfb_synthesizer_engine;

constexpr double tolerance = 2e-5;

//! gr-filter's synthesizer, literally, in double.
class reference_synthesizer
{
public:
    reference_synthesizer(unsigned M, const std::vector<float>& taps, bool twox)
        : d_m(M), d_tw(twox ? 2 : 1), d_bins(d_tw * M, 0.0)
    {
        set_taps(taps);
    }

    void set_taps(const std::vector<float>& taps)
    {
        const std::size_t T = (taps.size() + d_m - 1) / d_m;
        std::vector<double> h(d_m * T, 0.0);
        std::copy(taps.begin(), taps.end(), h.begin());
        d_filters.assign(d_tw * d_m, {});
        for (unsigned i = 0; i < d_m; ++i)
            for (std::size_t j = 0; j < T; ++j) {
                const double t = h[i + j * d_m];
                if (d_tw == 1) {
                    d_filters[i].taps.push_back(t);
                } else { // set_taps2: filter i odd j, filter M+i even j
                    d_filters[i].taps.push_back(j % 2 ? t : 0.0);
                    d_filters[d_m + i].taps.push_back(j % 2 ? 0.0 : t);
                }
            }
        for (auto& f : d_filters)
            f.buffer.assign(f.taps.size(), 0.0); // zeroed, as gr-filter's
    }

    //! One step: in[p] feeds bin map[p].
    void
    step(const std::vector<cd>& in, const std::vector<int>& map, std::vector<cd>& out)
    {
        std::fill(d_bins.begin(), d_bins.end(), cd(0.0));
        for (std::size_t p = 0; p < in.size(); ++p)
            d_bins[map[p]] = in[p];
        const auto Y = backward_dft(d_bins);
        for (unsigned i = 0; i < d_m; ++i) {
            if (d_tw == 1) {
                out.push_back(d_filters[i].filter(Y[i]));
            } else {
                cd v = d_filters[i].filter(Y[d_state * d_m + i]);
                v += d_filters[d_m + i].filter(Y[(d_state ^ 1) * d_m + i]);
                out.push_back(v);
            }
        }
        if (d_tw == 2)
            d_state ^= 1;
    }

private:
    struct filter_with_buffer {
        std::vector<double> taps;
        std::deque<cd> buffer; // newest first
        cd filter(cd x)
        {
            buffer.push_front(x);
            buffer.pop_back();
            cd acc = 0.0;
            for (std::size_t k = 0; k < taps.size(); ++k)
                acc += taps[k] * buffer[k];
            return acc;
        }
    };
    unsigned d_m;
    unsigned d_tw;
    std::vector<cd> d_bins;
    std::vector<filter_with_buffer> d_filters;
    unsigned d_state = 0;
};

struct change {
    std::size_t at;          // before step `at`
    std::vector<float> taps; // empty: none
    std::vector<int> map;    // empty: none
};

/*!
 * Runs `steps` steps of random inputs (one port per map entry) through an engine made
 * with `tuning` in calls of the given sizes (cycled), applying the changes between
 * calls, and compares with the reference. Outputs are poisoned; nothing past them may
 * be written.
 */
double run_and_compare(unsigned M,
                       const std::vector<float>& taps,
                       bool twox,
                       std::vector<int> map,
                       std::size_t steps,
                       const std::vector<std::size_t>& calls,
                       const std::vector<change>& changes,
                       std::mt19937& rng,
                       const cuda::pfb_tuning& tuning = test_pfb_tuning())
{
    const std::size_t nports = map.size();
    std::vector<std::vector<complex>> x(nports);
    for (auto& v : x)
        v = random_samples<complex>(steps, rng);
    std::vector<cuda::device_buffer<complex>> d_in;
    std::vector<const void*> in_ptrs(nports);
    for (std::size_t p = 0; p < nports; ++p) {
        d_in.emplace_back(std::max<std::size_t>(steps, 1));
        GPUFILTER_CHECK(cudaMemcpy(
            d_in[p].get(), x[p].data(), steps * sizeof(complex), cudaMemcpyHostToDevice));
    }
    const std::size_t cap = steps * M + 64;
    cuda::device_buffer<complex> d_out(cap);
    const std::vector<complex> poisoned(cap, poison<complex>());
    GPUFILTER_CHECK(cudaMemcpy(
        d_out.get(), poisoned.data(), cap * sizeof(complex), cudaMemcpyHostToDevice));
    GPUFILTER_CHECK(cudaDeviceSynchronize());

    pfb_synthesizer_engine e(M, taps, twox, map, tuning);
    reference_synthesizer ref(M, taps, twox);
    std::vector<cd> want;
    std::vector<cd> row(nports);
    cuda::stream s;
    std::size_t done = 0;
    for (std::size_t call = 0; done < steps; ++call) {
        std::size_t n = std::min(calls[call % calls.size()], steps - done);
        for (const auto& c : changes) {
            if (c.at == done) {
                if (!c.taps.empty())
                    e.set_taps(c.taps, s.get());
                if (!c.map.empty())
                    e.set_channel_map(c.map, s.get());
            }
            if (done < c.at && done + n > c.at)
                n = c.at - done;
        }
        for (std::size_t p = 0; p < nports; ++p)
            in_ptrs[p] = d_in[p].get() + done;
        void* out_ptr = d_out.get() + done * M;
        EXPECT_EQ(e.output_count(n), n * M);
        EXPECT_EQ(e.process(in_ptrs.data(), n, &out_ptr, s.get()), n * M);
        done += n;
    }
    for (std::size_t t = 0; t < steps; ++t) {
        for (const auto& c : changes)
            if (c.at == t) {
                if (!c.taps.empty())
                    ref.set_taps(c.taps);
                if (!c.map.empty())
                    map = c.map;
            }
        for (std::size_t p = 0; p < nports; ++p)
            row[p] = to_cd(x[p][t]);
        ref.step(row, map, want);
    }
    s.synchronize();
    std::vector<complex> y(cap);
    GPUFILTER_CHECK(
        cudaMemcpy(y.data(), d_out.get(), cap * sizeof(complex), cudaMemcpyDeviceToHost));
    std::size_t written_past = 0;
    for (std::size_t i = steps * M; i < cap; ++i)
        written_past += !std::isnan(y[i].real());
    EXPECT_EQ(written_past, 0u);
    y.resize(steps * M);
    return relative_error(y, want);
}

std::vector<int> identity(unsigned n)
{
    std::vector<int> m(n);
    for (unsigned i = 0; i < n; ++i)
        m[i] = static_cast<int>(i);
    return m;
}

const std::vector<std::size_t> uneven_calls = { 37, 1, 5, 0, 301, 16, 3, 129 };

class pfb_synthesizer_test : public ::testing::Test
{
protected:
    void SetUp() override { GPUFILTER_REQUIRE_DEVICE_OR_SKIP(); }
    std::mt19937 rng{ 2024 };
};

TEST(pfb_synthesizer_parameters, bad_arguments_throw_before_the_gpu)
{
    using E = pfb_synthesizer_engine;
    const std::vector<float> taps(16, 0.5f);
    EXPECT_THROW(E(0, taps, false, { 0 }), std::invalid_argument);
    EXPECT_THROW(E(4, {}, false, { 0 }), std::invalid_argument);
    EXPECT_THROW(E(3, taps, true, { 0 }), std::invalid_argument);  // odd with twox
    EXPECT_THROW(E(4, taps, false, { 4 }), std::invalid_argument); // bin out of range
    EXPECT_THROW(E(4, taps, false, {}), std::invalid_argument);
    EXPECT_THROW(E(4, taps, false, { 0 }, cuda::pfb_tuning{}), std::invalid_argument);
}

TEST_F(pfb_synthesizer_test, matches_reference_for_every_shape)
{
    for (const bool twox : { false, true })
        for (const unsigned M : { 1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 16u, 36u, 64u }) {
            if (twox && M % 2)
                continue;
            for (const std::size_t ntaps : { std::size_t(1),
                                             std::size_t(M),
                                             std::size_t(M + 1),
                                             std::size_t(5 * M - 1),
                                             std::size_t(12 * M) }) {
                const auto taps = random_taps(ntaps, rng);
                const std::size_t steps = M >= 36 ? 300 : 1000;
                const double err = run_and_compare(
                    M, taps, twox, identity(M), steps, uneven_calls, {}, rng);
                EXPECT_LT(err, tolerance)
                    << "M=" << M << " ntaps=" << ntaps << " twox=" << twox;
            }
        }
}

TEST_F(pfb_synthesizer_test, fused_and_two_pass_paths_match_reference)
{
    // The rows path's two ways: the fused gather + in-block FFT kernel (P a power of
    // two up to 1024; the default takes it up to 32) and the gather kernel + cuFFT,
    // each forced.
    cuda::pfb_tuning tuning = test_pfb_tuning();
    tuning.synth = cuda::synth_path::rows;
    for (const auto path : { cuda::pfb_path::fused, cuda::pfb_path::two_pass }) {
        tuning.path = path;
        for (const bool twox : { false, true })
            for (const unsigned M : { 1u, 2u, 4u, 8u, 32u, 64u, 256u, 512u, 1024u }) {
                if (twox && M % 2)
                    continue;
                const unsigned P = M * (twox ? 2 : 1);
                {
                    pfb_synthesizer_engine e(M, { 1.0f }, twox, identity(M), tuning);
                    EXPECT_EQ(e.fused(),
                              path == cuda::pfb_path::fused && P >= 2 && P <= 1024);
                }
                const auto taps = random_taps(M * 5 - 1, rng);
                const std::size_t steps = M >= 256 ? 40 : 400;
                const double err = run_and_compare(
                    M, taps, twox, identity(M), steps, { 7, 1, 13, 64 }, {}, rng, tuning);
                EXPECT_LT(err, tolerance)
                    << "M=" << M << " twox=" << twox
                    << " path=" << (path == cuda::pfb_path::fused ? "fused" : "two_pass");
            }
    }
}

TEST_F(pfb_synthesizer_test, one_pass_kernel_matches_reference)
{
    // Gather, inverse FFT and branch filters in one kernel, forced (ctest also runs
    // every case of this file with it: engine_pfb_synthesizer_one_pass). FFT sizes
    // from 2 to 1024, one and two regions a block (the rule's and each forced),
    // the most taps per branch each takes (the halo half the block) and one more (the
    // rows path), calls of several blocks and calls shorter than a branch.
    cuda::pfb_tuning tuning = test_pfb_tuning();
    tuning.synth = cuda::synth_path::one_pass;
    for (const int forced : { 0, 1, 2 })
        for (const bool twox : { false, true })
            for (const unsigned M : { 2u, 4u, 8u, 16u, 32u, 64u, 128u, 512u, 1024u }) {
                const int P = static_cast<int>(M) * (twox ? 2 : 1);
                if (P > 1024)
                    continue;
                const int rows = 4096 / P;
                const std::set<int> taps_per_branch = {
                    1,        2,       3, 8, rows / 8 + 1, rows / 8 + 2, rows / 2 + 1,
                    rows + 1, rows + 2
                };
                for (const int T : taps_per_branch) {
                    tuning.synth_regions = forced;
                    const int regions = cuda::synth_one_pass_regions(tuning, P, T);
                    if (forced > 0 && regions == 0)
                        continue; // the rows path: once, with the rule
                    const auto taps = random_taps(M * T - (T > 1 ? 1 : 0), rng);
                    {
                        pfb_synthesizer_engine e(M, taps, twox, identity(M), tuning);
                        EXPECT_EQ(e.one_pass_regions(), regions)
                            << "M=" << M << " T=" << T << " twox=" << twox;
                    }
                    // S: the steps of a block.
                    const std::size_t S = regions > 0 ? regions * rows - (T - 1) : 300;
                    const std::size_t steps = 2 * S + T + 5;
                    const std::vector<std::size_t> calls = {
                        S + 3, 1, static_cast<std::size_t>(std::max(T - 2, 1)),
                        0,     5, 2 * S + 1
                    };
                    const double err = run_and_compare(
                        M, taps, twox, identity(M), steps, calls, {}, rng, tuning);
                    EXPECT_LT(err, tolerance)
                        << "M=" << M << " T=" << T << " twox=" << twox
                        << " regions=" << regions;
                }
            }
    tuning.synth_regions = 0;
    // Taps that move a running engine between one and two regions and the rows path,
    // with a channel map change, in uneven calls.
    for (const bool twox : { false, true }) {
        const unsigned M = 8;
        const int rows = 4096 / (twox ? 16 : 8);
        const std::vector<int> map = { 5, twox ? 13 : 2, 5 };
        const std::vector<change> changes = {
            { 401, random_taps(M * (rows / 8 + 3), rng), {} },
            { 1302, random_taps(M * (rows + 2), rng), { 1, 0, 7 } },
            { 1903, random_taps(M * 4 - 3, rng), {} },
        };
        EXPECT_LT(run_and_compare(M,
                                  random_taps(M * 6, rng),
                                  twox,
                                  map,
                                  2600,
                                  { 37, 1, 5, 0, 1301, 16, 3, 129 },
                                  changes,
                                  rng,
                                  tuning),
                  tolerance)
            << "twox=" << twox;
    }
}

TEST_F(pfb_synthesizer_test, channel_maps_fewer_inputs_and_repeats)
{
    for (const bool twox : { false, true }) {
        const unsigned M = 8;
        const auto taps = random_taps(8 * 6 + 3, rng);
        // 3 inputs into bins of the (twox: 16-point) FFT, one bin fed twice.
        const std::vector<int> map = { 5, twox ? 13 : 2, 5 };
        EXPECT_LT(run_and_compare(M, taps, twox, map, 700, uneven_calls, {}, rng),
                  tolerance);
        // The map changes mid-stream (same number of inputs).
        const std::vector<change> changes = { { 300, {}, { 1, 0, 7 } } };
        EXPECT_LT(run_and_compare(M, taps, twox, map, 700, uneven_calls, changes, rng),
                  tolerance);
    }
}

TEST_F(pfb_synthesizer_test, set_taps_mid_stream_restarts_the_filters)
{
    for (const bool twox : { false, true })
        for (const unsigned M : { 4u, 6u }) {
            const auto a = random_taps(M * 7, rng);
            const std::vector<change> changes = {
                { 201, random_taps(M * 3 + 1, rng), {} },
                { 502, random_taps(M * 10 - 1, rng), {} },
                { 777, random_taps(M * 10 - 1, rng), {} },
            };
            EXPECT_LT(run_and_compare(
                          M, a, twox, identity(M), 1000, uneven_calls, changes, rng),
                      tolerance)
                << "M=" << M << " twox=" << twox;
        }
}

TEST_F(pfb_synthesizer_test, calls_longer_than_a_chunk)
{
    // Calls longer than one chunk of transformed rows (2^21 samples).
    for (const bool twox : { false, true }) {
        const unsigned M = 64;
        const auto taps = random_taps(M * 8, rng);
        const double err =
            run_and_compare(M, taps, twox, identity(M), 20000, { 19999, 1 }, {}, rng);
        EXPECT_LT(err, tolerance) << "twox=" << twox;
    }
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
