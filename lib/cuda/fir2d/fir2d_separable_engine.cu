/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/device_math.cuh"
#include "../common/kernel_attributes.h"
#include "fir2d_separable_engine.h"
#include "fir2d_separable_fused_kernels.cuh"
#include "fir2d_separable_kernels.cuh"
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {

namespace k = fir2d_separable_kernels;

constexpr long long max_grid_yz = 65535;          // gridDim.y and gridDim.z
constexpr std::size_t default_shared = 48 * 1024; // without opting in

int round_up(int n, int m) { return (n + m - 1) / m * m; }

//! Threads of a block along a row: enough for `items` (in warps), at most all.
int threads_along(long long items)
{
    return static_cast<int>(std::min<long long>(k::threads, (items + 31) / 32 * 32));
}

std::string str(long long v) { return std::to_string(v); }

/*!
 * Where automatic takes the fused path (within fused_max), measured on H200 at
 * 4096 x 4096 (ms, fused against two-pass). Float samples: one term, a tie at 3 x 3
 * (0.111, 0.111), then two-pass (15 x 15: 0.151, 0.135; 31 x 31: 0.224, 0.170);
 * more terms, fused up to about 24 (9 x 9, two terms: 0.188, 0.206; 31 x 31,
 * three: 0.441, 0.432). Complex samples, whose planes weigh twice as much: fused up
 * to 16 (3 x 3: 0.135, 0.189; 15 x 15: 0.196, 0.220; 21 x 21: 0.258, 0.241), and
 * with more terms (31 x 31, three: 0.710, 0.783).
 */
template <class D>
bool fused_preferred(int kh, int kw, int terms)
{
    const int side = std::max(kh, kw);
    if (sizeof(D) == 4)
        return terms > 1 && side <= 24;
    return terms > 1 || side <= 16;
}

//! Two-pass block sizes of float samples: 16 outputs per thread for taps longer than
//! 32 (a tap block of 16 costs 16 loads for 256 products: long kernels stop waiting
//! on loads; 0.445 against 0.501 ms at 101 taps a side, 2.1 against 2.9 ms at 751,
//! H200), 8 for shorter ones (their padding to 16 costs more than it saves: 0.204
//! against 0.153 ms at 5 x 5). Complex samples bring two products per load: 8.
template <class D>
int block_for(int taps)
{
    return sizeof(D) == 4 && taps > 32 ? 16 : 8;
}

//! src's rows as the kernels read them (float2 for complex samples).
template <class T>
k::rows_view<device_t<T>> view_of(const row_source<T>& src)
{
    using D = device_t<T>;
    return { reinterpret_cast<const D*>(src.history),
             src.history_rows,
             reinterpret_cast<const D*>(src.input),
             src.rows,
             src.width,
             static_cast<long long>(src.image_stride) };
}

} // namespace

template <class T, class Tap>
fir2d_separable_engine<T, Tap>::fir2d_separable_engine(const kernel_separation<Tap>& s,
                                                       const fir2d_limits& lim,
                                                       separable_path path,
                                                       std::size_t max_plane_bytes)
    : d_lim(lim)
{
    using D = device_t<T>;
    using DT = device_t<Tap>;
    if (s.terms.empty())
        throw std::invalid_argument("separation: no terms (the kernel is not separable "
                                    "within the terms it was allowed)");
    d_kh = static_cast<int>(s.terms.front().column.size());
    d_kw = static_cast<int>(s.terms.front().row.size());
    d_terms = static_cast<int>(s.terms.size());
    for (const auto& t : s.terms)
        if (t.column.size() != std::size_t(d_kh) || t.row.size() != std::size_t(d_kw) ||
            d_kh < 1 || d_kw < 1)
            throw std::invalid_argument(
                "separation: every term needs the same, non-empty column and row (" +
                str(d_kh) + " and " + str(d_kw) + " taps in the first)");
    if (lim.in_width < 1 || lim.out_width < 0 || lim.max_out_rows < 0 ||
        lim.max_images < 1)
        throw std::invalid_argument(
            "limits: need in_width >= 1, out_width >= 0, max_out_rows >= 0 and "
            "max_images >= 1; got " +
            str(lim.in_width) + ", " + str(lim.out_width) + ", " + str(lim.max_out_rows) +
            ", " + str(lim.max_images));

    // Fused where the kernel and its tile's shared memory fit; automatic takes it
    // where it was measured faster (fused_preferred).
    const bool fits = d_kh <= k::fused_max && d_kw <= k::fused_max;
    if (fits) {
        const int kh_pad = round_up(d_kh, k::block8), kw_pad = round_up(d_kw, k::block8);
        const std::size_t tile =
            std::size_t(k::fused_rows + kh_pad - 1) * (k::fused_cols + kw_pad - 1) +
            std::size_t(k::fused_rows) * k::fused_v_stride<D>(kw_pad);
        d_fused_shared = tile * sizeof(D) + std::size_t(d_terms) * (kh_pad + kw_pad) * 4;
    }
    int device = 0, optin = 0;
    GPUFILTER_CHECK(cudaGetDevice(&device));
    GPUFILTER_CHECK(
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    const bool fused_ok = fits && d_fused_shared <= std::size_t(optin);
    if (path == separable_path::fused && !fused_ok)
        throw std::invalid_argument(
            "path: the fused path takes kernels up to " + str(k::fused_max) + " x " +
            str(k::fused_max) + " whose tile fits in shared memory, not " + str(d_kh) +
            " x " + str(d_kw) + " with " + str(d_terms) + " terms");
    const bool fused =
        path == separable_path::fused || (path == separable_path::automatic && fused_ok &&
                                          fused_preferred<D>(d_kh, d_kw, d_terms));
    d_path = fused ? separable_path::fused : separable_path::two_pass;
    if (d_path == separable_path::fused) {
        d_r = d_p = k::block8;
        if (d_fused_shared > default_shared)
            allow_dynamic_shared_memory(k::fused_pass<D, DT>, d_fused_shared);
    } else {
        d_r = block_for<D>(d_kh);
        d_p = block_for<D>(d_kw);
    }

    d_kh_pad = round_up(d_kh, d_r);
    d_kw_pad = round_up(d_kw, d_p);
    std::vector<float> columns(std::size_t(d_terms) * d_kh_pad, 0.0f);
    std::vector<float> rows(std::size_t(d_terms) * d_kw_pad, 0.0f);
    std::vector<Tap> coefs;
    for (int t = 0; t < d_terms; ++t) {
        const auto& term = s.terms[t];
        std::copy(term.column.begin(), term.column.end(), columns.begin() + t * d_kh_pad);
        std::copy(term.row.begin(), term.row.end(), rows.begin() + t * d_kw_pad);
        coefs.push_back(term.coef);
    }

    if (d_path == separable_path::two_pass) {
        // Rows of all images that one term's plane holds: what fits the byte budget,
        // no more than the largest window needs, at least one input row.
        const long long row_bytes =
            static_cast<long long>(d_terms) * lim.in_width * sizeof(T);
        const long long fit =
            std::max<long long>(1, static_cast<long long>(max_plane_bytes) / row_bytes);
        const long long most = std::max<long long>(1, lim.max_out_rows * lim.max_images);
        d_plane_items = static_cast<std::size_t>(std::min(fit, most)) * lim.in_width;
        d_planes = device_buffer<T>(d_plane_items * d_terms);
    }

    d_columns = device_buffer<float>(columns.size());
    d_rows = device_buffer<float>(rows.size());
    d_coefs = device_buffer<Tap>(coefs.size());
    stream st;
    GPUFILTER_CHECK(cudaMemcpyAsync(
        d_columns.get(), columns.data(), d_columns.bytes(), cudaMemcpyHostToDevice, st));
    GPUFILTER_CHECK(cudaMemcpyAsync(
        d_rows.get(), rows.data(), d_rows.bytes(), cudaMemcpyHostToDevice, st));
    GPUFILTER_CHECK(cudaMemcpyAsync(
        d_coefs.get(), coefs.data(), d_coefs.bytes(), cudaMemcpyHostToDevice, st));
    st.synchronize();
}

template <class T, class Tap>
void fir2d_separable_engine<T, Tap>::run(const row_source<T>& src,
                                         const output_window& win,
                                         T* out,
                                         cudaStream_t stream)
{
    if (src.width < 1 || src.width > d_lim.in_width || win.width > d_lim.out_width ||
        win.rows > d_lim.max_out_rows || src.images > d_lim.max_images ||
        src.history_rows < 0 || src.rows < 0)
        throw std::invalid_argument(
            "fir2d_separable_engine::run: width " + str(src.width) + " -> " +
            str(win.width) + ", " + str(win.rows) + " rows of " + str(src.images) +
            " images exceed the limits (" + str(d_lim.in_width) + " -> " +
            str(d_lim.out_width) + ", " + str(d_lim.max_out_rows) + " rows of " +
            str(d_lim.max_images) + " images)");
    if (win.rows <= 0 || win.width <= 0 || src.images <= 0)
        return;
    if (d_path == separable_path::fused) {
        run_fused(src, win, out, stream);
        return;
    }

    // Groups that fit the planes: whole windows of several images where they fit,
    // else groups of rows of one image.
    const long long cap = static_cast<long long>(d_plane_items / src.width);
    const long long rows_per = std::min<long long>({ win.rows, cap, max_grid_yz });
    const long long images_per =
        rows_per == win.rows
            ? std::clamp<long long>(
                  cap / win.rows, 1, std::min<long long>(src.images, max_grid_yz))
            : 1;
    for (long long b0 = 0; b0 < src.images; b0 += images_per) {
        const int nb = static_cast<int>(std::min(images_per, src.images - b0));
        for (long long r0 = 0; r0 < win.rows; r0 += rows_per) {
            const int n = static_cast<int>(std::min(rows_per, win.rows - r0));
            launch_vertical(src, static_cast<int>(b0), nb, win.first + r0, n, stream);
            launch_horizontal(src, win, static_cast<int>(b0), nb, r0, n, out, stream);
        }
    }
}

template <class T, class Tap>
void fir2d_separable_engine<T, Tap>::run_fused(const row_source<T>& src,
                                               const output_window& win,
                                               T* out,
                                               cudaStream_t stream) const
{
    using D = device_t<T>;
    using DT = device_t<Tap>;
    const auto x = view_of(src);
    const long long rows_per = max_grid_yz * k::fused_rows;
    for (long long b0 = 0; b0 < src.images; b0 += max_grid_yz) {
        const int nb = static_cast<int>(std::min(max_grid_yz, src.images - b0));
        for (long long r0 = 0; r0 < win.rows; r0 += rows_per) {
            const int n = static_cast<int>(std::min(rows_per, win.rows - r0));
            const dim3 grid(
                blocks_for(win.width, k::fused_cols), blocks_for(n, k::fused_rows), nb);
            k::fused_pass<D, DT><<<grid, k::threads, d_fused_shared, stream>>>(
                x,
                static_cast<int>(b0),
                win.first + r0,
                n,
                d_columns.get(),
                d_kh,
                d_kh_pad,
                d_rows.get(),
                d_kw,
                d_kw_pad,
                reinterpret_cast<const DT*>(d_coefs.get()),
                d_terms,
                win.col_offset,
                win.width,
                reinterpret_cast<D*>(out) + b0 * win.image_stride + r0 * win.width,
                static_cast<long long>(win.image_stride));
            GPUFILTER_CHECK_LAUNCH();
        }
    }
}

template <class T, class Tap>
void fir2d_separable_engine<T, Tap>::launch_vertical(const row_source<T>& src,
                                                     int b0,
                                                     int images,
                                                     long long first,
                                                     int rows,
                                                     cudaStream_t stream) const
{
    using D = device_t<T>;
    const auto x = view_of(src);
    const int bx = threads_along(src.width);
    const dim3 block(bx, k::threads / bx);
    const dim3 grid(blocks_for(src.width, bx),
                    blocks_for(rows, static_cast<long long>(d_r) * block.y),
                    images);
    const long long image_stride = static_cast<long long>(rows) * src.width;
    constexpr int group = k::max_group<D>;
    for (int g0 = 0; g0 < d_terms; g0 += group) {
        const float* columns = d_columns.get() + static_cast<std::size_t>(g0) * d_kh_pad;
        D* tmp = reinterpret_cast<D*>(d_planes.get()) + g0 * d_plane_items;
        const auto go = [&](auto kernel) {
            kernel<<<grid, block, 0, stream>>>(x,
                                               b0,
                                               first,
                                               rows,
                                               columns,
                                               d_kh,
                                               d_kh_pad,
                                               tmp,
                                               static_cast<long long>(d_plane_items),
                                               image_stride);
        };
        // Each (R, NT) is its own kernel: the accumulators live in registers.
        const auto with_r = [&](auto r) {
            constexpr int R = decltype(r)::value;
            switch (std::min(group, d_terms - g0)) {
            case 1:
                go(k::vertical_pass<D, R, 1>);
                break;
            case 2:
                go(k::vertical_pass<D, R, 2>);
                break;
            case 3:
                if constexpr (group >= 3)
                    go(k::vertical_pass<D, R, 3>);
                break;
            default:
                if constexpr (group >= 4)
                    go(k::vertical_pass<D, R, 4>);
                break;
            }
        };
        if constexpr (sizeof(D) == 4) {
            if (d_r == 16)
                with_r(std::integral_constant<int, 16>{});
            else
                with_r(std::integral_constant<int, 8>{});
        } else {
            with_r(std::integral_constant<int, 8>{});
        }
        GPUFILTER_CHECK_LAUNCH();
    }
}

template <class T, class Tap>
void fir2d_separable_engine<T, Tap>::launch_horizontal(const row_source<T>& src,
                                                       const output_window& win,
                                                       int b0,
                                                       int images,
                                                       long long r0,
                                                       int rows,
                                                       T* out,
                                                       cudaStream_t stream) const
{
    using D = device_t<T>;
    using DT = device_t<Tap>;
    const int bx = threads_along((win.width + d_p - 1) / d_p);
    const dim3 block(bx, k::threads / bx);
    const int tile_len = bx * d_p;
    const int chunk = std::min(k::row_chunk, d_kw_pad);
    const int stride = k::padded<D>(tile_len + chunk - 1) + 1;
    const std::size_t shared =
        std::size_t(block.y) * stride * sizeof(D) + chunk * sizeof(float);
    const dim3 grid(blocks_for(win.width, tile_len), blocks_for(rows, block.y), images);
    D* dst = reinterpret_cast<D*>(out) + b0 * win.image_stride + r0 * win.width;
    const auto go = [&](auto kernel) {
        kernel<<<grid, block, shared, stream>>>(
            reinterpret_cast<const D*>(d_planes.get()),
            static_cast<long long>(d_plane_items),
            static_cast<long long>(rows) * src.width,
            src.width,
            rows,
            d_rows.get(),
            d_kw,
            d_kw_pad,
            reinterpret_cast<const DT*>(d_coefs.get()),
            d_terms,
            chunk,
            stride,
            win.col_offset,
            win.width,
            dst,
            static_cast<long long>(win.image_stride));
    };
    if constexpr (sizeof(D) == 4) {
        if (d_p == 16)
            go(k::horizontal_pass<D, DT, 16>);
        else
            go(k::horizontal_pass<D, DT, 8>);
    } else {
        go(k::horizontal_pass<D, DT, 8>);
    }
    GPUFILTER_CHECK_LAUNCH();
}

template class fir2d_separable_engine<float, float>;
template class fir2d_separable_engine<complex, float>;
template class fir2d_separable_engine<complex, complex>;

} // namespace cuda
} // namespace gpufilter
} // namespace gr
