/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/cuda_check.h"
#include "../common/kernel_attributes.h"
#include "fir2d_direct_engine.h"
#include "fir2d_direct_kernels.cuh"
#include <type_traits>
#include <algorithm>
#include <cstdint>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {

using namespace fir2d_direct;

template <class T>
device_rows<device_t<T>> on_device(const row_source<T>& src)
{
    return { reinterpret_cast<const device_t<T>*>(src.history),
             src.history_rows,
             reinterpret_cast<const device_t<T>*>(src.input),
             src.rows,
             src.width,
             src.image_stride };
}

// Measured (4096 x 4096 images, kernels of 3 to 25 taps): real samples take R = 8
// (3 taps too: the wider tile loads faster than the padding costs); complex samples
// R = 4 (their accumulators and window are twice the registers). Four rows a thread
// share more of the tile's loads but hold more accumulators: worth it from 15 kernel
// rows (real samples) or 9 (complex), else two.
int default_outputs_per_thread(bool complex_samples) { return complex_samples ? 4 : 8; }

int default_rows_per_thread(bool complex_samples, int kernel_rows)
{
    return kernel_rows >= (complex_samples ? 9 : 15) ? 4 : 2;
}

//! Calls f(R, RY) as integral_constants, for the blocking of an engine.
template <class F>
void with_blocking(int r, int ry, F&& f)
{
    using std::integral_constant;
    if (r == 8) {
        if (ry == 4)
            f(integral_constant<int, 8>{}, integral_constant<int, 4>{});
        else if (ry == 2)
            f(integral_constant<int, 8>{}, integral_constant<int, 2>{});
        else
            f(integral_constant<int, 8>{}, integral_constant<int, 1>{});
    } else {
        if (ry == 4)
            f(integral_constant<int, 4>{}, integral_constant<int, 4>{});
        else if (ry == 2)
            f(integral_constant<int, 4>{}, integral_constant<int, 2>{});
        else
            f(integral_constant<int, 4>{}, integral_constant<int, 1>{});
    }
}

//! Whether every row of `n` items from p on, a row every `stride` items, starts
//! 16-byte aligned (so the kernels may move them as float4).
template <class T>
bool aligned_rows(const T* p, long n, std::size_t stride)
{
    constexpr std::size_t v = 16 / sizeof(T);
    return reinterpret_cast<std::uintptr_t>(p) % 16 == 0 && n % v == 0 && stride % v == 0;
}

template <class T, class Tap, int R, int RY>
std::size_t shared_bytes(int rows, int padded)
{
    return smem_bytes<device_t<T>, device_t<Tap>, R, RY>(piece_shape{ rows, 0, padded });
}

} // namespace

template <class T, class Tap>
template <int R, int RY>
void fir2d_direct_engine<T, Tap>::launch(const row_source<T>& src,
                                         const output_window& win,
                                         T* out,
                                         cudaStream_t s) const
{
    using DT = device_t<T>;
    using DTap = device_t<Tap>;
    const auto rows = on_device(src);
    const unsigned gx = blocks_for(win.width, threads_x * R);
    const int images = std::max(src.images, 1);
    const unsigned gz = static_cast<unsigned>(std::min(images, 65535));
    const bool vector_in =
        aligned_rows(src.input, src.width, images > 1 ? src.image_stride : 0) &&
        (src.history_rows == 0 || aligned_rows(src.history, src.width, 0));
    const bool vector_out =
        aligned_rows(out, win.width, images > 1 ? win.image_stride : 0);
    // At most 65535 blocks along y: taller windows go in slices of rows.
    const long slice = 65535L * block_rows<RY>();
    for (long r0 = 0; r0 < win.rows; r0 += slice) {
        const long n = std::min(slice, win.rows - r0);
        const dim3 grid(gx, blocks_for(n, block_rows<RY>()), gz);
        for (std::size_t q = 0; q < d_pieces.size(); ++q) {
            const piece& p = d_pieces[q];
            const piece_shape shape{ p.rows, p.cols, p.padded_cols };
            direct_kernel<DT, DTap, R, RY>()<<<grid,
                                               dim3(threads_x, threads_y),
                                               shared_bytes<T, Tap, R, RY>(p.rows,
                                                                           p.padded_cols),
                                               s>>>(
                rows,
                images,
                win.first + r0 - p.row0,
                n,
                win.width,
                win.col_offset - p.col0,
                win.image_stride,
                shape,
                reinterpret_cast<const DTap*>(d_taps.get() + p.offset),
                reinterpret_cast<DT*>(out) + r0 * win.width,
                q > 0,
                vector_in,
                vector_out);
            GPUFILTER_CHECK_LAUNCH();
        }
    }
}

template <class T, class Tap>
fir2d_direct_engine<T, Tap>::fir2d_direct_engine(const kernel2d<Tap>& k,
                                                 int outputs_per_thread,
                                                 int rows_per_thread)
{
    constexpr bool complex_samples = std::is_same_v<T, complex>;
    d_outputs_per_thread = outputs_per_thread == 4 || outputs_per_thread == 8
                               ? outputs_per_thread
                               : default_outputs_per_thread(complex_samples);
    d_rows_per_thread =
        rows_per_thread == 1 || rows_per_thread == 2 || rows_per_thread == 4
            ? rows_per_thread
            : default_rows_per_thread(complex_samples, k.rows);
    const int R = d_outputs_per_thread;
    std::vector<Tap> host;
    for (int row0 = 0; row0 < k.rows; row0 += max_piece_rows)
        for (int col0 = 0; col0 < k.cols; col0 += max_piece_cols) {
            piece p;
            p.row0 = row0;
            p.col0 = col0;
            p.rows = std::min(max_piece_rows, k.rows - row0);
            p.cols = std::min(max_piece_cols, k.cols - col0);
            p.padded_cols = (p.cols + R - 1) / R * R;
            p.offset = host.size();
            // Each row reversed (the kernel walks its window forwards), then zeros.
            for (int i = 0; i < p.rows; ++i)
                for (int jj = 0; jj < p.padded_cols; ++jj)
                    host.push_back(jj < p.cols ? k.at(row0 + i, col0 + p.cols - 1 - jj)
                                               : Tap{});
            d_pieces.push_back(p);
        }
    // Pieces past 48 KiB of shared memory (complex, wide) need the opt-in.
    with_blocking(R, d_rows_per_thread, [&](auto r, auto ry) {
        std::size_t most = 0;
        for (const auto& p : d_pieces)
            most = std::max(most, shared_bytes<T, Tap, r, ry>(p.rows, p.padded_cols));
        allow_dynamic_shared_memory(direct_kernel<device_t<T>, device_t<Tap>, r, ry>(),
                                    most);
    });
    d_taps = device_buffer<Tap>(host.size());
    GPUFILTER_CHECK(cudaMemcpy(
        d_taps.get(), host.data(), host.size() * sizeof(Tap), cudaMemcpyHostToDevice));
    wait_for_default_stream(); // before a non-blocking stream's kernel reads them
}

template <class T, class Tap>
void fir2d_direct_engine<T, Tap>::run(const row_source<T>& src,
                                      const output_window& win,
                                      T* out,
                                      cudaStream_t s)
{
    if (win.rows <= 0 || win.width <= 0)
        return;
    with_blocking(d_outputs_per_thread, d_rows_per_thread, [&](auto r, auto ry) {
        launch<r, ry>(src, win, out, s);
    });
}

template class fir2d_direct_engine<float, float>;
template class fir2d_direct_engine<complex, float>;
template class fir2d_direct_engine<complex, complex>;

} // namespace cuda
} // namespace gpufilter
} // namespace gr
