/* SPDX-License-Identifier: GPL-3.0-or-later */
// fir2d_separable_engine: kernels built from known terms, separated by
// separate_kernel, run over block-use and SciPy-mode windows and compared with the
// float64 reference of the original kernel.

#include "../gpu_test_env.h"
#include "../reference.h"
#include "common/resources.h"
#include "fir2d/fir2d_separable_engine.h"
#include "fir2d/kernel_separation.h"
#include "fir2d_reference.h"
#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace gr {
namespace gpufilter {
namespace test {
namespace {

using cuda::complex;
using cuda::fir2d_limits;
using cuda::kernel2d;
using cuda::output_window;
using cuda::row_source;

// Each output may be off by rel * sum |k||x|. The separation's terms reproduce the
// kernel to ~1e-7 (exact rank, float vectors; separate_kernel allows 1e-6 in
// Frobenius norm), the two float passes add ~sqrt(kh + kw) * 6e-8, and with r > 1
// terms the SVD's terms partly cancel where the kernel's entries do not (a few
// times more). 2e-5 leaves a margin over all that; a wrong index gives O(1).
constexpr double tolerance = 2e-5;

template <class T_, class Tap_>
struct types {
    using T = T_;
    using Tap = Tap_;
};
using separable_types =
    ::testing::Types<types<float, float>, types<complex, float>, types<complex, complex>>;

float uniform(std::mt19937& g, float lo, float hi)
{
    return std::uniform_real_distribution<float>(lo, hi)(g);
}
template <class Tap>
Tap random_coef(std::mt19937& g, bool positive);
template <>
float random_coef<float>(std::mt19937& g, bool positive)
{
    return positive ? uniform(g, 0.5f, 1.5f) : uniform(g, -1.5f, 1.5f);
}
template <>
complex random_coef<complex>(std::mt19937& g, bool positive)
{
    const float re = random_coef<float>(g, positive);
    return { re, random_coef<float>(g, positive) };
}

/*!
 * sum of `rank` terms c_t u_t v_t^T in float64, rounded to Tap. positive: entries of
 * u, v in [0.5, 1] and positive coefficients, so that no entry of the kernel is
 * small next to the others (outputs at the corners of a full window see a single
 * entry, and the bound of expect_fir2d_close is that entry's).
 */
template <class Tap>
kernel2d<Tap>
low_rank_kernel(int kh, int kw, int rank, std::mt19937& g, bool positive = true)
{
    std::vector<std::vector<double>> u(rank), v(rank);
    std::vector<Tap> c;
    for (int t = 0; t < rank; ++t) {
        for (int i = 0; i < kh; ++i)
            u[t].push_back(positive ? uniform(g, 0.5f, 1.0f) : uniform(g, -1.0f, 1.0f));
        for (int j = 0; j < kw; ++j)
            v[t].push_back(positive ? uniform(g, 0.5f, 1.0f) : uniform(g, -1.0f, 1.0f));
        c.push_back(random_coef<Tap>(g, positive));
    }
    kernel2d<Tap> k{ kh, kw, {} };
    for (int i = 0; i < kh; ++i)
        for (int j = 0; j < kw; ++j) {
            std::complex<double> acc = 0.0;
            for (int t = 0; t < rank; ++t)
                acc += as_cd(c[t]) * u[t][i] * v[t][j];
            if constexpr (cuda::is_complex_v<Tap>)
                k.taps.push_back(complex(float(acc.real()), float(acc.imag())));
            else
                k.taps.push_back(float(acc.real()));
        }
    return k;
}

//! The numerical rank separate_kernel must find: the rank of each part (real
//! coefficients: one part), at most min(kh, kw) each.
template <class Tap>
std::size_t expected_terms(int kh, int kw, int rank)
{
    return std::size_t(std::min({ kh, kw, rank })) * (cuda::is_complex_v<Tap> ? 2 : 1);
}

//! Host rows (history, then the images' input with gaps of NaN between them).
template <class T>
struct host_rows {
    std::vector<T> history;
    std::vector<T> input;
    row_source<T> src; // host pointers

    host_rows(int width,
              long history_rows,
              long rows,
              int images,
              std::size_t stride,
              std::mt19937& g)
    {
        history = random_vector<T>(std::size_t(history_rows) * width, g);
        input.assign(stride * (images - 1) + std::size_t(rows) * width, poison<T>());
        for (int b = 0; b < images; ++b) {
            const auto x = random_vector<T>(std::size_t(rows) * width, g);
            std::copy(x.begin(), x.end(), input.begin() + b * stride);
        }
        src = { history.data(), history_rows, input.data(), rows, width, images, stride };
    }
};

template <class T>
cuda::device_buffer<T> upload(const std::vector<T>& v, cudaStream_t s)
{
    cuda::device_buffer<T> d(v.size());
    if (!v.empty())
        GPUFILTER_CHECK(
            cudaMemcpyAsync(d.get(), v.data(), d.bytes(), cudaMemcpyHostToDevice, s));
    return d;
}

/*!
 * Runs the engine on rows' window into a NaN-poisoned output (with gaps between
 * images when win.image_stride says so, and 61 items past the end), checks that
 * only the window's outputs were written and returns them, image after image.
 */
template <class T, class Tap>
std::vector<T> run_window(cuda::fir2d_separable_engine<T, Tap>& engine,
                          const host_rows<T>& rows,
                          const output_window& win,
                          const std::string& what)
{
    cuda::stream s;
    const auto d_history = upload(rows.history, s);
    const auto d_input = upload(rows.input, s);
    row_source<T> src = rows.src;
    src.history = d_history.get();
    src.input = d_input.get();

    const std::size_t per_image = std::size_t(win.rows) * win.width;
    const std::size_t span = win.image_stride * (src.images - 1) + per_image;
    std::vector<T> host_out(span + 61, poison<T>());
    auto d_out = upload(host_out, s);
    engine.run(src, win, d_out.get(), s);
    GPUFILTER_CHECK(cudaMemcpyAsync(
        host_out.data(), d_out.get(), d_out.bytes(), cudaMemcpyDeviceToHost, s));
    s.synchronize();

    std::vector<T> got;
    std::size_t stray = 0;
    const std::size_t stride = std::max<std::size_t>(win.image_stride, 1);
    for (std::size_t n = 0; n < host_out.size(); ++n) {
        const std::size_t b = n / stride, in_image = n % stride;
        if (b < std::size_t(src.images) && in_image < per_image)
            got.push_back(host_out[n]);
        else if (!std::isnan(as_cd(host_out[n]).real()))
            ++stray;
    }
    EXPECT_EQ(stray, 0u) << what << ": outputs written outside the window";
    return got;
}

//! run_window, compared with the float64 reference of the original kernel.
template <class T, class Tap>
void run_and_check(cuda::fir2d_separable_engine<T, Tap>& engine,
                   const kernel2d<Tap>& k,
                   const host_rows<T>& rows,
                   const output_window& win,
                   const std::string& what)
{
    const auto got = run_window(engine, rows, win, what);
    expect_fir2d_close(got, reference_fir2d(k, rows.src, win), win, tolerance, what);
}

std::string shape(int kh, int kw, int rank)
{
    return std::to_string(kh) + "x" + std::to_string(kw) + " rank " +
           std::to_string(rank);
}

using cuda::separable_path;

//! The paths a kernel can take: two_pass always, fused up to 32 x 32.
std::vector<separable_path> paths_for(int kh, int kw)
{
    if (kh <= 32 && kw <= 32)
        return { separable_path::two_pass, separable_path::fused };
    return { separable_path::two_pass };
}

const char* name_of(separable_path p)
{
    return p == separable_path::fused ? " (fused)" : " (two-pass)";
}

template <class P>
class fir2d_separable_test : public ::testing::Test
{
protected:
    using T = typename P::T;
    using Tap = typename P::Tap;
    void SetUp() override { GPUFILTER_REQUIRE_DEVICE_OR_SKIP(); }

    //! k separated with up to max_terms terms; the count must be `want`.
    cuda::kernel_separation<Tap>
    separate(const kernel2d<Tap>& k, std::size_t want, int max_terms = 8)
    {
        auto sep = cuda::separate_kernel(k, max_terms);
        EXPECT_EQ(sep.terms.size(), want) << "residual " << sep.residual;
        return sep;
    }

    /*!
     * The block's use: history kh-1 rows, outputs for the n input rows, the row
     * centred ('same' along the row).
     */
    void block_use(const kernel2d<Tap>& k,
                   std::size_t want,
                   int width,
                   long n,
                   const std::string& what,
                   int max_terms = 8)
    {
        const auto sep = separate(k, want, max_terms);
        if (sep.terms.empty())
            return;
        const int off = (k.cols - 1) / 2;
        const host_rows<T> rows(width, k.rows - 1, n, 1, std::size_t(n) * width, rng);
        for (const auto path : paths_for(k.rows, k.cols)) {
            cuda::fir2d_separable_engine<T, Tap> e(
                sep, fir2d_limits{ width, width, off, n, 1 }, path);
            ASSERT_EQ(e.path(), path);
            run_and_check(e,
                          k,
                          rows,
                          output_window{ 0, n, width, off, std::size_t(n) * width },
                          what + name_of(path));
        }
    }

    //! SciPy's full, same and valid on a stack of images R x C, with gaps between the
    //! images in the input and in the output. plane_bytes: the engine's planes.
    void scipy_modes(const kernel2d<Tap>& k,
                     std::size_t want,
                     int images,
                     long R,
                     int C,
                     const std::string& what,
                     int max_terms = 8,
                     std::size_t plane_bytes =
                         cuda::fir2d_separable_engine<T, Tap>::default_plane_bytes)
    {
        const auto sep = separate(k, want, max_terms);
        if (sep.terms.empty())
            return;
        const int kh = k.rows, kw = k.cols;
        const host_rows<T> rows(C, 0, R, images, std::size_t(R) * C + 5, rng);
        struct mode {
            const char* name;
            output_window win;
        };
        std::vector<mode> modes = {
            { "full", { 0, R + kh - 1, C + kw - 1, 0, 0 } },
            { "same", { (kh - 1) / 2, R, C, (kw - 1) / 2, 0 } },
        };
        if (R >= kh && C >= kw)
            modes.push_back({ "valid", { kh - 1, R - kh + 1, C - kw + 1, kw - 1, 0 } });
        for (auto& m : modes)
            for (const auto path : paths_for(kh, kw)) {
                m.win.image_stride = std::size_t(m.win.rows) * m.win.width + 7;
                cuda::fir2d_separable_engine<T, Tap> e(
                    sep,
                    fir2d_limits{ C, m.win.width, m.win.col_offset, m.win.rows, images },
                    path,
                    plane_bytes);
                run_and_check(e, k, rows, m.win, what + " " + m.name + name_of(path));
            }
    }

    std::mt19937 rng{ 2718 };
};
TYPED_TEST_SUITE(fir2d_separable_test, separable_types);

TYPED_TEST(fir2d_separable_test, block_use_over_kernel_sizes_and_ranks)
{
    using Tap = typename TestFixture::Tap;
    for (auto [kh, kw] : { std::pair{ 1, 1 },
                           { 2, 2 },
                           { 3, 3 },
                           { 5, 9 },
                           { 4, 6 },
                           { 7, 4 },
                           { 8, 1 },
                           { 1, 10 } })
        for (int rank = 1; rank <= 3; ++rank)
            for (int width : { 37, 64 }) {
                const std::string what =
                    shape(kh, kw, rank) + " width " + std::to_string(width);
                this->block_use(low_rank_kernel<Tap>(kh, kw, rank, this->rng),
                                expected_terms<Tap>(kh, kw, rank),
                                width,
                                45,
                                what);
                // Signed entries (interior outputs sum over whole windows).
                this->block_use(low_rank_kernel<Tap>(kh, kw, rank, this->rng, false),
                                expected_terms<Tap>(kh, kw, rank),
                                width,
                                45,
                                what + " signed");
            }
}

TYPED_TEST(fir2d_separable_test, scipy_modes_on_a_stack_of_images)
{
    using Tap = typename TestFixture::Tap;
    for (auto [kh, kw, rank] :
         { std::tuple{ 5, 9, 2 }, { 4, 6, 3 }, { 3, 3, 1 }, { 6, 5, 2 } })
        this->scipy_modes(low_rank_kernel<Tap>(kh, kw, rank, this->rng),
                          expected_terms<Tap>(kh, kw, rank),
                          3,
                          23,
                          31,
                          shape(kh, kw, rank));
}

TYPED_TEST(fir2d_separable_test, complex_kernel_with_rank_one_parts)
{
    using Tap = typename TestFixture::Tap;
    if constexpr (cuda::is_complex_v<Tap>) {
        // u1 v1^T + j u2 v2^T: one term of each part.
        auto re = low_rank_kernel<float>(7, 5, 1, this->rng);
        auto im = low_rank_kernel<float>(7, 5, 1, this->rng);
        kernel2d<complex> k{ 7, 5, {} };
        for (std::size_t n = 0; n < re.taps.size(); ++n)
            k.taps.push_back({ re.taps[n], im.taps[n] });
        this->block_use(k, 2, 50, 30, "rank 1 + j rank 1");
        this->scipy_modes(k, 2, 2, 19, 26, "rank 1 + j rank 1");
    } else {
        GTEST_SKIP() << "real taps";
    }
}

TYPED_TEST(fir2d_separable_test, kernel_wider_than_the_row)
{
    using Tap = typename TestFixture::Tap;
    const auto k = low_rank_kernel<Tap>(3, 21, 2, this->rng);
    this->block_use(k, expected_terms<Tap>(3, 21, 2), 8, 40, "3x21 on width 8");
    this->scipy_modes(k, expected_terms<Tap>(3, 21, 2), 2, 12, 8, "3x21 on width 8");
}

TYPED_TEST(fir2d_separable_test, long_kernels)
{
    using Tap = typename TestFixture::Tap;
    // 751 taps: more than one shared-memory stage of either pass.
    for (auto [kh, kw, width, n] : { std::tuple{ 1, 301, 400, 20L },
                                     { 301, 1, 24, 400L },
                                     { 1, 751, 900, 6L },
                                     { 751, 1, 16, 800L } })
        this->block_use(low_rank_kernel<Tap>(kh, kw, 1, this->rng),
                        expected_terms<Tap>(kh, kw, 1),
                        width,
                        n,
                        shape(kh, kw, 1));
    this->scipy_modes(low_rank_kernel<Tap>(51, 51, 2, this->rng),
                      expected_terms<Tap>(51, 51, 2),
                      2,
                      70,
                      90,
                      shape(51, 51, 2));
    this->scipy_modes(low_rank_kernel<Tap>(301, 1, 1, this->rng),
                      expected_terms<Tap>(301, 1, 1),
                      1,
                      320,
                      9,
                      shape(301, 1, 1));
}

TYPED_TEST(fir2d_separable_test, wide_rows)
{
    using Tap = typename TestFixture::Tap;
    const auto k = low_rank_kernel<Tap>(5, 7, 2, this->rng);
    this->block_use(k, expected_terms<Tap>(5, 7, 2), 4096, 9, "5x7 width 4096");
    this->scipy_modes(k, expected_terms<Tap>(5, 7, 2), 1, 6, 4100, "5x7 width 4100");
}

TYPED_TEST(fir2d_separable_test, rows_and_images_in_groups)
{
    using T = typename TestFixture::T;
    using Tap = typename TestFixture::Tap;
    // Planes of one row, of 10 rows (a part of an image's window), of two images'
    // windows (the last group has one).
    const auto k = low_rank_kernel<Tap>(4, 5, 3, this->rng);
    const std::size_t terms = expected_terms<Tap>(4, 5, 3);
    const std::size_t row = terms * 20 * sizeof(T);
    for (std::size_t bytes : { std::size_t(1), 10 * row, 2 * 24 * row })
        this->scipy_modes(k,
                          terms,
                          5,
                          21,
                          20,
                          "planes of " + std::to_string(bytes) + " bytes",
                          8,
                          bytes);
}

TYPED_TEST(fir2d_separable_test, several_runs_on_one_engine)
{
    using T = typename TestFixture::T;
    using Tap = typename TestFixture::Tap;
    const int kh = 6, kw = 5, width = 33;
    const auto k = low_rank_kernel<Tap>(kh, kw, 2, this->rng);
    const auto sep = this->separate(k, expected_terms<Tap>(kh, kw, 2));
    ASSERT_FALSE(sep.terms.empty());
    const int off = (kw - 1) / 2;
    for (const auto path : paths_for(kh, kw)) {
        cuda::fir2d_separable_engine<T, Tap> e(
            sep, fir2d_limits{ width, width, off, 50, 1 }, path);
        for (long n : { 50L, 1L, 17L, 33L, 0L, 2L }) {
            const host_rows<T> rows(
                width, kh - 1, n, 1, std::size_t(n) * width, this->rng);
            run_and_check(e,
                          k,
                          rows,
                          output_window{ 0, n, width, off, std::size_t(n) * width },
                          "run of " + std::to_string(n) + " rows" + name_of(path));
        }
        // Windows that start before the input (history, then zeros) and past it.
        for (long first : { -3L, 4L }) {
            const host_rows<T> rows(width, 2, 40, 1, 40 * width, this->rng);
            run_and_check(e,
                          k,
                          rows,
                          output_window{ first, 50, width, off, 50 * width },
                          "first " + std::to_string(first) + name_of(path));
        }
    }
}

TYPED_TEST(fir2d_separable_test, many_terms)
{
    using Tap = typename TestFixture::Tap;
    // Rank 5: vertical launches of several term groups (4 + 1 for float samples,
    // 2 + 2 + 1 for complex ones); complex taps give 10 terms.
    const auto k = low_rank_kernel<Tap>(9, 11, 5, this->rng);
    const std::size_t want = expected_terms<Tap>(9, 11, 5);
    this->block_use(k, want, 45, 30, "9x11 rank 5", 12);
    this->scipy_modes(k, want, 2, 20, 24, "9x11 rank 5", 12);
}

TYPED_TEST(fir2d_separable_test, nan_reaches_only_the_outputs_the_kernel_reaches)
{
    using T = typename TestFixture::T;
    using Tap = typename TestFixture::Tap;
    // Kernels whose taps are padded in both passes and paths: the padding's products
    // must not turn a NaN into more NaN outputs than the kernel reaches.
    for (auto [kh, kw] : { std::pair{ 3, 5 }, { 37, 3 }, { 3, 37 } }) {
        const auto k = low_rank_kernel<Tap>(kh, kw, 2, this->rng);
        const auto sep = this->separate(k, expected_terms<Tap>(kh, kw, 2));
        const int width = 50, off = (kw - 1) / 2;
        const long n = 60;
        host_rows<T> rows(width, kh - 1, n, 1, std::size_t(n) * width, this->rng);
        rows.input[25 * width + 20] = poison<T>();
        const output_window win{ 0, n, width, off, std::size_t(n) * width };
        const auto want = reference_fir2d(k, rows.src, win);
        for (const auto path : paths_for(kh, kw)) {
            cuda::fir2d_separable_engine<T, Tap> e(
                sep, fir2d_limits{ width, width, off, n, 1 }, path);
            const std::string what = shape(kh, kw, 2) + name_of(path);
            const auto got = run_window(e, rows, win, what);
            ASSERT_EQ(got.size(), want.value.size());
            int wrong = 0;
            for (std::size_t i = 0; i < got.size(); ++i) {
                const bool nan_wanted = std::isnan(want.value[i].real());
                const auto g = as_cd(got[i]);
                const bool ok =
                    nan_wanted ? std::isnan(g.real())
                               : std::abs(g - want.value[i]) <= tolerance * want.bound[i];
                if (!ok && ++wrong <= 3)
                    ADD_FAILURE()
                        << what << ": row " << i / width << " column " << i % width
                        << " got " << g << ", want " << want.value[i];
            }
            EXPECT_EQ(wrong, 0) << what;
        }
    }
}

TYPED_TEST(fir2d_separable_test, rejects_bad_separations_and_windows)
{
    using T = typename TestFixture::T;
    using Tap = typename TestFixture::Tap;
    const fir2d_limits lim{ 16, 16, 1, 10, 1 };
    EXPECT_THROW(
        (cuda::fir2d_separable_engine<T, Tap>(cuda::kernel_separation<Tap>{}, lim)),
        std::invalid_argument);
    auto sep = cuda::separate_kernel(low_rank_kernel<Tap>(3, 3, 1, this->rng), 4);
    cuda::fir2d_separable_engine<T, Tap> e(sep, lim);
    EXPECT_NE(e.path(), separable_path::automatic); // the path it chose
    EXPECT_EQ(e.method(), cuda::fir2d_method::separable);
    EXPECT_EQ(e.kernel_rows(), 3);
    EXPECT_EQ(e.kernel_cols(), 3);
    const host_rows<T> rows(16, 0, 11, 1, 16 * 11, this->rng);
    cuda::stream s;
    EXPECT_THROW(e.run(rows.src, output_window{ 0, 11, 16, 1, 16 * 11 }, nullptr, s),
                 std::invalid_argument); // 11 rows > 10
    sep.terms.push_back(sep.terms.front());
    sep.terms.back().row.push_back(0.0f);
    EXPECT_THROW((cuda::fir2d_separable_engine<T, Tap>(sep, lim)), std::invalid_argument);
    // Fused takes kernels up to 32 x 32; automatic falls back to two passes.
    const auto tall = cuda::separate_kernel(low_rank_kernel<Tap>(33, 2, 1, this->rng), 4);
    EXPECT_THROW((cuda::fir2d_separable_engine<T, Tap>(tall, lim, separable_path::fused)),
                 std::invalid_argument);
    EXPECT_EQ((cuda::fir2d_separable_engine<T, Tap>(tall, lim).path()),
              separable_path::two_pass);
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
