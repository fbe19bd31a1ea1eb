/* SPDX-License-Identifier: GPL-3.0-or-later */
// fir2d_fft_engine against the float64 reference (fir2d_reference.h): the block's
// windows over consecutive runs, SciPy's modes on stacks of images, tiles (in both
// directions) and batches forced small, tall and wide windows in several tiles; and
// the host rules that size the tiles.

#include "../gpu_test_env.h"
#include "../reference.h"
#include "common/resources.h"
#include "fir2d/fir2d_fft_engine.h"
#include "fir2d_reference.h"
#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace gr {
namespace gpufilter {
namespace test {
namespace {

using cuda::complex;

// FFT rounding is norm-wise, not per output: every output gets an error of about
// eps * sqrt(log2(Fr*Fc)) * ||k||_2 * rms(x) (forward transform, product, inverse),
// however few or small its own terms are. So each output's bound, sum |k||x|, is
// raised to ||k||_2 * max|x| (raise_bounds_for_fft), and 2e-5 of that is ~300 float32
// epsilons: a wide margin over the ~5 eps seen at these sizes (Fr*Fc up to ~2^16), while
// a wrong row, column or tile gives errors of order one.
constexpr double fft_rel = 2e-5;

template <class T_, class Tap_>
struct pair {
    using T = T_;
    using Tap = Tap_;
};
using fir2d_types =
    ::testing::Types<pair<float, float>, pair<complex, float>, pair<complex, complex>>;

template <class P>
class fir2d_fft_test : public ::testing::Test
{
protected:
    using T = typename P::T;
    using Tap = typename P::Tap;
    using engine = cuda::fir2d_fft_engine<T, Tap>;

    void SetUp() override { GPUFILTER_REQUIRE_DEVICE_OR_SKIP(); }

    cuda::kernel2d<Tap> random_kernel(int rows, int cols)
    {
        return { rows, cols, random_vector<Tap>(std::size_t(rows) * cols, rng) };
    }

    std::mt19937 rng{ 2042 };
};
TYPED_TEST_SUITE(fir2d_fft_test, fir2d_types);

//! A row_source's rows on the host; gaps between images hold NaN.
template <class T>
struct host_rows {
    std::vector<T> history; // history_rows * width
    std::vector<T> input;   // image b's rows at b * image_stride
    long history_rows = 0;
    long rows = 0;
    int width = 0;
    int images = 1;
    std::size_t image_stride = 0;

    cuda::row_source<T> source(const T* hist, const T* in) const
    {
        return { hist, history_rows, in, rows, width, images, image_stride };
    }
};

//! `images` random images of rows x width, image_stride apart (NaN in between).
template <class T>
host_rows<T>
random_images(long rows, int width, int images, std::size_t stride, std::mt19937& rng)
{
    host_rows<T> h;
    h.rows = rows;
    h.width = width;
    h.images = images;
    h.image_stride = stride;
    const std::size_t per_image = std::size_t(rows) * width;
    h.input.assign((images - 1) * stride + per_image, poison<T>());
    for (int b = 0; b < images; ++b) {
        const auto x = random_vector<T>(per_image, rng);
        std::copy(x.begin(), x.end(), h.input.begin() + b * stride);
    }
    return h;
}

bool is_poison(float x) { return std::isnan(x); }
bool is_poison(complex x) { return std::isnan(x.real()); }

/*!
 * v on the device inside guard bands of NaN: a read before or after it poisons a
 * whole tile's transform, and so shows in the outputs. ptr() is null for empty v.
 */
template <class T>
class guarded
{
public:
    explicit guarded(const std::vector<T>& v) : d_buf(v.size() + 2 * guard)
    {
        std::vector<T> all(d_buf.size(), poison<T>());
        std::copy(v.begin(), v.end(), all.begin() + guard);
        GPUFILTER_CHECK(cudaMemcpy(
            d_buf.get(), all.data(), all.size() * sizeof(T), cudaMemcpyHostToDevice));
        d_ptr = v.empty() ? nullptr : d_buf.get() + guard;
    }
    const T* ptr() const { return d_ptr; }

private:
    static constexpr std::size_t guard = 4096;
    cuda::device_buffer<T> d_buf;
    T* d_ptr = nullptr;
};

/*!
 * One run into an output poisoned with NaN (64 items longer than the window, with the
 * window's gaps between images): checks that exactly the window's outputs are
 * written, each within fft_rel of the reference.
 */
template <class T, class Tap>
void run_and_check(cuda::fir2d_fft_engine<T, Tap>& engine,
                   const cuda::kernel2d<Tap>& k,
                   const host_rows<T>& h,
                   const cuda::output_window& win,
                   const std::string& what)
{
    const guarded<T> d_hist(h.history), d_in(h.input);
    const std::size_t per_image = std::size_t(win.rows) * win.width;
    const std::size_t cap = (h.images - 1) * win.image_stride + per_image + 64;
    cuda::device_buffer<T> d_out(cap);
    std::vector<T> y(cap, poison<T>());
    GPUFILTER_CHECK(
        cudaMemcpy(d_out.get(), y.data(), cap * sizeof(T), cudaMemcpyHostToDevice));
    // A pageable cudaMemcpy may return before its DMA lands; the run's stream is
    // non-blocking.
    GPUFILTER_CHECK(cudaDeviceSynchronize());
    cuda::stream s;
    engine.run(h.source(d_hist.ptr(), d_in.ptr()), win, d_out.get(), s);
    s.synchronize();
    GPUFILTER_CHECK(
        cudaMemcpy(y.data(), d_out.get(), cap * sizeof(T), cudaMemcpyDeviceToHost));

    std::vector<T> got;
    std::vector<bool> in_window(cap, false);
    for (int b = 0; b < h.images; ++b)
        for (std::size_t i = 0; i < per_image; ++i) {
            got.push_back(y[b * win.image_stride + i]);
            in_window[b * win.image_stride + i] = true;
        }
    int stray = 0;
    for (std::size_t i = 0; i < cap; ++i)
        stray += !in_window[i] && !is_poison(y[i]);
    EXPECT_EQ(stray, 0) << what << ": outputs written outside the window";

    auto want = reference_fir2d(k, h.source(h.history.data(), h.input.data()), win);
    raise_bounds_for_fft(want, k, h.history);
    raise_bounds_for_fft(want, k, h.input);
    expect_fir2d_close(got, want, win, fft_rel, what);
}

struct shape {
    int kh, kw, width;
};
//! 1x1, odd and even, tall and wide kernels, and one wider than the row.
const std::vector<shape> shapes = { { 1, 1, 37 },  { 3, 3, 37 },  { 4, 6, 37 },
                                    { 5, 17, 37 }, { 17, 5, 37 }, { 33, 33, 40 },
                                    { 3, 21, 8 } };

std::string describe(const shape& sh, const cuda::fir2d_fft_tuning& t)
{
    return std::to_string(sh.kh) + "x" + std::to_string(sh.kw) + " kernel, width " +
           std::to_string(sh.width) + ", tile " + std::to_string(t.tile_rows) + "x" +
           std::to_string(t.tile_cols) + ", max_batch " + std::to_string(t.max_batch) +
           (t.cufft_rows ? ", cuFFT rows" : "") +
           (t.column_block ? ", column_block " + std::to_string(t.column_block) : "");
}

//! The least power of two >= max(n, 32): tile columns the fused row passes take.
int row_pass_cols(int n)
{
    int c = 32;
    while (c < n)
        c *= 2;
    return c;
}

//! The engine's own choice; tiles of (kh + 2) x (kw + 2) (3 x 3 outputs: many tiles
//! both ways, any size cuFFT takes, cuFFT's 2D transforms) in batches of at most
//! `batch` (several groups, every plan, an odd number of real tiles); tiles of 256
//! rows (the fused column pass) by the engine's columns; and tiles of 256 and 512 rows
//! by a power of two of columns, in batches of at most `batch`: the fused row passes,
//! and cuFFT's row transforms instead.
std::vector<cuda::fir2d_fft_tuning> tunings(int kh, int kw, int batch)
{
    cuda::fir2d_fft_tuning small;
    small.tile_rows = kh + 2;
    small.tile_cols = kw + 2;
    small.max_batch = batch;
    cuda::fir2d_fft_tuning fused;
    fused.tile_rows = 256;
    cuda::fir2d_fft_tuning rows = fused;
    rows.tile_cols = row_pass_cols(kw + 2);
    rows.max_batch = batch;
    cuda::fir2d_fft_tuning rows_512 = rows;
    rows_512.tile_rows = 512;
    cuda::fir2d_fft_tuning cufft_rows = rows_512;
    cufft_rows.cufft_rows = true;
    // The column pass's other block widths (the engine's: 16 at 256 rows, 8 at 512).
    cuda::fir2d_fft_tuning narrow = rows;
    narrow.column_block = 8;
    cuda::fir2d_fft_tuning wide = rows_512;
    wide.column_block = 16;
    return {
        cuda::fir2d_fft_tuning{}, small, fused, rows, rows_512, cufft_rows, narrow, wide
    };
}

TYPED_TEST(fir2d_fft_test, block_windows_over_consecutive_runs)
{
    using T = typename TestFixture::T;
    // The block's use: a causal filter along the stream (the last kh rows, history
    // kh-1 rows), SciPy's 'same' along each row. Runs of changing sizes up to the
    // limit, each with the rows before it as history (random from the start).
    const std::vector<long> runs = { 64, 1, 17, 64, 33, 2 };
    for (const shape& sh : shapes) {
        const auto k = this->random_kernel(sh.kh, sh.kw);
        const int col_offset = (sh.kw - 1) / 2;
        const cuda::fir2d_limits lim{ sh.width, sh.width, col_offset, 64, 1 };
        const long H = sh.kh - 1;
        long total = H;
        for (long n : runs)
            total += n;
        const auto x = random_vector<T>(std::size_t(total) * sh.width, this->rng);
        for (const auto& tuning : tunings(sh.kh, sh.kw, 3)) {
            typename TestFixture::engine engine(k, lim, tuning);
            EXPECT_EQ(engine.method(), cuda::fir2d_method::fft);
            if (tuning.tile_rows >= 256 && tuning.tile_cols > 0) {
                EXPECT_EQ(engine.fused_rows(), !tuning.cufft_rows)
                    << describe(sh, tuning);
            }
            long start = H; // the first input row of the next run, within x
            for (long n : runs) {
                host_rows<T> h;
                h.history_rows = H;
                h.rows = n;
                h.width = sh.width;
                h.image_stride = std::size_t(n) * sh.width;
                h.history.assign(x.begin() + (start - H) * sh.width,
                                 x.begin() + start * sh.width);
                h.input.assign(x.begin() + start * sh.width,
                               x.begin() + (start + n) * sh.width);
                const cuda::output_window win{
                    0, n, sh.width, col_offset, h.image_stride
                };
                run_and_check(engine,
                              k,
                              h,
                              win,
                              describe(sh, tuning) + ", run of " + std::to_string(n) +
                                  " rows at " + std::to_string(start - H));
                start += n;
            }
        }
    }
}

TYPED_TEST(fir2d_fft_test, scipy_modes_on_a_stack_of_images)
{
    using T = typename TestFixture::T;
    const int images = 3;
    for (const shape& sh : shapes) {
        const auto k = this->random_kernel(sh.kh, sh.kw);
        // Images larger than the kernel (as 'valid' needs), except the wide kernel's.
        const long R = sh.kh == 33 ? 41 : 23;
        const int C = sh.kh == 33 ? 45 : sh.width;
        // Gaps after each input and output image, NaN (input) or poisoned (output).
        const auto h = random_images<T>(R, C, images, std::size_t(R) * C + 7, this->rng);
        struct mode {
            const char* name;
            cuda::output_window win;
        };
        std::vector<mode> modes = {
            { "full", { 0, R + sh.kh - 1, C + sh.kw - 1, 0, 0 } },
            { "same", { (sh.kh - 1) / 2, R, C, (sh.kw - 1) / 2, 0 } },
        };
        if (C >= sh.kw)
            modes.push_back(
                { "valid", { sh.kh - 1, R - sh.kh + 1, C - sh.kw + 1, sh.kw - 1, 0 } });
        for (auto& m : modes) {
            m.win.image_stride = std::size_t(m.win.rows) * m.win.width + 5;
            const cuda::fir2d_limits lim{
                C, m.win.width, m.win.col_offset, m.win.rows, images
            };
            // Batches of 2 tiles: groups that end in one image and start in the next.
            for (const auto& tuning : tunings(sh.kh, sh.kw, 2)) {
                typename TestFixture::engine engine(k, lim, tuning);
                run_and_check(engine,
                              k,
                              h,
                              m.win,
                              std::string(m.name) + ", " + describe(sh, tuning));
            }
        }
    }
}

TYPED_TEST(fir2d_fft_test, tall_windows_take_several_tiles)
{
    using T = typename TestFixture::T;
    // 2000 rows with kh = 33, by the engine's own choice and in tiles of 512 rows
    // (the fused column pass); runs of the whole limit, of 1 row and of a size that
    // ends mid-tile, on one engine.
    const shape sh{ 33, 9, 64 };
    const auto k = this->random_kernel(sh.kh, sh.kw);
    const cuda::fir2d_limits lim{ sh.width, sh.width, 4, 2000, 2 };
    cuda::fir2d_fft_tuning tall;
    tall.tile_rows = 512;
    cuda::fir2d_fft_tuning tall_rows = tall; // the fused row passes
    tall_rows.tile_cols = 128;
    for (const auto& tuning : { cuda::fir2d_fft_tuning{}, tall, tall_rows }) {
        typename TestFixture::engine engine(k, lim, tuning);
        EXPECT_GE(engine.tile_rows(), sh.kh);
        // Another engine on the device, made in between, with the other fused size:
        // each keeps its own launch settings.
        cuda::fir2d_fft_tuning other_rows;
        other_rows.tile_rows = 256;
        typename TestFixture::engine other(k, lim, other_rows);
        for (long n : { 2000L, 1L, 777L }) {
            host_rows<T> h =
                random_images<T>(n, sh.width, 2, std::size_t(n) * sh.width, this->rng);
            const cuda::output_window win{ 5, n, sh.width, 4, h.image_stride };
            run_and_check(engine,
                          k,
                          h,
                          win,
                          "run of " + std::to_string(n) + " rows, tile_rows " +
                              std::to_string(tuning.tile_rows));
        }
    }
}

TYPED_TEST(fir2d_fft_test, wide_windows_take_several_column_tiles)
{
    using T = typename TestFixture::T;
    // Rows of 1500 with a 7 x 41 kernel in tiles of 32 x 128 (Lc = 88: 18 column
    // tiles, the last partly used), 'full' columns (col_offset 0, 1540 outputs) and
    // 'valid' ones (col_offset 40), two images; and in tiles of 256 x 128 and
    // 512 x 256 (the fused passes, rows by the block FFT and by cuFFT).
    const int W = 1500;
    const auto k = this->random_kernel(7, 41);
    for (const int off : { 0, 40 }) {
        const int out_w = off == 0 ? W + 40 : W - 40;
        const cuda::fir2d_limits lim{ W, out_w, off, 30, 2 };
        cuda::fir2d_fft_tuning t;
        t.tile_rows = 32;
        t.tile_cols = 128;
        cuda::fir2d_fft_tuning fused = t;
        fused.tile_rows = 256;
        cuda::fir2d_fft_tuning cufft_rows;
        cufft_rows.tile_rows = 512;
        cufft_rows.tile_cols = 256;
        cufft_rows.cufft_rows = true;
        for (const auto& tuning : { t, fused, cufft_rows }) {
            typename TestFixture::engine engine(k, lim, tuning);
            host_rows<T> h = random_images<T>(30, W, 2, std::size_t(30) * W, this->rng);
            const cuda::output_window win{ 3, 30, out_w, off, std::size_t(30) * out_w };
            run_and_check(engine,
                          k,
                          h,
                          win,
                          "col_offset " + std::to_string(off) + ", tile " +
                              std::to_string(tuning.tile_rows) + "x" +
                              std::to_string(tuning.tile_cols));
        }
    }
}

TYPED_TEST(fir2d_fft_test, every_fused_row_size)
{
    using T = typename TestFixture::T;
    // Each row pass's size, 32 to 4096 columns, in tiles of 256 and 512 rows: two
    // images of 300 x 1200 ('same', a 5 x 17 kernel), several tiles both ways (one
    // partial column tile at 4096).
    const auto k = this->random_kernel(5, 17);
    const int W = 1200;
    const long R = 300;
    const cuda::fir2d_limits lim{ W, W, 8, R, 2 };
    const auto h = random_images<T>(R, W, 2, std::size_t(R) * W + 11, this->rng);
    const cuda::output_window win{ 2, R, W, 8, std::size_t(R) * W + 3 };
    for (int fc = 32; fc <= 4096; fc *= 2) {
        cuda::fir2d_fft_tuning t;
        t.tile_rows = fc <= 256 ? 512 : 256;
        t.tile_cols = fc;
        typename TestFixture::engine engine(k, lim, t);
        EXPECT_TRUE(engine.fused_rows()) << fc;
        run_and_check(engine,
                      k,
                      h,
                      win,
                      "tile " + std::to_string(t.tile_rows) + "x" + std::to_string(fc));
    }
}

TYPED_TEST(fir2d_fft_test, many_groups_of_a_large_limit)
{
    using T = typename TestFixture::T;
    // max_out_rows 500 with kh 33 in tiles of 40 rows (Lr = 8): up to 63 tiles per
    // image, three images, at most 16 complex tiles per launch (32 real ones). 189
    // tiles (500 rows) and 24 (57) take full groups, 6 (9 rows) and 3 (1 row) the
    // smaller plans.
    const auto k = this->random_kernel(33, 7);
    const cuda::fir2d_limits lim{ 50, 50, 3, 500, 3 };
    cuda::fir2d_fft_tuning t;
    t.tile_rows = 40;
    t.max_batch = 16;
    typename TestFixture::engine engine(k, lim, t);
    EXPECT_EQ(engine.max_batch(), 16);
    for (long n : { 500L, 57L, 9L, 1L }) {
        host_rows<T> h =
            random_images<T>(n + 40, 50, 3, std::size_t(n + 40) * 50 + 3, this->rng);
        const cuda::output_window win{ 32, n, 50, 3, std::size_t(n) * 50 };
        run_and_check(engine, k, h, win, "run of " + std::to_string(n) + " rows");
    }
}

TYPED_TEST(fir2d_fft_test, rejects_runs_past_its_limits)
{
    using T = typename TestFixture::T;
    const auto k = this->random_kernel(3, 3);
    typename TestFixture::engine engine(k, cuda::fir2d_limits{ 16, 16, 1, 10, 2 });
    cuda::device_buffer<T> in(16 * 20 * 3), out(16 * 20 * 3);
    cuda::stream s;
    const cuda::row_source<T> ok{ nullptr, 0, in.get(), 10, 16, 1, 160 };
    const cuda::output_window win{ 0, 10, 16, 1, 160 };
    EXPECT_NO_THROW(engine.run(ok, win, out.get(), s));
    auto wide = ok;
    wide.width = 17;
    EXPECT_THROW(engine.run(wide, win, out.get(), s), std::invalid_argument);
    auto stack = ok;
    stack.images = 3;
    EXPECT_THROW(engine.run(stack, win, out.get(), s), std::invalid_argument);
    auto tall = win;
    tall.rows = 11;
    EXPECT_THROW(engine.run(ok, tall, out.get(), s), std::invalid_argument);
    s.synchronize();
}

// ---- host rules (no GPU) ----

long brute_nice(long n)
{
    for (long m = std::max(n, 1L);; ++m) {
        long r = m;
        for (long p : { 2, 3, 5, 7 })
            while (r % p == 0)
                r /= p;
        if (r == 1)
            return m;
    }
}

TEST(fir2d_fft_sizes, nice_sizes_are_the_next_7_smooth_number)
{
    for (long n = -1; n <= 5000; ++n)
        ASSERT_EQ(cuda::fir2d_fft_nice_size(n), brute_nice(n)) << "n=" << n;
    EXPECT_EQ(cuda::fir2d_fft_nice_size(1L << 40), 1L << 40);
    // Past 2^40 (brute force would be slow there): smooth, and close above.
    const long big = cuda::fir2d_fft_nice_size((1L << 40) + 1);
    EXPECT_GT(big, 1L << 40);
    EXPECT_LT(big, (1L << 40) + (1L << 36));
    long r = big;
    for (long p : { 2, 3, 5, 7 })
        while (r % p == 0)
            r /= p;
    EXPECT_EQ(r, 1) << big;
}

TEST(fir2d_fft_sizes, tiles_follow_the_cost_model)
{
    for (int kh : { 1, 2, 3, 17, 33, 65, 400 })
        for (int kw : { 1, 4, 33, 200 })
            for (long rows : { 1L, 10L, 64L, 500L, 4096L, 1000000L })
                for (long cols : { 1L, 37L, 1024L, 4096L })
                    for (bool packed : { false, true }) {
                        const auto t =
                            cuda::fir2d_fft_tiles(kh, kw, rows, cols, 2, packed);
                        const std::string what = "kh=" + std::to_string(kh) +
                                                 " kw=" + std::to_string(kw) +
                                                 " rows=" + std::to_string(rows) +
                                                 " cols=" + std::to_string(cols);
                        EXPECT_GE(t.rows, std::max(kh, 2)) << what;
                        EXPECT_GE(t.cols, std::max(kw, 2)) << what;
                        EXPECT_EQ(t.rows, cuda::fir2d_fft_nice_size(t.rows)) << what;
                        EXPECT_EQ(t.cols, cuda::fir2d_fft_nice_size(t.cols)) << what;
                        EXPECT_LE(t.rows,
                                  cuda::fir2d_fft_nice_size(std::max(rows + kh - 1, 16L)))
                            << what;
                        EXPECT_LE(t.cols,
                                  cuda::fir2d_fft_nice_size(std::max(cols + kw - 1, 32L)))
                            << what;
                    }
    // A short window is one tile.
    EXPECT_EQ(cuda::fir2d_fft_tiles(3, 3, 10, 20, 1, true).rows, 12);
    // Long windows take several tiles, longer for a taller kernel, whose overlap
    // (kh - 1 rows) stays a small part of each.
    const int short_k = cuda::fir2d_fft_tiles(3, 3, 1000000, 1024, 1, true).rows;
    const int tall_k = cuda::fir2d_fft_tiles(33, 3, 1000000, 1024, 1, true).rows;
    EXPECT_LT(short_k, 1000000);
    EXPECT_GE(tall_k, 4 * 32);
    EXPECT_LE(tall_k, 8192);
    // A large image with a large kernel: tiles along both sides.
    const auto big = cuda::fir2d_fft_tiles(201, 201, 4096, 4096, 1, true);
    EXPECT_GE(big.rows, 2 * 200);
    EXPECT_LT(big.rows, 4096 + 200);
    EXPECT_LT(big.cols, 4096 + 200);
    EXPECT_THROW(cuda::fir2d_fft_tiles(0, 1, 10, 10, 1, true), std::invalid_argument);
    EXPECT_THROW(cuda::fir2d_fft_tiles(3, 3, 0, 10, 1, true), std::invalid_argument);
    EXPECT_THROW(cuda::fir2d_fft_tiles(3, 3, 10, 0, 1, true), std::invalid_argument);
}

TEST(fir2d_fft_sizes, bad_parameters_throw_before_touching_the_gpu)
{
    const cuda::kernel2d<float> k{ 3, 3, std::vector<float>(9, 1.0f) };
    const cuda::kernel2d<float> torn{ 3, 3, std::vector<float>(8, 1.0f) };
    const cuda::fir2d_limits lim{ 16, 16, 1, 10, 1 };
    using engine = cuda::fir2d_fft_engine<float, float>;
    EXPECT_THROW((engine(torn, lim)), std::invalid_argument);
    EXPECT_THROW((engine(k, cuda::fir2d_limits{ 0, 16, 1, 10, 1 })),
                 std::invalid_argument);
    EXPECT_THROW((engine(k, cuda::fir2d_limits{ 16, 16, 1, 0, 1 })),
                 std::invalid_argument);
    EXPECT_THROW((engine(k, cuda::fir2d_limits{ 16, 16, 1, 10, 0 })),
                 std::invalid_argument);
    cuda::fir2d_fft_tuning t;
    t.tile_rows = 2; // < kh
    EXPECT_THROW((engine(k, lim, t)), std::invalid_argument);
    t.tile_rows = 0;
    t.tile_cols = 2; // < kw
    EXPECT_THROW((engine(k, lim, t)), std::invalid_argument);
    t.tile_cols = 0;
    t.column_block = 4; // neither 8 nor 16
    EXPECT_THROW((engine(k, lim, t)), std::invalid_argument);
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
