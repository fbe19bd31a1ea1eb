/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/sample_types.h"
#include "kernel_separation.h"
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {

using vec = std::vector<double>;

//! Oversampling of the range finder: with p = 8 extra columns the captured range
//! misses the (m+1)-th singular direction only with negligible probability (Halko
//! et al., section 10).
constexpr int oversampling = 8;
//! A vector whose part outside the span of the earlier ones is below this fraction
//! of its length adds no direction (it is noise of the earlier ones).
constexpr double dependent = 1e-10;
constexpr double two_pi = 6.283185307179586476925;

double dot(const vec& a, const vec& b)
{
    // Four partial sums: one chain of dependent adds would run at the add latency.
    double s[4] = { 0.0, 0.0, 0.0, 0.0 };
    const std::size_t n = a.size(), n4 = n - n % 4;
    for (std::size_t i = 0; i < n4; i += 4)
        for (int l = 0; l < 4; ++l)
            s[l] += a[i + l] * b[i + l];
    for (std::size_t i = n4; i < n; ++i)
        s[0] += a[i] * b[i];
    return (s[0] + s[1]) + (s[2] + s[3]);
}

void axpy(double a, const vec& x, vec& y)
{
    for (std::size_t i = 0; i < x.size(); ++i)
        y[i] += a * x[i];
}

//! A real matrix, row-major.
struct dense {
    int rows = 0;
    int cols = 0;
    std::vector<double> a;

    const double* row(int i) const
    {
        return a.data() + static_cast<std::size_t>(i) * cols;
    }
    double norm2() const
    {
        return std::inner_product(a.begin(), a.end(), a.begin(), 0.0);
    }
};

//! Columns of A per pass of the products below: a block of every vector (16 x 256
//! doubles) stays in L1 while the rows of A stream by.
constexpr int column_block = 256;

//! A * v for each v of vs (each of length cols).
std::vector<vec> times(const dense& m, const std::vector<vec>& vs)
{
    std::vector<vec> out(vs.size(), vec(m.rows, 0.0));
    for (int j0 = 0; j0 < m.cols; j0 += column_block) {
        const int n = std::min(column_block, m.cols - j0);
        for (int i = 0; i < m.rows; ++i) {
            const double* a = m.row(i) + j0;
            for (std::size_t t = 0; t < vs.size(); ++t) {
                const double* v = vs[t].data() + j0;
                double s[4] = { 0.0, 0.0, 0.0, 0.0 }; // no chain of dependent adds
                int j = 0;
                for (; j + 4 <= n; j += 4)
                    for (int l = 0; l < 4; ++l)
                        s[l] += a[j + l] * v[j + l];
                for (; j < n; ++j)
                    s[0] += a[j] * v[j];
                out[t][i] += (s[0] + s[1]) + (s[2] + s[3]);
            }
        }
    }
    return out;
}

//! A^T * u for each u of us (each of length rows).
std::vector<vec> times_transposed(const dense& m, const std::vector<vec>& us)
{
    std::vector<vec> out(us.size(), vec(m.cols, 0.0));
    for (int j0 = 0; j0 < m.cols; j0 += column_block) {
        const int n = std::min(column_block, m.cols - j0);
        for (int i = 0; i < m.rows; ++i) {
            const double* __restrict a = m.row(i) + j0;
            for (std::size_t t = 0; t < us.size(); ++t) {
                const double c = us[t][i];
                double* __restrict o = out[t].data() + j0;
                for (int j = 0; j < n; ++j)
                    o[j] += c * a[j];
            }
        }
    }
    return out;
}

//! An orthonormal basis of the span of vs: classical Gram-Schmidt applied twice
//! ("twice is enough" for orthogonality to rounding), dropping dependent vectors.
std::vector<vec> orthonormalize(std::vector<vec> vs)
{
    std::vector<vec> q;
    for (auto& v : vs) {
        const double before = std::sqrt(dot(v, v));
        if (before == 0.0)
            continue;
        for (int pass = 0; pass < 2; ++pass) {
            vec c(q.size());
            for (std::size_t s = 0; s < q.size(); ++s)
                c[s] = dot(q[s], v);
            for (std::size_t s = 0; s < q.size(); ++s)
                axpy(-c[s], q[s], v);
        }
        const double after = std::sqrt(dot(v, v));
        if (!(after > dependent * before))
            continue;
        for (auto& x : v)
            x /= after;
        q.push_back(std::move(v));
    }
    return q;
}

/*!
 * One-sided Jacobi (Hestenes): rotates pairs of the columns g until they are
 * mutually orthogonal, applying the same rotations to w. With g = A W0 on entry and
 * W0 orthogonal, on return g = A w still holds: A = g w^T, the columns of g being
 * sigma_j times the left singular vectors and w the right ones.
 */
void jacobi(std::vector<vec>& g, std::vector<vec>& w)
{
    const std::size_t n = g.size();
    for (int sweep = 0; sweep < 64; ++sweep) {
        bool rotated = false;
        for (std::size_t p = 0; p + 1 < n; ++p)
            for (std::size_t q = p + 1; q < n; ++q) {
                const double alpha = dot(g[p], g[p]);
                const double beta = dot(g[q], g[q]);
                const double gamma = dot(g[p], g[q]);
                if (gamma == 0.0 || std::abs(gamma) <= 1e-15 * std::sqrt(alpha * beta))
                    continue;
                rotated = true;
                const double zeta = (beta - alpha) / (2.0 * gamma);
                const double t =
                    std::copysign(1.0, zeta) / (std::abs(zeta) + std::hypot(1.0, zeta));
                const double c = 1.0 / std::sqrt(1.0 + t * t);
                const double s = c * t;
                for (auto* m : { &g, &w })
                    for (std::size_t i = 0; i < (*m)[p].size(); ++i) {
                        const double x = (*m)[p][i], y = (*m)[q][i];
                        (*m)[p][i] = c * x - s * y;
                        (*m)[q][i] = s * x + c * y;
                    }
            }
        if (!rotated)
            break;
    }
}

std::vector<vec> identity(int n)
{
    std::vector<vec> w(n, vec(n, 0.0));
    for (int i = 0; i < n; ++i)
        w[i][i] = 1.0;
    return w;
}

//! A few singular triplets of one real matrix, sigma descending, and the squared
//! Frobenius norm of what the captured range leaves out.
struct svd_part {
    std::vector<double> sigma;
    std::vector<vec> u; // rows long
    std::vector<vec> v; // cols long
    double leftover2 = 0.0;
};

//! Splits Jacobi's columns g (sigma_j times a unit vector) into sigma and unit
//! vectors, sorted by sigma, and pairs them with `other` (the other side's vectors).
void sort_triplets(std::vector<vec>& g,
                   std::vector<vec>& other,
                   svd_part& out,
                   bool g_is_u)
{
    std::vector<double> sigma(g.size());
    for (std::size_t j = 0; j < g.size(); ++j) {
        sigma[j] = std::sqrt(dot(g[j], g[j]));
        if (sigma[j] > 0.0)
            for (auto& x : g[j])
                x /= sigma[j];
    }
    std::vector<std::size_t> order(g.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return sigma[a] > sigma[b];
    });
    for (const auto j : order) {
        out.sigma.push_back(sigma[j]);
        (g_is_u ? out.u : out.v).push_back(std::move(g[j]));
        (g_is_u ? out.v : out.u).push_back(std::move(other[j]));
    }
}

//! Deterministic standard normal numbers: mt19937_64's output is fixed by the
//! standard, std::normal_distribution's is not (Box-Muller by hand).
class gaussian
{
public:
    double operator()()
    {
        const double u1 = (static_cast<double>(d_g() >> 11) + 0.5) * 0x1p-53;
        const double u2 = (static_cast<double>(d_g() >> 11) + 0.5) * 0x1p-53;
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(two_pi * u2);
    }

private:
    std::mt19937_64 d_g{ 0x5eedf17e2dULL };
};

//! The SVD of B = Q^T A (q orthonormal), as triplets of A ~ Q B; leftover2 is
//! ||A - Q B||^2 = ||A||^2 - ||B||^2 (Pythagoras; exact enough for tolerances above
//! 1e-7, and the chosen terms are measured anyway). b: the rows of B, A^T q_t.
svd_part project(const dense& m, const std::vector<vec>& q, std::vector<vec> b)
{
    svd_part out;
    double b2 = 0.0;
    for (const auto& r : b)
        b2 += dot(r, r);
    out.leftover2 = std::max(0.0, m.norm2() - b2);
    // Jacobi on the rows of B gives B = W G^T, so A ~ Q B = (Q W) G^T.
    auto w = identity(static_cast<int>(q.size()));
    jacobi(b, w);
    std::vector<vec> u(w.size(), vec(m.rows, 0.0));
    for (std::size_t j = 0; j < w.size(); ++j)
        for (std::size_t t = 0; t < q.size(); ++t)
            axpy(w[j][t], q[t], u[j]);
    sort_triplets(b, u, out, false);
    return out;
}

//! The leading singular triplets of m, enough for max_terms terms. allowed2: the
//! squared error the whole separation may leave (what decides a power iteration).
svd_part truncated_svd(const dense& m, int max_terms, double allowed2)
{
    svd_part out;
    const int small = std::min(m.rows, m.cols);
    if (small <= max_terms + oversampling) {
        // Exact: Jacobi on the narrow side (columns of A, or of A^T).
        std::vector<vec> g;
        if (m.cols <= m.rows) {
            g = times(m, identity(m.cols)); // the columns of A
            auto w = identity(m.cols);
            jacobi(g, w);
            sort_triplets(g, w, out, true);
        } else {
            g = times_transposed(m, identity(m.rows)); // the rows of A
            auto w = identity(m.rows);
            jacobi(g, w);
            sort_triplets(g, w, out, false);
        }
        return out;
    }

    // Range finder: Q spans A * Omega (two passes over A with B = Q^T A).
    gaussian normal;
    std::vector<vec> omega(max_terms + oversampling, vec(m.cols));
    for (auto& o : omega)
        for (auto& x : o)
            x = normal();
    auto q = orthonormalize(times(m, omega));
    auto b = times_transposed(m, q);
    out = project(m, q, b);
    if (out.leftover2 <= 0.25 * allowed2)
        return out;
    // The range misses too much (a slowly decaying spectrum): one power iteration,
    // Q spanning A A^T Q (B^T = A^T Q is at hand), squares the decay it has to
    // capture. Two more passes.
    q = orthonormalize(times(m, orthonormalize(std::move(b))));
    return project(m, q, times_transposed(m, q));
}

double real_part(float x) { return x; }
double real_part(complex x) { return x.real(); }
double imag_part(float) { return 0.0; }
double imag_part(complex x) { return x.imag(); }

template <class Tap>
Tap make_coef(float sigma, bool imaginary);
template <>
float make_coef<float>(float sigma, bool)
{
    return sigma;
}
template <>
complex make_coef<complex>(float sigma, bool imaginary)
{
    return imaginary ? complex(0.0f, sigma) : complex(sigma, 0.0f);
}

//! A chosen term: which part (0 real, 1 imaginary) and which triplet of it.
struct pick {
    double sigma;
    int part;
    std::size_t index;
};

//! The float terms of the first n picks, and their measured relative residual.
template <class Tap>
kernel_separation<Tap> build(const dense (&parts)[2],
                             const svd_part (&svd)[2],
                             const std::vector<pick>& picks,
                             std::size_t n,
                             double norm2)
{
    kernel_separation<Tap> s;
    dense left[2] = { parts[0], parts[1] }; // what the terms leave of each part
    for (std::size_t p = 0; p < n; ++p) {
        const auto& [sigma, part, index] = picks[p];
        vec u = svd[part].u[index], v = svd[part].v[index];
        // Sign: the first entry of the column at least half the largest in magnitude
        // is positive (a deterministic choice that ties of symmetric vectors, +a and
        // -a, cannot flip by rounding).
        double largest = 0.0;
        for (double x : u)
            largest = std::max(largest, std::abs(x));
        const auto lead = std::find_if(
            u.begin(), u.end(), [&](double x) { return std::abs(x) >= 0.5 * largest; });
        if (lead != u.end() && *lead < 0.0) {
            for (auto& x : u)
                x = -x;
            for (auto& x : v)
                x = -x;
        }
        separable_term<Tap> t;
        const float fs = static_cast<float>(sigma);
        t.coef = make_coef<Tap>(fs, part == 1);
        t.column.assign(u.begin(), u.end());
        t.row.assign(v.begin(), v.end());
        dense& l = left[part];
        for (int i = 0; i < l.rows; ++i) {
            const double a = static_cast<double>(fs) * t.column[i];
            double* lr = l.a.data() + static_cast<std::size_t>(i) * l.cols;
            for (int j = 0; j < l.cols; ++j)
                lr[j] -= a * t.row[j];
        }
        s.terms.push_back(std::move(t));
    }
    const double left2 = left[0].norm2() + (left[1].a.empty() ? 0.0 : left[1].norm2());
    s.residual = std::sqrt(left2 / norm2);
    return s;
}

} // namespace

template <class Tap>
kernel_separation<Tap>
separate_kernel(const kernel2d<Tap>& k, int max_terms, double rel_tol)
{
    if (k.rows < 1 || k.cols < 1 ||
        k.taps.size() != static_cast<std::size_t>(k.rows) * k.cols)
        throw std::invalid_argument(
            "taps: a 2D kernel needs rows * cols taps, at least one; got " +
            std::to_string(k.rows) + " x " + std::to_string(k.cols) + " with " +
            std::to_string(k.taps.size()) + " taps");

    dense parts[2];
    const int nparts = is_complex_v<Tap> ? 2 : 1;
    for (int p = 0; p < nparts; ++p) {
        parts[p].rows = k.rows;
        parts[p].cols = k.cols;
        parts[p].a.resize(k.taps.size());
    }
    for (std::size_t n = 0; n < k.taps.size(); ++n) {
        parts[0].a[n] = real_part(k.taps[n]);
        if (nparts == 2)
            parts[1].a[n] = imag_part(k.taps[n]);
    }
    const double norm2 = parts[0].norm2() + (nparts == 2 ? parts[1].norm2() : 0.0);

    kernel_separation<Tap> none;
    if (!std::isfinite(norm2)) {
        none.residual = std::numeric_limits<double>::quiet_NaN();
        return none;
    }
    if (norm2 == 0.0) {
        none.residual = 0.0;
        if (max_terms >= 1)
            none.terms.push_back({ Tap{},
                                   std::vector<float>(k.rows, 0.0f),
                                   std::vector<float>(k.cols, 0.0f) });
        return none;
    }
    if (max_terms < 1)
        return none;

    // Dropping the smallest singular values of both parts together leaves the least
    // error for a given count: pick them largest first.
    const double allowed2 = rel_tol * rel_tol * norm2;
    svd_part svd[2];
    std::vector<pick> picks;
    double leftover2 = 0.0;
    for (int p = 0; p < nparts; ++p) {
        if (parts[p].norm2() == 0.0)
            continue;
        svd[p] = truncated_svd(parts[p], max_terms, allowed2);
        leftover2 += svd[p].leftover2;
        for (std::size_t i = 0; i < svd[p].sigma.size(); ++i)
            picks.push_back({ svd[p].sigma[i], p, i });
    }
    std::stable_sort(picks.begin(), picks.end(), [](const pick& a, const pick& b) {
        return a.sigma > b.sigma;
    });
    // tail2[n]: what the first n picks leave, by the singular values.
    std::vector<double> tail2(picks.size() + 1, leftover2);
    for (std::size_t n = picks.size(); n-- > 0;)
        tail2[n] = tail2[n + 1] + picks[n].sigma * picks[n].sigma;

    const std::size_t most = std::min<std::size_t>(max_terms, picks.size());
    for (std::size_t n = 1; n <= most; ++n) {
        if (tail2[n] > allowed2)
            continue;
        // The float terms are measured: rounding may need one term more, or fail.
        auto s = build<Tap>(parts, svd, picks, n, norm2);
        if (s.residual <= rel_tol)
            return s;
    }
    return none;
}

template kernel_separation<float> separate_kernel(const kernel2d<float>&, int, double);
template kernel_separation<complex>
separate_kernel(const kernel2d<complex>&, int, double);

} // namespace cuda
} // namespace gpufilter
} // namespace gr
