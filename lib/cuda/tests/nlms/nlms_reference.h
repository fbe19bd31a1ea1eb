/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_TESTS_NLMS_REFERENCE_H
#define INCLUDED_GPUFILTER_TESTS_NLMS_REFERENCE_H

// NLMS references for the engine tests: the update in float64, sample by sample, and
// a float32 emulation of the GPU kernel's arithmetic (its thread/tap mapping, tiles,
// steps of nlms_block samples and reduction order), which runs without a GPU.

#include "nlms/nlms_shape.h"
#include "nlms/nlms_tuning.h"
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <random>
#include <vector>

namespace gr {
namespace gpufilter {
namespace test {

//! One filter, float64: w <- w + mu e x_n / (eps + x_n . x_n), x_n newest first.
struct nlms_reference {
    int ntaps;
    double mu, eps;
    std::vector<double> w, hist; // hist[j] = x[n-j] after the last sample

    nlms_reference(int n, double mu_, double eps_)
        : ntaps(n), mu(mu_), eps(eps_), w(n, 0.0), hist(n, 0.0)
    {
    }
    std::vector<double> run(const std::vector<float>& x, const std::vector<float>& d)
    {
        std::vector<double> e(x.size());
        for (std::size_t n = 0; n < x.size(); ++n) {
            for (int j = ntaps - 1; j > 0; --j)
                hist[j] = hist[j - 1];
            hist[0] = x[n];
            double y = 0.0, nrm = 0.0;
            for (int j = 0; j < ntaps; ++j) {
                y += w[j] * hist[j];
                nrm += hist[j] * hist[j];
            }
            e[n] = d[n] - y;
            const double g = mu * e[n] / (eps + nrm);
            for (int j = 0; j < ntaps; ++j)
                w[j] += g * hist[j];
        }
        return e;
    }
};

/*!
 * The kernel's float arithmetic on the host, one filter, in the launch shape given
 * (nlms_shape_for): thread t holds taps t*K .. t*K + K-1; tiles of the shape's length
 * over the window [H history | tile]; steps of nlms_block samples from each tile's
 * start (the last one short); per step each thread's dot products (and at a tile's
 * first step its Gram row) in tap order with fmaf, later steps' Gram rows slid in
 * double, the xor butterfly within each warp, the warp sums in warp
 * order; the Gram matrix down its diagonals with fmaf (summed afresh for N <= B),
 * the error recurrence and the
 * update as nlms_kernels.cuh writes them. A call is one launch.
 */
struct nlms_emulation {
    int N;
    float mu, eps;
    cuda::nlms_shape shape;
    std::vector<float> w, hist; // hist: the last H x, oldest first

    nlms_emulation(int n, float mu_, float eps_, const cuda::nlms_shape& s)
        : N(n), mu(mu_), eps(eps_), shape(s), w(n, 0.0f), hist(s.history, 0.0f)
    {
    }
    nlms_emulation(int n, float mu_, float eps_, const cuda::nlms_tuning& tuning)
        : nlms_emulation(n, mu_, eps_, cuda::nlms_shape_for(tuning, n))
    {
    }

    //! The sum the xor butterfly leaves in every lane (a + b == b + a, so all agree).
    static float warp_sum(const float* v)
    {
        float a[32];
        for (int l = 0; l < 32; ++l)
            a[l] = v[l];
        for (int o = 16; o > 0; o >>= 1) {
            float next[32];
            for (int l = 0; l < 32; ++l)
                next[l] = a[l] + a[l ^ o];
            for (int l = 0; l < 32; ++l)
                a[l] = next[l];
        }
        return a[0];
    }

    std::vector<float> run(const float* x, const float* d, std::size_t n)
    {
        constexpr int B = cuda::nlms_block;
        const int T = shape.threads, K = shape.taps_per_thread, C = shape.tile;
        const int H = shape.history;
        std::vector<float> e(n);
        std::vector<float> sx(H + C), sd(C), part(T * B), rowp(T * B);
        std::vector<float> gram(B * (B + 1)), g(B);
        std::vector<double> row(B); // the slid Gram row, G[0][l] (gram_row_slide)
        for (int i = 0; i < H; ++i)
            sx[i] = hist[i];
        for (std::size_t n0 = 0; n0 < n; n0 += C) {
            const int c = static_cast<int>(std::min<std::size_t>(C, n - n0));
            const int cp = (c + B - 1) / B * B;
            for (int i = 0; i < cp; ++i) {
                sx[H + i] = i < c ? x[n0 + i] : 0.0f;
                sd[i] = i < c ? d[n0 + i] : 0.0f;
            }
            for (int s = 0; s < c; s += B) {
                const int cb = std::min(B, c - s);
                // xw(i, j) = x[nb + i - j]
                auto xw = [&](int i, int j) { return sx[H + s + i - j]; };
                for (int t = 0; t < T; ++t)
                    for (int i = 0; i < B; ++i) {
                        float a = 0.0f, r = 0.0f;
                        for (int k = 0; k < K; ++k) {
                            const int j = t * K + k;
                            const float wj = j < N ? w[j] : 0.0f;
                            a = std::fma(wj, xw(i, j), a);
                        }
                        for (int k = 0; k < K && s == 0; ++k) { // a tile's first step
                            const int j = t * K + k;
                            const float x0 = j < N ? xw(0, j) : 0.0f;
                            r = std::fma(x0, xw(i, j), r);
                        }
                        part[i * T + t] = a;
                        rowp[i * T + t] = r;
                    }
                std::vector<float> p(B, 0.0f), g0(B, 0.0f);
                for (int i = 0; i < B; ++i)
                    for (int q = 0; q < T / 32; ++q) {
                        p[i] += warp_sum(&part[i * T + 32 * q]);
                        g0[i] += warp_sum(&rowp[i * T + 32 * q]);
                    }
                for (int i = 0; i < B && s > 0; ++i)
                    g0[i] = static_cast<float>(row[i]);
                for (int l = 0; l < B && N > B && s + B < c; ++l) { // the next step's
                    double odd = 0.0, even = 0.0; // m odd, m even, as the two warps
                    for (int m = 1; m <= B; ++m) {
                        double& a = m % 2 ? odd : even;
                        a = std::fma(double(xw(m, 0)), double(xw(m + l, 0)), a);
                        a = std::fma(-double(xw(m, N)), double(xw(m + l, N)), a);
                    }
                    const double from = s == 0 ? double(g0[l]) : row[l];
                    row[l] = from + (odd + even);
                }
                for (int l = 0; l < B && N <= B; ++l)
                    for (int j = 0; j <= l; ++j) { // afresh, k in order
                        float a = 0.0f;
                        for (int k = 0; k < N; ++k)
                            a = std::fma(xw(j, k), xw(l, k), a);
                        gram[j * (B + 1) + l] = a;
                    }
                for (int l = 0; l < B && N > B; ++l) {
                    float gd = g0[l];
                    gram[l] = g0[l];
                    for (int a = 0; a + 1 + l < B; ++a) {
                        const int b = a + l;
                        gd = std::fma(xw(a + 1, 0), xw(b + 1, 0), gd);
                        gd = std::fma(-xw(a + 1, N), xw(b + 1, N), gd);
                        gram[(a + 1) * (B + 1) + b + 1] = gd;
                    }
                }
                std::vector<float> acc(B), r(B);
                for (int l = 0; l < B; ++l) {
                    r[l] = mu / (eps + std::max(gram[l * (B + 1) + l], 0.0f));
                    acc[l] = sd[s + l] - p[l];
                }
                for (int j = 0; j < B; ++j) {
                    const float gj = j < cb ? acc[j] * r[j] : 0.0f;
                    if (j < cb)
                        e[n0 + s + j] = acc[j];
                    g[j] = gj;
                    for (int l = j + 1; l < B; ++l)
                        acc[l] = std::fma(-gj, gram[j * (B + 1) + l], acc[l]);
                }
                for (int j = 0; j < N; ++j)
                    for (int i = 0; i < B; ++i)
                        w[j] = std::fma(g[i], xw(i, j), w[j]);
            }
            for (int i = 0; i < H; ++i)
                hist[i] = sx[c + i];
            for (int i = 0; i < H; ++i)
                sx[i] = hist[i];
        }
        return e;
    }
};

//! ||got - want|| / ||d||: e shrinks as the filter converges, so the error is measured
//! against the microphone signal, not against e.
inline double error_vs_d(const std::vector<float>& got,
                         const std::vector<double>& want,
                         const std::vector<float>& d)
{
    double num = 0.0, den = 0.0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        num += (got[i] - want[i]) * (got[i] - want[i]);
        den += double(d[i]) * d[i];
    }
    return std::sqrt(num / (den > 0 ? den : 1e-300));
}

/*!
 * The bound of error_vs_d (and of the taps' relative error) for float32 against
 * float64 over L samples of an N-tap filter, inputs of unit order. Each y is a float
 * sum of N products: off by about sqrt(N) roundings when summed in sequence (VOLK's
 * lanes), fewer in the GPU's tree; the step and the update add a few (8 here). For
 * 0 < mu < 2 the update I - mu x x^T / (eps + x.x) never expands an error of w, so
 * the roundings of w add up at most as a random walk over the samples, sqrt(L). 2^-24
 * per rounding, 4 standard deviations. (Measured: 100 to 1000 times below.)
 */
inline double nlms_float_bound(int N, std::size_t L)
{
    return 4.0 * 5.96e-8 * (std::sqrt(double(N)) + 8.0) * std::sqrt(double(L) + 1.0);
}

//! An echo path: a decaying random impulse response of n taps.
inline std::vector<float> echo_path(int n, std::mt19937& g)
{
    std::normal_distribution<float> nd(0.0f, 1.0f);
    std::vector<float> h(n);
    for (int j = 0; j < n; ++j)
        h[j] = 0.5f * nd(g) * std::exp(-4.0f * j / n);
    return h;
}

//! d = h * x (zero history), in double, rounded to float.
inline std::vector<float> convolve(const std::vector<float>& x,
                                   const std::vector<float>& h)
{
    std::vector<float> d(x.size());
    for (std::size_t n = 0; n < x.size(); ++n) {
        double s = 0.0;
        for (std::size_t j = 0; j < h.size() && j <= n; ++j)
            s += double(h[j]) * x[n - j];
        d[n] = static_cast<float>(s);
    }
    return d;
}

} // namespace test
} // namespace gpufilter
} // namespace gr

#endif
