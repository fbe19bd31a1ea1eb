/* SPDX-License-Identifier: GPL-3.0-or-later */
// The direct 2D FIR, the stream engine the blocks run (history across calls, new
// kernels of other sizes), the automatic choice and the whole-image path, against the
// float64 reference (fir2d_reference.h) on random data.

#include "../gpu_test_env.h"
#include "../reference.h"
#include "common/resources.h"
#include "fir2d/fir2d_algorithm.h"
#include "fir2d/fir2d_direct_engine.h"
#include "fir2d/fir2d_images.h"
#include "fir2d/fir2d_stream_engine.h"
#include "fir2d_reference.h"
#include <gtest/gtest.h>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace gpufilter {
namespace test {
namespace {

using cuda::complex;
using cuda::fir2d_method;
using cuda::kernel2d;
using cuda::output_window;
using cuda::row_source;

template <class Tap>
kernel2d<Tap> random_kernel(int rows, int cols, std::mt19937& g)
{
    kernel2d<Tap> k;
    k.rows = rows;
    k.cols = cols;
    k.taps = random_vector<Tap>(static_cast<std::size_t>(rows) * cols, g);
    return k;
}

template <class T>
T nan_value()
{
    return T(std::numeric_limits<float>::quiet_NaN());
}

template <class T>
std::vector<T> download(const cuda::device_buffer<T>& d, std::size_t n)
{
    std::vector<T> h(n);
    GPUFILTER_CHECK(cudaMemcpy(h.data(), d.get(), n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

template <class T>
cuda::device_buffer<T> upload(const std::vector<T>& h)
{
    cuda::device_buffer<T> d(std::max<std::size_t>(h.size(), 1));
    GPUFILTER_CHECK(
        cudaMemcpy(d.get(), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    // From pageable memory cudaMemcpy may return before its DMA ends, and the engines
    // run on non-blocking streams, which do not wait for it.
    cuda::wait_for_default_stream();
    return d;
}

//! One run of `algorithm` on random rows (history and images as given) against the
//! reference of kernel k.
template <class T, class Tap>
void check_window(cuda::fir2d_algorithm<T, Tap>& algorithm,
                  const kernel2d<Tap>& k,
                  long history_rows,
                  long rows,
                  int width,
                  int images,
                  output_window win,
                  std::mt19937& g,
                  const std::string& what)
{
    const auto history = random_vector<T>(history_rows * width, g);
    const auto input =
        random_vector<T>(static_cast<std::size_t>(rows) * width * images, g);
    auto d_history = upload(history);
    auto d_input = upload(input);
    const std::size_t per_image = static_cast<std::size_t>(win.rows) * win.width;
    win.image_stride = per_image;
    cuda::device_buffer<T> d_out(std::max<std::size_t>(per_image * images, 1));
    const std::vector<T> poison(per_image * images, nan_value<T>());
    GPUFILTER_CHECK(cudaMemcpy(
        d_out.get(), poison.data(), poison.size() * sizeof(T), cudaMemcpyHostToDevice));
    cuda::wait_for_default_stream();

    row_source<T> src;
    src.history = d_history.get();
    src.history_rows = history_rows;
    src.input = d_input.get();
    src.rows = rows;
    src.width = width;
    src.images = images;
    src.image_stride = static_cast<std::size_t>(rows) * width;
    cuda::stream s;
    algorithm.run(src, win, d_out.get(), s.get());
    s.synchronize();

    row_source<T> host = src;
    host.history = history.data();
    host.input = input.data();
    auto want = reference_fir2d(k, host, win);
    if (algorithm.method() == fir2d_method::fft) {
        raise_bounds_for_fft(want, k, history);
        raise_bounds_for_fft(want, k, input);
    }
    expect_fir2d_close(download(d_out, per_image * images), want, win, 1e-5, what);
}

struct shape {
    int kh, kw;
};

// Odd and even, 1-wide, wider than the row, and larger than one piece of the direct
// kernel (16 x 64 taps) in both directions.
const std::vector<shape> kernel_shapes = { { 1, 1 },  { 3, 3 },   { 4, 6 },   { 7, 2 },
                                           { 1, 13 }, { 9, 1 },   { 9, 9 },   { 15, 15 },
                                           { 3, 21 }, { 25, 25 }, { 17, 70 }, { 33, 5 } };

//! SciPy's three modes on a stack of whole images, and the block's stream window.
template <class T, class Tap>
void check_modes(const std::function<std::unique_ptr<cuda::fir2d_algorithm<T, Tap>>(
                     const kernel2d<Tap>&, const cuda::fir2d_limits&)>& make,
                 const std::vector<shape>& shapes)
{
    std::mt19937 g(7);
    for (const auto& sh : shapes) {
        const auto k = random_kernel<Tap>(sh.kh, sh.kw, g);
        for (int width : { 8, 37, 300 }) {
            const long rows = 29;
            const std::string what = std::to_string(sh.kh) + "x" + std::to_string(sh.kw) +
                                     " kernel, width " + std::to_string(width);
            std::vector<std::pair<std::string, output_window>> windows;
            output_window w;
            w = { 0, rows + sh.kh - 1, width + sh.kw - 1, 0 };
            windows.push_back({ "full", w });
            w = { (sh.kh - 1) / 2, rows, width, (sh.kw - 1) / 2 };
            windows.push_back({ "same", w });
            if (rows >= sh.kh && width >= sh.kw) {
                w = { sh.kh - 1, rows - sh.kh + 1, width - sh.kw + 1, sh.kw - 1 };
                windows.push_back({ "valid", w });
            }
            for (const auto& [mode, win] : windows) {
                cuda::fir2d_limits lim{ width, win.width, win.col_offset, win.rows, 3 };
                auto algorithm = make(k, lim);
                check_window(*algorithm, k, 0, rows, width, 3, win, g, what + " " + mode);
            }
            // The block's window: history rows before the input, one image.
            output_window stream{ 0, rows, width, (sh.kw - 1) / 2 };
            cuda::fir2d_limits lim{ width, width, stream.col_offset, rows, 1 };
            auto algorithm = make(k, lim);
            check_window(
                *algorithm, k, sh.kh - 1, rows, width, 1, stream, g, what + " stream");
        }
    }
}

template <class T, class Tap>
void check_direct()
{
    check_modes<T, Tap>(
        [](const kernel2d<Tap>& k, const cuda::fir2d_limits&) {
            return std::make_unique<cuda::fir2d_direct_engine<T, Tap>>(k);
        },
        kernel_shapes);
}

TEST(fir2d_direct, matches_float64_reference_fff)
{
    GPUFILTER_REQUIRE_DEVICE_OR_SKIP();
    check_direct<float, float>();
}
TEST(fir2d_direct, matches_float64_reference_ccf)
{
    GPUFILTER_REQUIRE_DEVICE_OR_SKIP();
    check_direct<complex, float>();
}
TEST(fir2d_direct, matches_float64_reference_ccc)
{
    GPUFILTER_REQUIRE_DEVICE_OR_SKIP();
    check_direct<complex, complex>();
}

//! Every method through the maker (automatic included) gives the same outputs.
template <class T, class Tap>
void check_maker(fir2d_method m)
{
    check_modes<T, Tap>(
        [m](const kernel2d<Tap>& k, const cuda::fir2d_limits& lim) {
            return cuda::make_fir2d_algorithm<T, Tap>(k, m, lim);
        },
        m == fir2d_method::separable // at most 32 terms, a complex kernel twice its rank
            ? std::vector<shape>{ { 3, 3 }, { 4, 6 }, { 9, 9 }, { 3, 21 }, { 16, 31 } }
            : std::vector<shape>{ { 3, 3 }, { 4, 6 }, { 9, 9 }, { 3, 21 }, { 31, 31 } });
}

TEST(fir2d_maker, every_method_matches_reference)
{
    GPUFILTER_REQUIRE_DEVICE_OR_SKIP();
    for (auto m :
         { fir2d_method::automatic, fir2d_method::fft, fir2d_method::separable }) {
        SCOPED_TRACE(cuda::fir2d_method_name(m));
        check_maker<float, float>(m);
        check_maker<complex, float>(m);
        check_maker<complex, complex>(m);
    }
}

//! Separable, asked for, runs a full-rank kernel of up to 32 terms as their sum and
//! refuses one that needs more, naming the parameter.
TEST(fir2d_maker, separable_refuses_more_than_32_terms)
{
    GPUFILTER_REQUIRE_DEVICE_OR_SKIP();
    std::mt19937 g(9);
    const cuda::fir2d_limits lim{ 64, 64, 16, 64, 1 };
    EXPECT_NO_THROW((cuda::make_fir2d_algorithm<float, float>(
        random_kernel<float>(32, 40, g), fir2d_method::separable, lim)));
    try {
        cuda::make_fir2d_algorithm<float, float>(
            random_kernel<float>(33, 40, g), fir2d_method::separable, lim);
        ADD_FAILURE() << "a 33-term kernel was taken";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("method"), std::string::npos) << e.what();
    }
}

TEST(fir2d_maker, automatic_picks_by_size_and_rank)
{
    GPUFILTER_REQUIRE_DEVICE_OR_SKIP();
    std::mt19937 g(3);
    const cuda::fir2d_limits lim{ 512, 512, 0, 64, 1 };
    const auto method_for = [&](const kernel2d<float>& k) {
        return cuda::make_fir2d_algorithm<float, float>(k, fir2d_method::automatic, lim)
            ->method();
    };
    EXPECT_EQ(method_for(random_kernel<float>(3, 3, g)), fir2d_method::direct);
    EXPECT_EQ(method_for(random_kernel<float>(101, 101, g)), fir2d_method::fft);
    // A 101 x 101 outer product (rank 1): two 1D passes.
    kernel2d<float> outer;
    outer.rows = outer.cols = 101;
    const auto u = random_vector<float>(101, g), v = random_vector<float>(101, g);
    for (float a : u)
        for (float b : v)
            outer.taps.push_back(a * b);
    EXPECT_EQ(method_for(outer), fir2d_method::separable);
}

//! The stream engine over calls of varying sizes equals one pass over the whole
//! stream (rows before the first are zeros); after set_taps with another size and
//! set_history from the last rows, the new kernel continues over the same rows.
template <class T, class Tap>
void check_stream(fir2d_method m)
{
    std::mt19937 g(11);
    const int width = 45;
    for (const auto& [first, second] :
         std::vector<std::pair<shape, shape>>{ { { 3, 3 }, { 6, 4 } },
                                               { { 9, 9 }, { 1, 1 } },
                                               { { 2, 30 }, { 16, 17 } } }) {
        const auto k1 = random_kernel<Tap>(first.kh, first.kw, g);
        const auto k2 = random_kernel<Tap>(second.kh, second.kw, g);
        const std::size_t max_rows = 40;
        cuda::fir2d_stream_engine<T, Tap> engine(width, k1, m, max_rows);
        const long total = 150, switch_at = 90;
        const auto x = random_vector<T>(static_cast<std::size_t>(total) * width, g);
        cuda::device_buffer<T> d_in(max_rows * width), d_out(max_rows * width);
        std::vector<T> got;
        cuda::stream s;
        const std::vector<std::size_t> calls = { 1, 7, 40, 3, 39, 2 };
        long done = 0;
        bool switched = false;
        for (std::size_t c = 0; done < total; ++c) {
            long n = static_cast<long>(calls[c % calls.size()]);
            if (!switched)
                n = std::min(n, switch_at - done);
            n = std::min(n, total - done);
            if (!switched && done == switch_at) {
                engine.set_taps(k2, s.get());
                // As GNU Radio's window: the last kh2 - 1 rows before the switch.
                std::vector<T> h(static_cast<std::size_t>(k2.rows - 1) * width, T{});
                for (long r = 0; r < k2.rows - 1; ++r) {
                    const long pos = switch_at - (k2.rows - 1) + r;
                    if (pos >= 0)
                        std::copy(x.begin() + pos * width,
                                  x.begin() + (pos + 1) * width,
                                  h.begin() + r * width);
                }
                const void* hp[] = { h.data() };
                engine.set_history(hp, s.get());
                switched = true;
                continue;
            }
            GPUFILTER_CHECK(cudaMemcpy(d_in.get(),
                                       x.data() + done * width,
                                       n * width * sizeof(T),
                                       cudaMemcpyHostToDevice));
            cuda::wait_for_default_stream(); // the engine's stream does not wait for it
            const void* in[] = { d_in.get() };
            void* out[] = { d_out.get() };
            EXPECT_EQ(engine.process(in, n, out, s.get()), static_cast<std::size_t>(n));
            s.synchronize();
            const auto y = download(d_out, n * width);
            got.insert(got.end(), y.begin(), y.end());
            done += n;
        }
        // Reference: rows before the switch with k1, after it with k2, over x.
        row_source<T> src;
        src.input = x.data();
        src.rows = total;
        src.width = width;
        output_window before{ 0, switch_at, width, (k1.cols - 1) / 2 };
        output_window after{ switch_at, total - switch_at, width, (k2.cols - 1) / 2 };
        auto e1 = reference_fir2d(k1, src, before);
        auto e2 = reference_fir2d(k2, src, after);
        if (m != fir2d_method::direct && m != fir2d_method::separable) {
            raise_bounds_for_fft(e1, k1, x);
            raise_bounds_for_fft(e2, k2, x);
        }
        const std::size_t split = static_cast<std::size_t>(switch_at) * width;
        expect_fir2d_close(std::vector<T>(got.begin(), got.begin() + split), e1, before);
        expect_fir2d_close(std::vector<T>(got.begin() + split, got.end()), e2, after);
    }
}

TEST(fir2d_stream_engine, calls_and_new_kernels_match_one_pass)
{
    GPUFILTER_REQUIRE_DEVICE_OR_SKIP();
    for (auto m : { fir2d_method::automatic,
                    fir2d_method::direct,
                    fir2d_method::separable,
                    fir2d_method::fft }) {
        SCOPED_TRACE(cuda::fir2d_method_name(m));
        check_stream<float, float>(m);
        check_stream<complex, float>(m);
        check_stream<complex, complex>(m);
    }
}

//! Whole images from host memory, in groups, through fir2d_images.
TEST(fir2d_images, host_stack_matches_reference)
{
    GPUFILTER_REQUIRE_DEVICE_OR_SKIP();
    std::mt19937 g(5);
    const auto k = random_kernel<float>(5, 4, g);
    const long rows = 20;
    const int cols = 33, images = 4;
    const auto x =
        random_vector<float>(static_cast<std::size_t>(rows) * cols * images, g);
    output_window win{ 2, rows, cols, 1 };
    std::vector<float> out(static_cast<std::size_t>(rows) * cols * images,
                           std::numeric_limits<float>::quiet_NaN());
    cuda::fir2d_images<float, float>(0,
                                     x.data(),
                                     images,
                                     rows,
                                     cols,
                                     k,
                                     win,
                                     fir2d_method::automatic,
                                     out.data(),
                                     false);
    row_source<float> src;
    src.input = x.data();
    src.rows = rows;
    src.width = cols;
    src.images = images;
    src.image_stride = static_cast<std::size_t>(rows) * cols;
    expect_fir2d_close(out, reference_fir2d(k, src, win), win);
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
