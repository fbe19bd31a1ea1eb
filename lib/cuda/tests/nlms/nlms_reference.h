/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_TESTS_NLMS_REFERENCE_H
#define INCLUDED_GPUFILTER_TESTS_NLMS_REFERENCE_H

// NLMS references for the engine tests: the update in float64, sample by sample, and
// a float32 emulation of the GPU kernel's arithmetic (its thread/tap mapping, tiles,
// fused update and reduction order), which runs without a GPU.

#include "nlms/nlms_shape.h"
#include "nlms/nlms_tuning.h"
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
 * The kernel's float arithmetic on the host, one filter: threads T and K taps each
 * from the tuning's shape (nlms_shape_for), thread t holding taps t + k*T; tiles of the
 * shape's length with the window [N-1 history | tile] indexed as the kernel does; per
 * sample the fused update-and-dot with fmaf, the xor butterfly within each warp and the
 * warp sums added in warp order. A call is one launch (the tile restarts with it).
 */
struct nlms_emulation {
    int N;
    float mu, eps;
    cuda::nlms_shape shape;
    std::vector<float> w, hist;

    nlms_emulation(int n, float mu_, float eps_, const cuda::nlms_tuning& tuning)
        : N(n),
          mu(mu_),
          eps(eps_),
          shape(cuda::nlms_shape_for(tuning, n)),
          w(n, 0.0f),
          hist(n > 1 ? n - 1 : 1, 0.0f)
    {
    }

    //! Butterfly of __shfl_xor_sync over 32 lanes: every lane's final value.
    static void butterfly(std::vector<float>& v, int base)
    {
        for (int o = 16; o > 0; o >>= 1) {
            std::vector<float> next(32);
            for (int l = 0; l < 32; ++l)
                next[l] = v[base + l] + v[base + (l ^ o)];
            for (int l = 0; l < 32; ++l)
                v[base + l] = next[l];
        }
    }

    std::vector<float> run(const float* x, const float* d, std::size_t n)
    {
        const int T = shape.threads, K = shape.taps_per_thread, C = shape.tile;
        std::vector<float> e(n);
        std::vector<float> wr(T * K), xp(T * K), acc(T), sq(T);
        for (int t = 0; t < T; ++t)
            for (int k = 0; k < K; ++k) {
                const int j = t + k * T;
                wr[t * K + k] = j < N ? w[j] : 0.0f;
            }
        std::vector<float> sx(N - 1 + C);
        for (std::size_t n0 = 0; n0 < n; n0 += C) {
            const int c = static_cast<int>(std::min<std::size_t>(C, n - n0));
            for (int i = 0; i < N - 1; ++i)
                sx[i] = hist[i];
            for (int i = 0; i < c; ++i)
                sx[N - 1 + i] = x[n0 + i];
            float g = 0.0f;
            std::fill(xp.begin(), xp.end(), 0.0f);
            for (int i = 0; i < c; ++i) {
                for (int t = 0; t < T; ++t) {
                    float a = 0.0f, s = 0.0f;
                    for (int k = 0; k < K; ++k) {
                        const int j = t + k * T;
                        const float xv = j < N ? sx[N - 1 + i - j] : 0.0f;
                        float& wk = wr[t * K + k];
                        wk = std::fma(g, xp[t * K + k], wk);
                        a = std::fma(wk, xv, a);
                        s = std::fma(xv, xv, s);
                        xp[t * K + k] = xv;
                    }
                    acc[t] = a;
                    sq[t] = s;
                }
                for (int b = 0; b < T; b += 32) {
                    butterfly(acc, b);
                    butterfly(sq, b);
                }
                float y = acc[0], nrm = sq[0];
                if (T > 32) {
                    y = 0.0f;
                    nrm = 0.0f;
                    for (int q = 0; q < T / 32; ++q) {
                        y += acc[32 * q];
                        nrm += sq[32 * q];
                    }
                }
                const float err = d[n0 + i] - y;
                g = mu * err / (eps + nrm);
                e[n0 + i] = err;
            }
            for (int t = 0; t < T * K; ++t)
                wr[t] = std::fma(g, xp[t], wr[t]);
            for (int i = 0; i < N - 1; ++i)
                hist[i] = sx[c + i];
        }
        for (int t = 0; t < T; ++t)
            for (int k = 0; k < K; ++k) {
                const int j = t + k * T;
                if (j < N)
                    w[j] = wr[t * K + k];
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
