/* SPDX-License-Identifier: GPL-3.0-or-later */
// separate_kernel (host only): known ranks are found, reconstructions are within the
// tolerance, and what it reports is what it returns.

#include "fir2d/kernel_separation.h"
#include <gtest/gtest.h>
#include <chrono>
#include <cmath>
#include <complex>
#include <iostream>
#include <random>
#include <vector>

namespace gr {
namespace gpufilter {
namespace test {
namespace {

using cuda::kernel2d;
using cuda::kernel_separation;
using cuda::separate_kernel;
using cplx = std::complex<float>;
using cd = std::complex<double>;

cd widen(float x) { return { x, 0.0 }; }
cd widen(cplx x) { return { x.real(), x.imag() }; }

std::vector<double> random_vec(int n, std::mt19937& g)
{
    std::vector<double> v(n);
    for (auto& x : v)
        x = std::uniform_real_distribution<double>(-1.0, 1.0)(g);
    return v;
}

std::vector<double> gaussian_1d(int n, double sigma)
{
    std::vector<double> v(n);
    for (int i = 0; i < n; ++i) {
        const double x = i - (n - 1) / 2.0;
        v[i] = std::exp(-x * x / (2.0 * sigma * sigma));
    }
    return v;
}

//! sum_t c_t * u_t v_t^T, rounded to the taps' type.
template <class Tap>
kernel2d<Tap> outer_sum(const std::vector<Tap>& c,
                        const std::vector<std::vector<double>>& u,
                        const std::vector<std::vector<double>>& v)
{
    kernel2d<Tap> k;
    k.rows = static_cast<int>(u[0].size());
    k.cols = static_cast<int>(v[0].size());
    for (int i = 0; i < k.rows; ++i)
        for (int j = 0; j < k.cols; ++j) {
            cd acc = 0.0;
            for (std::size_t t = 0; t < c.size(); ++t)
                acc += widen(c[t]) * u[t][i] * v[t][j];
            if constexpr (std::is_same_v<Tap, float>)
                k.taps.push_back(static_cast<float>(acc.real()));
            else
                k.taps.push_back(cplx(acc.real(), acc.imag()));
        }
    return k;
}

template <class Tap>
kernel2d<Tap> from_rows(const std::vector<std::vector<Tap>>& rows)
{
    return cuda::make_kernel2d(rows);
}

//! ||K - sum of terms||_F / ||K||_F from the terms as returned.
template <class Tap>
double measured_residual(const kernel2d<Tap>& k, const kernel_separation<Tap>& s)
{
    double num = 0.0, den = 0.0;
    for (int i = 0; i < k.rows; ++i)
        for (int j = 0; j < k.cols; ++j) {
            cd sum = 0.0;
            for (const auto& t : s.terms)
                sum += widen(t.coef) * double(t.column[i]) * double(t.row[j]);
            num += std::norm(widen(k.at(i, j)) - sum);
            den += std::norm(widen(k.at(i, j)));
        }
    return den == 0.0 ? std::sqrt(num) : std::sqrt(num / den);
}

//! The rules every separation keeps: sizes, unit vectors, the column's sign rule, weights
//! descending, and the residual it reports is the real one.
template <class Tap>
void expect_well_formed(const kernel2d<Tap>& k,
                        const kernel_separation<Tap>& s,
                        double rel_tol,
                        const std::string& what)
{
    double last = INFINITY;
    for (const auto& t : s.terms) {
        ASSERT_EQ(t.column.size(), std::size_t(k.rows)) << what;
        ASSERT_EQ(t.row.size(), std::size_t(k.cols)) << what;
        double cn = 0.0, rn = 0.0, largest = 0.0, lead = 0.0;
        for (float x : t.column) {
            cn += double(x) * x;
            largest = std::max(largest, double(std::abs(x)));
        }
        for (float x : t.column)
            if (std::abs(x) >= 0.5 * largest) {
                lead = x;
                break;
            }
        for (float x : t.row)
            rn += double(x) * x;
        EXPECT_NEAR(cn, 1.0, 1e-6) << what;
        EXPECT_NEAR(rn, 1.0, 1e-6) << what;
        EXPECT_GT(lead, 0.0) << what;
        const double w = std::abs(widen(t.coef));
        EXPECT_LE(w, last * (1 + 1e-6)) << what << ": weights not descending";
        last = w;
    }
    if (!s.terms.empty()) {
        EXPECT_LE(s.residual, rel_tol) << what;
        EXPECT_NEAR(measured_residual(k, s), s.residual, 1e-9) << what;
    }
}

template <class Tap>
kernel_separation<Tap> check(const kernel2d<Tap>& k,
                             int max_terms,
                             std::size_t want_terms,
                             const std::string& what,
                             double rel_tol = 1e-6)
{
    const auto s = separate_kernel(k, max_terms, rel_tol);
    EXPECT_EQ(s.terms.size(), want_terms) << what << " (residual " << s.residual << ")";
    expect_well_formed(k, s, rel_tol, what);
    return s;
}

TEST(kernel_separation, gaussian_box_and_sobel_are_rank_1)
{
    const auto g = gaussian_1d(9, 1.7), h = gaussian_1d(13, 3.1);
    check(outer_sum<float>({ 1.0f }, { g }, { h }), 4, 1, "gaussian 9x13");
    check(from_rows<float>({ { 1, 1, 1 }, { 1, 1, 1 }, { 1, 1, 1 }, { 1, 1, 1 } }),
          4,
          1,
          "box 4x3");
    const auto s = check(
        from_rows<float>({ { 1, 0, -1 }, { 2, 0, -2 }, { 1, 0, -1 } }), 4, 1, "sobel");
    // Sobel = [1 2 1]^T [1 0 -1]: the column's direction, positive.
    EXPECT_NEAR(s.terms[0].column[1] / s.terms[0].column[0], 2.0, 1e-6);
    EXPECT_NEAR(s.terms[0].column[0], 1.0 / std::sqrt(6.0), 1e-6);
    EXPECT_NEAR(std::abs(s.terms[0].row[1]), 0.0, 1e-7);
    EXPECT_NEAR(std::abs(s.terms[0].coef), std::sqrt(12.0), 1e-5); // ||K||_F
}

TEST(kernel_separation, difference_of_gaussians_is_rank_2)
{
    const auto a = gaussian_1d(15, 1.5), b = gaussian_1d(15, 3.0);
    check(outer_sum<float>({ 1.0f, -0.25f }, { a, b }, { a, b }), 4, 2, "DoG 15x15");
}

TEST(kernel_separation, random_outer_products_keep_their_rank)
{
    std::mt19937 g(7);
    for (int rank = 1; rank <= 3; ++rank)
        for (auto [kh, kw] : { std::pair{ 5, 9 }, { 9, 5 }, { 16, 16 }, { 31, 7 } }) {
            std::vector<std::vector<double>> u, v;
            std::vector<float> c;
            for (int t = 0; t < rank; ++t) {
                u.push_back(random_vec(kh, g));
                v.push_back(random_vec(kw, g));
                c.push_back(1.0f + t);
            }
            const std::string what = "rank " + std::to_string(rank) + " " +
                                     std::to_string(kh) + "x" + std::to_string(kw);
            check(outer_sum(c, u, v), 8, rank, what);
            // One term fewer than the rank is not enough: no terms.
            if (rank > 1) {
                const auto s = check(outer_sum(c, u, v), rank - 1, 0, what + " short");
                EXPECT_EQ(s.residual, 1.0);
            }
        }
}

TEST(kernel_separation, random_full_rank_kernel)
{
    std::mt19937 g(11);
    kernel2d<float> k{ 7, 9, {} };
    for (int n = 0; n < 63; ++n)
        k.taps.push_back(std::uniform_real_distribution<float>(-1, 1)(g));
    for (int max_terms = 1; max_terms < 7; ++max_terms)
        check(k, max_terms, 0, "7x9 random, max " + std::to_string(max_terms));
    check(k, 7, 7, "7x9 random, max 7");
    check(k, 20, 7, "7x9 random, max 20");
}

TEST(kernel_separation, complex_kernel_separates_real_and_imaginary_parts)
{
    std::mt19937 g(3);
    const auto u1 = random_vec(6, g), v1 = random_vec(11, g);
    const auto u2 = random_vec(6, g), v2 = random_vec(11, g);
    const auto k =
        outer_sum<cplx>({ cplx(2.0f, 0.0f), cplx(0.0f, 0.5f) }, { u1, u2 }, { v1, v2 });
    const auto s = check(k, 4, 2, "complex rank 1 + j rank 1");
    ASSERT_EQ(s.terms.size(), 2u);
    EXPECT_EQ(s.terms[0].coef.imag(), 0.0f);
    EXPECT_GT(s.terms[0].coef.real(), 0.0f);
    EXPECT_EQ(s.terms[1].coef.real(), 0.0f);
    EXPECT_GT(s.terms[1].coef.imag(), 0.0f);
    check(k, 1, 0, "complex with one term");

    // A general complex rank-1 kernel c u v^T: one term per part.
    const auto k2 = outer_sum<cplx>({ cplx(0.6f, -0.8f) }, { u1 }, { v2 });
    check(k2, 4, 2, "complex c u v^T");
    // Purely imaginary: one term, coef j*sigma.
    const auto k3 = outer_sum<cplx>({ cplx(0.0f, -3.0f) }, { u2 }, { v1 });
    const auto s3 = check(k3, 4, 1, "imaginary");
    EXPECT_EQ(s3.terms[0].coef.real(), 0.0f);
}

TEST(kernel_separation, small_and_thin_shapes)
{
    check(from_rows<float>({ { -2.5f } }), 1, 1, "1x1");
    const auto s = separate_kernel(from_rows<float>({ { -2.5f } }), 1);
    EXPECT_FLOAT_EQ(s.terms[0].coef * s.terms[0].column[0] * s.terms[0].row[0], -2.5f);
    check(from_rows<cplx>({ { cplx(1.0f, -2.0f) } }), 2, 2, "1x1 complex");
    std::mt19937 g(5);
    for (int n : { 2, 7, 64, 301 }) {
        const auto a = random_vec(n, g);
        std::vector<std::vector<float>> row(1), col;
        for (double x : a) {
            row[0].push_back(float(x));
            col.push_back({ float(x) });
        }
        check(from_rows(row), 1, 1, "1x" + std::to_string(n));
        check(from_rows(col), 1, 1, std::to_string(n) + "x1");
    }
    check(from_rows<float>({ { 1, 2, 3 }, { 2, 4, 6 }, { -1, -2, -3 } }), 3, 1, "3x3 r1");
    check(from_rows<float>({ { 1, 2, 3 }, { 2, 4, 7 }, { -1, -2, -3 } }), 3, 2, "3x3 r2");
}

TEST(kernel_separation, zero_nan_and_no_budget)
{
    kernel2d<float> z{ 3, 4, std::vector<float>(12, 0.0f) };
    const auto s = separate_kernel(z, 2);
    ASSERT_EQ(s.terms.size(), 1u);
    EXPECT_EQ(s.terms[0].coef, 0.0f);
    EXPECT_EQ(s.terms[0].column.size(), 3u);
    EXPECT_EQ(s.terms[0].row.size(), 4u);
    EXPECT_EQ(s.residual, 0.0);

    kernel2d<float> n{ 2, 2, { 1.0f, NAN, 0.0f, 1.0f } };
    EXPECT_TRUE(separate_kernel(n, 4).terms.empty());
    EXPECT_TRUE(std::isnan(separate_kernel(n, 4).residual));

    kernel2d<float> one{ 1, 1, { 1.0f } };
    EXPECT_TRUE(separate_kernel(one, 0).terms.empty());
    EXPECT_THROW(separate_kernel(kernel2d<float>{ 2, 2, { 1.0f } }, 1),
                 std::invalid_argument);
    EXPECT_THROW(separate_kernel(kernel2d<float>{}, 1), std::invalid_argument);
}

TEST(kernel_separation, large_gaussian_is_fast)
{
    const auto g = gaussian_1d(751, 120.0);
    const auto k = outer_sum<float>({ 1.0f }, { g }, { g });
    const auto t0 = std::chrono::steady_clock::now();
    const auto s = separate_kernel(k, 8);
    const auto t1 = std::chrono::steady_clock::now();
    std::cout << "separate_kernel 751x751 gaussian, max_terms 8: "
              << std::chrono::duration<double, std::milli>(t1 - t0).count() << " ms\n";
    EXPECT_EQ(s.terms.size(), 1u);
    expect_well_formed(k, s, 1e-6, "751x751 gaussian");
}

TEST(kernel_separation, randomized_path_finds_rank)
{
    std::mt19937 g(9);
    for (auto [kh, kw, rank] :
         { std::tuple{ 101, 101, 2 }, { 200, 300, 5 }, { 90, 40, 4 } }) {
        std::vector<std::vector<double>> u, v;
        std::vector<float> c;
        for (int t = 0; t < rank; ++t) {
            u.push_back(random_vec(kh, g));
            v.push_back(random_vec(kw, g));
            c.push_back(std::pow(0.3f, t));
        }
        const auto k = outer_sum(c, u, v);
        const std::string what = std::to_string(kh) + "x" + std::to_string(kw);
        check(k, rank, rank, what + " at max_terms = rank");
        check(k, rank + 1, rank, what);
        check(k, rank - 1, 0, what + " short");
    }
    // A complex 101x101 kernel of rank 2 in both parts.
    const auto a = random_vec(101, g), b = random_vec(101, g), c = random_vec(101, g);
    const auto k =
        outer_sum<cplx>({ cplx(1, 1), cplx(-0.5f, 0.25f) }, { a, b }, { c, a });
    check(k, 8, 4, "complex 101x101");
}

TEST(kernel_separation, randomized_agrees_with_exact_on_a_decaying_spectrum)
{
    // A rotated anisotropic Gaussian is not separable along the axes: its singular
    // values decay fast but none is zero, so the count depends on the tolerance.
    const int n = 61;
    kernel2d<float> k{ n, n, {} };
    const double th = 0.6, s1 = 9.0, s2 = 2.5;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            const double y = i - 30.0, x = j - 30.0;
            const double a = std::cos(th) * x + std::sin(th) * y;
            const double b = -std::sin(th) * x + std::cos(th) * y;
            k.taps.push_back(
                float(std::exp(-a * a / (2 * s1 * s1) - b * b / (2 * s2 * s2))));
        }
    for (double tol : { 1e-2, 1e-3, 1e-4, 1e-5 }) {
        const auto fast = separate_kernel(k, 20, tol);  // 61 > 28: range finder
        const auto exact = separate_kernel(k, 60, tol); // Jacobi on the kernel
        ASSERT_FALSE(exact.terms.empty()) << tol;
        ASSERT_FALSE(fast.terms.empty()) << tol;
        EXPECT_LE(fast.terms.size(), exact.terms.size() + 1) << tol;
        EXPECT_GE(fast.terms.size(), exact.terms.size()) << tol;
        expect_well_formed(k, fast, tol, "rotated gaussian, fast");
        expect_well_formed(k, exact, tol, "rotated gaussian, exact");
        // Fewer terms than the exact count cannot reach the tolerance.
        const auto fewer = separate_kernel(k, int(exact.terms.size()) - 1, tol);
        EXPECT_TRUE(fewer.terms.empty()) << tol;
    }
}

//! Orthonormal vectors of length n (Gram-Schmidt of random ones, twice).
std::vector<std::vector<double>> random_orthonormal(int count, int n, std::mt19937& g)
{
    std::vector<std::vector<double>> q;
    while (int(q.size()) < count) {
        auto v = random_vec(n, g);
        for (int pass = 0; pass < 2; ++pass)
            for (const auto& p : q) {
                double d = 0.0;
                for (int i = 0; i < n; ++i)
                    d += p[i] * v[i];
                for (int i = 0; i < n; ++i)
                    v[i] -= d * p[i];
            }
        double norm = 0.0;
        for (double x : v)
            norm += x * x;
        for (auto& x : v)
            x /= std::sqrt(norm);
        q.push_back(v);
    }
    return q;
}

TEST(kernel_separation, flat_tail_needs_the_power_iteration)
{
    // Three strong directions over 97 weak ones of equal weight: the range of
    // max_terms + 8 random columns misses most of the flat tail, which is nearly
    // the whole error budget, so the range is refined; the terms must still be the
    // leading singular triplets (those of the exact path).
    std::mt19937 g(21);
    const int n = 100;
    const auto u = random_orthonormal(n, n, g), v = random_orthonormal(n, n, g);
    std::vector<float> sigma(n, 1e-3f);
    sigma[0] = 1.0f;
    sigma[1] = 0.5f;
    sigma[2] = 0.3f;
    const auto k = outer_sum(sigma, u, v);
    const double tol = 1e-2;
    const auto fast = separate_kernel(k, 4, tol);
    const auto exact = separate_kernel(k, 100, tol);
    ASSERT_EQ(exact.terms.size(), 3u);
    ASSERT_EQ(fast.terms.size(), 3u);
    expect_well_formed(k, fast, tol, "flat tail, fast");
    for (int t = 0; t < 3; ++t)
        EXPECT_NEAR(fast.terms[t].coef, exact.terms[t].coef, 1e-5) << t;
    EXPECT_NEAR(fast.residual, exact.residual, 1e-6);
}

TEST(kernel_separation, deterministic)
{
    std::mt19937 g(13);
    const auto k = outer_sum<float>({ 1.0f, 0.5f },
                                    { random_vec(120, g), random_vec(120, g) },
                                    { random_vec(80, g), random_vec(80, g) });
    const auto a = separate_kernel(k, 4), b = separate_kernel(k, 4);
    ASSERT_EQ(a.terms.size(), b.terms.size());
    for (std::size_t t = 0; t < a.terms.size(); ++t) {
        EXPECT_EQ(a.terms[t].coef, b.terms[t].coef);
        EXPECT_EQ(a.terms[t].column, b.terms[t].column);
        EXPECT_EQ(a.terms[t].row, b.terms[t].row);
    }
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
