/* SPDX-License-Identifier: GPL-3.0-or-later */
// Host-only: runs without a GPU. A line-by-line C++ emulation of polyphase_bank's
// host arithmetic (filter_chunk's base, the phase, the step count, the history kept
// across calls and trimmed by set_taps) and of the pfb_kernels::fir kernel's indexing
// (grid, block, shared-memory tile, per-thread rows and branches, output slot), in
// float64, against the float64 reference of gr-filter's loop. It checks the index
// math and the shared-memory bounds where this machine cannot run the kernel; the
// GPU tests check the kernel itself. Keep it in step with polyphase_kernels.cuh.

#include "pfb/polyphase_shape.h"
#include "pfb_reference.h"
#include <gtest/gtest.h>
#include <algorithm>
#include <cstdint>
#include <stdexcept>

namespace gr {
namespace gpufilter {
namespace test {
namespace {

namespace shape = cuda::pfb_shape;

class bank_emulator
{
public:
    bank_emulator(int N, const std::vector<float>& taps, int R, std::size_t chunk)
        : d_n(N), d_r(R), d_chunk(chunk)
    {
        set_taps(taps);
        d_phase = R - 1;
    }

    void set_taps(const std::vector<float>& taps)
    {
        const std::size_t T = (taps.size() + d_n - 1) / d_n;
        d_branch.assign(d_n * T, 0.0);
        std::copy(taps.begin(), taps.end(), d_branch.begin());
        const long long old_len = d_history.size(), new_len = d_n * T - 1;
        std::vector<cd> next(new_len);
        for (long long i = 0; i < new_len; ++i) // launch_keep(view(history), old - new)
            next[i] = src(d_history, {}, old_len - new_len + i);
        d_history = next;
        d_t = static_cast<int>(T);
    }

    std::size_t output_count(std::size_t n) const
    {
        return n > d_phase ? (n - 1 - d_phase) / d_r + 1 : 0;
    }

    //! One process() call: the FFT-input rows of its steps, in order.
    std::vector<std::vector<cd>> process(const std::vector<cd>& in)
    {
        const std::size_t nsteps = output_count(in.size());
        std::vector<std::vector<cd>> rows;
        for (std::size_t first = 0; first < nsteps; first += d_chunk) {
            const std::size_t count = std::min(d_chunk, nsteps - first);
            auto chunk = filter_chunk(in, first, count);
            rows.insert(rows.end(), chunk.begin(), chunk.end());
        }
        // advance()
        const long long H = d_history.size();
        std::vector<cd> next(H);
        for (long long i = 0; i < H; ++i)
            next[i] = src(d_history, in, static_cast<long long>(in.size()) + i);
        d_history = next;
        d_phase = d_phase + nsteps * d_r - in.size();
        d_steps = (d_steps + nsteps) % d_n;
        return rows;
    }

private:
    // pfb_kernels::source
    static cd src(const std::vector<cd>& h, const std::vector<cd>& in, long long v)
    {
        if (v < 0)
            return 0.0;
        if (v < static_cast<long long>(h.size()))
            return h[v];
        v -= h.size();
        return v < static_cast<long long>(in.size()) ? in[v] : cd(0.0);
    }

    std::vector<std::vector<cd>>
    filter_chunk(const std::vector<cd>& in, std::size_t first, std::size_t count)
    {
        // polyphase_bank::filter_chunk
        const long long N = d_n, R = d_r;
        const long long v_first =
            static_cast<long long>(d_history.size() + d_phase) + first * R;
        const long long step_mod = static_cast<long long>((d_steps + first) % d_n);
        long long base = ((step_mod + 1) * R - 1 - v_first) % N;
        if (base < 0)
            base += N;
        const int F = shape::tile_columns(d_n);
        const int BY = shape::block_rows(d_n);
        const long long per_block = shape::block_steps(d_n);
        const long long grid_y =
            (static_cast<long long>(count) + per_block - 1) / per_block;
        const long long grid_x = (N + F - 1) / F;
        EXPECT_LE(F * BY, shape::threads);
        EXPECT_LE(grid_y, 65535);
        EXPECT_LE(shape::smem_bytes(d_n, d_r), 48u * 1024);

        // NaN marks a row slot no thread wrote.
        std::vector<std::vector<cd>> rows(
            count, std::vector<cd>(d_n, cd(std::numeric_limits<double>::quiet_NaN())));
        const long long smem_elems = shape::smem_rows(d_n, d_r) * F;
        for (long long bx = 0; bx < grid_x; ++bx)
            for (long long by = 0; by < grid_y; ++by)
                run_block(in, bx, by, F, BY, v_first, base, count, smem_elems, rows);
        return rows;
    }

    // One block of pfb_kernels::fir, its threads run one after the other between
    // barriers.
    void run_block(const std::vector<cd>& in,
                   long long bx,
                   long long by,
                   int F,
                   int BY,
                   long long v_first,
                   long long base,
                   long long nsteps,
                   long long smem_elems,
                   std::vector<std::vector<cd>>& rows)
    {
        const int N = d_n, R = d_r, T = d_t;
        const int SPT = shape::steps_per_thread;
        const long long step0 = by * BY * SPT;
        const long long nblock = std::min<long long>(BY * SPT, nsteps - step0);
        const long long u_first = v_first + base + step0 * R;
        const long long a_first = u_first / N;
        const long long a_last = (u_first + (nblock - 1) * R) / N;
        std::vector<cd> tile(smem_elems, cd(std::numeric_limits<double>::quiet_NaN()));

        struct thread_state {
            cd acc[shape::steps_per_thread];
            int row0[shape::steps_per_thread];
            int branch[shape::steps_per_thread];
            bool valid[shape::steps_per_thread];
        };
        std::vector<thread_state> th(F * BY);
        for (int ty = 0; ty < BY; ++ty)
            for (int cc = 0; cc < F; ++cc) {
                auto& st = th[ty * F + cc];
                const int j = bx * F + cc;
                for (int i = 0; i < SPT; ++i) {
                    const long long t = static_cast<long long>(ty) * SPT + i;
                    st.valid[i] = j < N && t < nblock;
                    const long long u = u_first + t * R;
                    const long long a = u / N;
                    const int b = static_cast<int>(u - a * N);
                    const int wrap = j > b ? 1 : 0;
                    st.row0[i] = static_cast<int>(a - a_first) - wrap;
                    st.branch[i] = b - j + wrap * N;
                    st.acc[i] = 0.0;
                }
            }

        for (int k0 = 0; k0 < T; k0 += shape::tap_chunk) {
            const int kc = std::min(shape::tap_chunk, T - k0);
            const long long row_lo = a_first - k0 - kc;
            const int nrows = static_cast<int>(a_last - a_first) + kc + 1;
            EXPECT_LE(static_cast<long long>(nrows) * F, smem_elems)
                << "N=" << N << " R=" << R << " T=" << T;
            std::fill(
                tile.begin(), tile.end(), cd(std::numeric_limits<double>::quiet_NaN()));
            for (int ty = 0; ty < BY; ++ty)
                for (int cc = 0; cc < F; ++cc) {
                    const int col = bx * F + cc;
                    for (int e = ty * F + cc; e < nrows * F; e += F * BY) {
                        if (e >= smem_elems)
                            throw std::out_of_range("tile store out of shared memory");
                        tile[e] =
                            col < N
                                ? src(d_history, in, (row_lo + e / F) * N + col - base)
                                : cd(0.0);
                    }
                }
            const auto tile_at = [&](long long e) {
                if (e < 0 || e >= static_cast<long long>(nrows) * F)
                    throw std::out_of_range("tile read outside the staged rows");
                return tile[e];
            };
            for (int ty = 0; ty < BY; ++ty)
                for (int cc = 0; cc < F; ++cc) {
                    auto& st = th[ty * F + cc];
                    if (R == N && st.valid[SPT - 1]) {
                        // The kernel's one-row-per-step window.
                        ++window_threads;
                        for (int i = 1; i < SPT; ++i)
                            if (st.branch[i] != st.branch[0] ||
                                st.row0[i] != st.row0[0] + i)
                                throw std::logic_error("steps not one row apart");
                        const long long x0 = (st.row0[0] + kc) * 1LL * F + cc;
                        cd w1 = tile_at(x0 + F), w2 = tile_at(x0 + 2 * F),
                           w3 = tile_at(x0 + 3 * F);
                        for (int kk = 0; kk < kc; ++kk) {
                            const double hk =
                                d_branch.at(st.branch[0] + (k0 + kk) * 1LL * N);
                            const cd w0 = tile_at(x0 - kk * 1LL * F);
                            st.acc[0] += w0 * hk;
                            st.acc[1] += w1 * hk;
                            st.acc[2] += w2 * hk;
                            st.acc[3] += w3 * hk;
                            w3 = w2;
                            w2 = w1;
                            w1 = w0;
                        }
                        continue;
                    }
                    for (int i = 0; i < SPT; ++i) {
                        if (!st.valid[i])
                            continue;
                        if (st.branch[i] < 0 || st.branch[i] >= N)
                            throw std::out_of_range("branch");
                        for (int kk = 0; kk < kc; ++kk) {
                            const long long tap = st.branch[i] + (k0 + kk) * 1LL * N;
                            const long long e = (st.row0[i] + kc - kk) * 1LL * F + cc;
                            if (tap >= static_cast<long long>(d_branch.size()))
                                throw std::out_of_range("tap index");
                            if (e < 0 || e >= nrows * F)
                                throw std::out_of_range(
                                    "tile read outside the staged rows");
                            st.acc[i] += tile[e] * d_branch[tap];
                        }
                    }
                }
        }
        for (int ty = 0; ty < BY; ++ty)
            for (int cc = 0; cc < F; ++cc) {
                const int j = bx * F + cc;
                if (j >= N)
                    continue;
                const int p = N - 1 - (j + R) % N;
                const auto& st = th[ty * F + cc];
                for (int i = 0; i < SPT; ++i)
                    if (st.valid[i]) {
                        auto& slot = rows.at(step0 + ty * SPT + i).at(p);
                        EXPECT_TRUE(std::isnan(slot.real())) << "slot written twice";
                        slot = st.acc[i];
                    }
            }
    }

    int d_n, d_r, d_t = 0;
    std::size_t d_chunk;
    std::vector<double> d_branch;
    std::vector<cd> d_history;
    std::size_t d_phase = 0;
    std::uint64_t d_steps = 0;

public:
    std::size_t window_threads = 0; // thread-chunks that took the R == N window
};

struct shape_case {
    unsigned N;
    float os;
    std::size_t ntaps;
};

//! Runs x through the emulator in calls of the given sizes; channel c of step s.
std::vector<std::vector<cd>> emulate(bank_emulator& em,
                                     const std::vector<cd>& x,
                                     unsigned N,
                                     const std::vector<std::size_t>& calls,
                                     std::size_t stop_at = SIZE_MAX)
{
    std::vector<std::vector<cd>> out(N);
    std::size_t consumed = 0;
    for (std::size_t call = 0; consumed < std::min(x.size(), stop_at); ++call) {
        const std::size_t n =
            std::min(calls[call % calls.size()], std::min(x.size(), stop_at) - consumed);
        const std::vector<cd> part(x.begin() + consumed, x.begin() + consumed + n);
        for (const auto& row : em.process(part)) {
            const auto X = backward_dft(row);
            for (unsigned c = 0; c < N; ++c)
                out[c].push_back(X[c]);
        }
        consumed += n;
    }
    return out;
}

double error_of(const std::vector<std::vector<cd>>& got,
                const std::vector<std::vector<cd>>& want)
{
    double num = 0, den = 0;
    for (std::size_t c = 0; c < want.size(); ++c) {
        EXPECT_EQ(got[c].size(), want[c].size());
        for (std::size_t s = 0; s < std::min(got[c].size(), want[c].size()); ++s) {
            num += std::norm(got[c][s] - want[c][s]);
            den += std::norm(want[c][s]);
        }
    }
    return std::sqrt(num / den);
}

TEST(pfb_indexing, kernel_emulation_matches_gr_filter_loop)
{
    std::mt19937 rng(7);
    const std::vector<shape_case> cases = {
        { 2, 1, 7 },
        { 2, 2, 9 },
        { 3, 1, 10 },
        { 3, 3, 4 },
        { 4, 4.0f / 3, 13 },
        { 5, 1, 23 },
        { 5, 5, 3 },
        { 8, 1, 64 },
        { 8, 2, 70 },
        { 8, 8, 17 },
        { 16, 4, 100 },
        { 36, 36.0f / 25, 200 },
        { 36, 1, 37 },
        { 36, 2, 1 },
        { 64, 1, 64 * 40 + 5 },
        { 64, 4, 300 },
        { 33, 1, 99 },
        { 40, 40.0f / 3, 81 },
        { 2, 1, 150 },
        { 3, 1.5f, 200 },
        { 1, 1, 5 },
        { 36, 36.0f / 7, 109 },
    };
    for (const auto& c : cases) {
        const int R = gr_rate_ratio(c.N, c.os);
        const auto taps = random_taps(c.ntaps, rng);
        // Enough steps for several blocks and chunks; a length that ends mid-step.
        const std::size_t len = (3 * shape::block_steps(c.N) + 5) * R + R / 2 + 1;
        std::vector<cd> x(len);
        for (auto& v : x)
            v = cd(std::uniform_real_distribution<double>(-1, 1)(rng),
                   std::uniform_real_distribution<double>(-1, 1)(rng));
        const auto want = reference_channelizer(x, c.N, c.os, taps);
        for (const std::size_t chunk : { std::size_t(1) << 20, std::size_t(7) }) {
            bank_emulator em(c.N, taps, R, chunk);
            const auto got =
                emulate(em, x, c.N, { 1, 977, 13, std::size_t(R) * 5 + 1, 4096 });
            EXPECT_LT(error_of(got, want), 1e-12)
                << "N=" << c.N << " os=" << c.os << " ntaps=" << c.ntaps
                << " chunk=" << chunk;
            if (static_cast<unsigned>(R) == c.N) {
                EXPECT_GT(em.window_threads, 0u) << "N=" << c.N << ": window path unused";
            }
        }
    }
}

TEST(pfb_indexing, kernel_emulation_large_channel_counts)
{
    // The vector variant's sizes: 32-column tiles, many column blocks, short streams.
    std::mt19937 rng(9);
    for (const auto& c : std::vector<shape_case>{ { 256, 1, 256 * 8 },
                                                  { 256, 2, 1000 },
                                                  { 1024, 4, 1024 * 3 + 7 },
                                                  { 4096, 1, 4096 * 2 + 1 } }) {
        const int R = gr_rate_ratio(c.N, c.os);
        const auto taps = random_taps(c.ntaps, rng);
        const std::size_t steps = c.N >= 4096 ? 40 : 70;
        std::vector<cd> x(steps * R + R - 1);
        for (auto& v : x)
            v = cd(std::uniform_real_distribution<double>(-1, 1)(rng),
                   std::uniform_real_distribution<double>(-1, 1)(rng));
        const auto want = reference_channelizer(x, c.N, c.os, taps);
        bank_emulator em(c.N, taps, R, 1 << 20);
        const auto got = emulate(em, x, c.N, { x.size() / 3, x.size() });
        EXPECT_LT(error_of(got, want), 1e-12) << "N=" << c.N << " os=" << c.os;
    }
}

TEST(pfb_indexing, set_taps_trims_history_like_gr_window)
{
    // Fewer taps per filter after the switch: the trimmed history is the real past,
    // as in gr-filter's window, so no set_history is needed.
    std::mt19937 rng(8);
    for (const auto& c :
         std::vector<shape_case>{ { 8, 2, 40 }, { 36, 36.0f / 25, 150 }, { 5, 1, 31 } }) {
        const int R = gr_rate_ratio(c.N, c.os);
        const auto a = random_taps(c.ntaps, rng);
        const auto b = random_taps(c.ntaps / 2 + 1, rng);
        std::vector<cd> x(40 * c.N + 3);
        for (auto& v : x)
            v = cd(std::uniform_real_distribution<double>(-1, 1)(rng), 0.25);
        // Switch after a call that ends mid-step.
        const std::size_t split = 17 * R + R / 2;
        const std::size_t switch_step = split / R; // steps done after `split` samples
        bank_emulator em(c.N, a, R, 1 << 20);
        auto got = emulate(em, x, c.N, { split }, split);
        em.set_taps(b);
        const std::vector<cd> rest(x.begin() + split, x.end());
        auto tail = emulate(em, rest, c.N, { 11, 5 });
        for (unsigned ch = 0; ch < c.N; ++ch)
            got[ch].insert(got[ch].end(), tail[ch].begin(), tail[ch].end());
        const auto want = reference_channelizer(
            x, c.N, c.os, [&](std::size_t s) -> const std::vector<float>& {
                return s < switch_step ? a : b;
            });
        EXPECT_LT(error_of(got, want), 1e-12) << "N=" << c.N << " os=" << c.os;
    }
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
