/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/block_fft_plan.h"
#include "../common/fft_batches.h"
#include "../common/kernel_attributes.h"
#include "fir2d_fft_engine.h"
#include "fir2d_fft_fused_kernels.cuh"
#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {

// Tile sides past this are never worth it (the cost model's optimum is far below);
// it keeps the search short for absurd row counts.
constexpr long max_tile_side = 1L << 24;
// Nor tiles of more samples than this (256 MiB of complex samples a tile).
constexpr double max_tile_samples = double(1L << 25);
// Shorter tiles would give cuFFT a memory pass along the rows for a few butterflies;
// narrower ones would leave lanes of the gather and crop idle.
constexpr long min_tile_rows = 16;
constexpr long min_tile_cols = 32;

cufftComplex* as_cufft(complex* p) { return reinterpret_cast<cufftComplex*>(p); }

template <class Tap>
void check_kernel(const kernel2d<Tap>& k)
{
    if (k.rows < 1 || k.cols < 1 ||
        k.taps.size() != static_cast<std::size_t>(k.rows) * k.cols)
        throw std::invalid_argument("taps: a 2D kernel needs rows * cols taps, at least "
                                    "one; got " +
                                    std::to_string(k.rows) + " x " +
                                    std::to_string(k.cols) + " with " +
                                    std::to_string(k.taps.size()));
}

void check_limits(const fir2d_limits& lim)
{
    if (lim.in_width < 1 || lim.max_out_rows < 1 || lim.max_images < 1)
        throw std::invalid_argument(
            "limits: in_width, max_out_rows and max_images must be >= 1, got " +
            std::to_string(lim.in_width) + ", " + std::to_string(lim.max_out_rows) +
            ", " + std::to_string(lim.max_images));
}

} // namespace

long fir2d_fft_nice_size(long n)
{
    n = std::max(n, 1L);
    // The least 2^a * 3^b * 5^c * 7^d >= n: for every 3^b * 5^c * 7^d < n (and the
    // first >= n), the power of two that lifts it to n.
    long best = std::numeric_limits<long>::max();
    for (long p7 = 1;; p7 *= 7) {
        for (long p5 = p7;; p5 *= 5) {
            for (long p3 = p5;; p3 *= 3) {
                long p2 = p3;
                while (p2 < n)
                    p2 *= 2;
                best = std::min(best, p2);
                if (p3 >= n)
                    break;
            }
            if (p5 >= n)
                break;
        }
        if (p7 >= n)
            break;
    }
    return best;
}

namespace {

// The cost of cuFFT's passes over one dimension of size n, relative to a power of
// two up to 4096 (see fir2d_fft_tiles).
double fft_passes(long n) { return (n & (n - 1)) == 0 && n <= 4096 ? 1.0 : 1.85; }

// Tiles of fr rows take the fused column pass (fir2d_fft_kernels::column_pass).
bool fused_column_size(long fr) { return fr == 256 || fr == 512; }

// Columns per block of the fused column pass (column_pass<fr, cb>).
int default_column_block(int fr) { return fr == 512 ? 8 : 16; }

// And tiles of fc columns the fused row passes (rows_forward, rows_inverse).
bool block_row_size(long fc)
{
    namespace kern = fir2d_fft_kernels;
    return fc >= kern::min_row_size && fc <= kern::max_row_size && !(fc & (fc - 1));
}

// Per tile, the fixed cost of its launches' blocks, as tile samples.
constexpr double tile_overhead = 4096.0;

// The fused passes (block FFT rows and columns), in the units of fft_passes' model
// (about 3.3 ps a unit on an H200): per tile sample (tile_overhead included: the
// forward rows and the column pass), and per sample of a kept row (the inverse rows
// and the outputs). Fitted on an H200 to 4096 x 4096 real and complex images,
// kernels 15 to 201, tiles of 256 x 256 to 512 x 1024, within 13%.
struct fused_weight {
    double tile, kept;
};
constexpr fused_weight fused_weights[2] = { { 4.2, 2.8 },   // 256 rows
                                            { 3.7, 3.6 } }; // 512 rows

// The nice sizes of one tile side: from the kernel's side (at least 2, and at least
// `floor` where the window's side allows) up to the one that holds the whole side.
std::vector<long> side_sizes(int kernel, long out, long floor)
{
    const long whole_n = out + kernel - 1;
    const long lo = fir2d_fft_nice_size(
        std::max({ static_cast<long>(kernel), 2L, std::min(floor, whole_n) }));
    const long hi = std::max(lo, std::min(fir2d_fft_nice_size(whole_n), max_tile_side));
    std::vector<long> sizes;
    for (long n = lo; n <= hi; n = fir2d_fft_nice_size(n + 1))
        sizes.push_back(n);
    return sizes;
}

} // namespace

fir2d_fft_tile_shape fir2d_fft_tiles(int kernel_rows,
                                     int kernel_cols,
                                     long out_rows,
                                     long out_cols,
                                     long images,
                                     bool packed)
{
    if (kernel_rows < 1 || kernel_cols < 1 || out_rows < 1 || out_cols < 1 || images < 1)
        throw std::invalid_argument(
            "fir2d_fft_tiles: kernel sides, output sides and images must be >= 1, got " +
            std::to_string(kernel_rows) + ", " + std::to_string(kernel_cols) + ", " +
            std::to_string(out_rows) + ", " + std::to_string(out_cols) + ", " +
            std::to_string(images));
    const auto rows = side_sizes(kernel_rows, out_rows, min_tile_rows);
    const auto cols = side_sizes(kernel_cols, out_cols, min_tile_cols);
    fir2d_fft_tile_shape best{ static_cast<int>(rows.front()),
                               static_cast<int>(cols.front()) };
    double best_cost = std::numeric_limits<double>::infinity();
    for (const long fr : rows) {
        const long lr = fr - kernel_rows + 1;
        const long tiles_r = (out_rows + lr - 1) / lr;
        for (const long fc : cols) {
            if (static_cast<double>(fr) * fc > max_tile_samples)
                break;
            const long tiles_c = (out_cols + fc - kernel_cols) / (fc - kernel_cols + 1);
            double slots = static_cast<double>(tiles_r) * tiles_c * images;
            if (packed)
                slots = std::ceil(slots / 2);
            const double samples = static_cast<double>(fr) * fc + tile_overhead;
            double cost;
            if (fused_column_size(fr) && block_row_size(fc)) {
                const auto& w = fused_weights[fr == 512];
                cost = slots * (samples * w.tile + static_cast<double>(lr) * fc * w.kept);
            } else {
                const double per_sample =
                    fused_column_size(fr) ? 4.0 + 4.0 * fft_passes(fc)
                                          : 4.0 + 4.0 * (fft_passes(fr) + fft_passes(fc));
                cost = slots * samples * per_sample;
            }
            if (cost < best_cost * (1.0 - 1e-9)) { // ties: the smaller tile
                best_cost = cost;
                best = { static_cast<int>(fr), static_cast<int>(fc) };
            }
        }
    }
    return best;
}

template <class T, class Tap>
fir2d_fft_engine<T, Tap>::fir2d_fft_engine(const kernel2d<Tap>& k,
                                           const fir2d_limits& lim,
                                           const fir2d_fft_tuning& tuning)
    : d_kh(k.rows), d_kw(k.cols), d_lim(lim)
{
    check_kernel(k);
    check_limits(lim);
    // The window's width as the limits give it (the full convolution's if unset).
    const long out_cols =
        lim.out_width > 0 ? lim.out_width : static_cast<long>(lim.in_width) + d_kw - 1;
    const auto shape =
        fir2d_fft_tiles(d_kh, d_kw, lim.max_out_rows, out_cols, lim.max_images, packed);
    d_fr = tuning.tile_rows ? tuning.tile_rows : shape.rows;
    d_fc = tuning.tile_cols ? tuning.tile_cols : shape.cols;
    const bool block_ok = tuning.column_block == 0 || tuning.column_block == 8 ||
                          tuning.column_block == fir2d_fft_kernels::max_col_block;
    if (d_fr < std::max(d_kh, 2) || d_fc < std::max(d_kw, 2) || tuning.max_batch < 0 ||
        !block_ok)
        throw std::invalid_argument(
            "tuning: tile_rows and tile_cols must be 0 or >= the kernel's side (and 2), "
            "max_batch >= 0, column_block 0, 8 or 16; got " +
            std::to_string(tuning.tile_rows) + ", " + std::to_string(tuning.tile_cols) +
            ", " + std::to_string(tuning.max_batch) + ", " +
            std::to_string(tuning.column_block) + " for a " + std::to_string(d_kh) +
            " x " + std::to_string(d_kw) + " kernel");

    // Enough slots for the largest run, as many as the memory cap allows (at least
    // one); the remainder of a run goes through the smaller batch counts.
    const long long lr = d_fr - (d_kh - 1), lc = d_fc - (d_kw - 1);
    long long needed = static_cast<long long>(lim.max_images) *
                       ((lim.max_out_rows + lr - 1) / lr) * ((out_cols + lc - 1) / lc);
    if (packed)
        needed = (needed + 1) / 2;
    const std::size_t tile_bytes = std::size_t(d_fr) * d_fc * sizeof(complex);
    long long batch = std::min<long long>(
        needed,
        std::max<long long>(1,
                            static_cast<long long>(tuning.max_tile_bytes / tile_bytes)));
    if (tuning.max_batch > 0)
        batch = std::min<long long>(batch, tuning.max_batch);

    d_fused = fused_column_size(d_fr);
    d_block_rows = d_fused && !tuning.cufft_rows && block_row_size(d_fc);
    if (d_fused)
        d_column_block =
            tuning.column_block ? tuning.column_block : default_column_block(d_fr);
    make_plans(batch);
    d_tiles = device_buffer<complex>(static_cast<std::size_t>(batch) * d_fr * d_fc);
    d_spectrum = device_buffer<complex>(std::size_t(d_fr) * d_fc);
    compute_spectrum(k);
    if (d_fused)
        upload_twiddles();
}

template <class T, class Tap>
void fir2d_fft_engine<T, Tap>::upload_twiddles()
{
    // The column pass's forward and inverse plans, then the row passes' plan.
    std::vector<block_fft_plan> plans{ { d_fr, true }, { d_fr, false } };
    if (d_block_rows)
        plans.push_back({ d_fc, true });
    d_twiddles = uploaded(block_fft_twiddles(plans));
}

template <class T, class Tap>
void fir2d_fft_engine<T, Tap>::make_plans(long long batch)
{
    // Batch counts: the largest, then the powers of two below it down to 1, so that a
    // run's last group wastes at most a quarter of its transforms (pick_plan).
    d_batches = { batch };
    long long pow2 = 1;
    while (pow2 * 2 < batch)
        pow2 *= 2;
    for (; batch > 1 && pow2 >= 1; pow2 /= 2)
        d_batches.push_back(pow2);

    // Slots in place, Fr x Fc complex each, the basic layout: 2D transforms, or with
    // the fused column pass 1D ones over the Fr rows of every slot.
    long long n2[2] = { d_fr, d_fc };
    long long n1[1] = { d_fc };
    const long long dist = d_fused ? d_fc : static_cast<long long>(d_fr) * d_fc;
    std::size_t work_bytes = 0;
    for (const long long b : d_block_rows ? std::vector<long long>{} : d_batches) {
        fft_plan p = fft_plan::create();
        GPUFILTER_CHECK(cufftSetAutoAllocation(p.get(), 0)); // one shared work area
        std::size_t bytes = 0;
        GPUFILTER_CHECK(cufftMakePlanMany64(p.get(),
                                            d_fused ? 1 : 2,
                                            d_fused ? n1 : n2,
                                            nullptr,
                                            1,
                                            dist,
                                            nullptr,
                                            1,
                                            dist,
                                            CUFFT_C2C,
                                            d_fused ? b * d_fr : b,
                                            &bytes));
        work_bytes = std::max(work_bytes, bytes);
        d_plans.push_back(std::move(p));
    }
    if (d_fused) { // past the default 48 KiB at 512 rows; each its own (per device)
        namespace kern = fir2d_fft_kernels;
        allow_dynamic_shared_memory(kern::column_pass<512, 16>,
                                    kern::column_pass_bytes(512, 16));
    }
    if (work_bytes == 0)
        return;
    d_fft_work = device_buffer<char>(work_bytes);
    for (const auto& p : d_plans)
        GPUFILTER_CHECK(cufftSetWorkArea(p.get(), d_fft_work.get()));
}

template <class T, class Tap>
void fir2d_fft_engine<T, Tap>::compute_spectrum(const kernel2d<Tap>& k)
{
    // The kernel zero-padded to Fr x Fc, scaled by 1/(Fr*Fc) so that the unscaled
    // inverse returns the convolution; transformed by a 2D plan of its own (the run's
    // may be 1D). A real kernel is promoted: its spectrum multiplies the packed pairs
    // of real tiles, whose spectra have no symmetry.
    const double scale = 1.0 / (static_cast<double>(d_fr) * d_fc);
    std::vector<complex> padded(std::size_t(d_fr) * d_fc, complex(0.0f, 0.0f));
    for (int i = 0; i < d_kh; ++i)
        for (int j = 0; j < d_kw; ++j)
            padded[std::size_t(i) * d_fc + j] =
                complex(k.at(i, j)) * static_cast<float>(scale);
    stream s;
    fft_plan plan = fft_plan::create();
    std::size_t bytes = 0;
    GPUFILTER_CHECK(cufftMakePlan2d(plan.get(), d_fr, d_fc, CUFFT_C2C, &bytes));
    const cufftHandle one = plan.get();
    GPUFILTER_CHECK(cufftSetStream(one, s));
    GPUFILTER_CHECK(cudaMemcpyAsync(d_spectrum.get(),
                                    padded.data(),
                                    padded.size() * sizeof(complex),
                                    cudaMemcpyHostToDevice,
                                    s));
    GPUFILTER_CHECK(cufftExecC2C(
        one, as_cufft(d_spectrum.get()), as_cufft(d_spectrum.get()), CUFFT_FORWARD));
    if (!d_fused) {
        s.synchronize(); // `padded` dies on return
        return;
    }
    // The column pass reads each column's Fr points together (column-major), in
    // whole groups of 16 columns.
    GPUFILTER_CHECK(cudaMemcpyAsync(padded.data(),
                                    d_spectrum.get(),
                                    padded.size() * sizeof(complex),
                                    cudaMemcpyDeviceToHost,
                                    s));
    s.synchronize();
    const int groups =
        (d_fc + fir2d_fft_kernels::max_col_block - 1) / fir2d_fft_kernels::max_col_block;
    std::vector<complex> cols(std::size_t(groups) * fir2d_fft_kernels::max_col_block *
                                  d_fr,
                              complex(0.0f, 0.0f));
    for (int f = 0; f < d_fr; ++f)
        for (int c = 0; c < d_fc; ++c)
            cols[std::size_t(c) * d_fr + f] = padded[std::size_t(f) * d_fc + c];
    d_spectrum_cols = device_buffer<complex>(cols.size());
    GPUFILTER_CHECK(cudaMemcpyAsync(d_spectrum_cols.get(),
                                    cols.data(),
                                    cols.size() * sizeof(complex),
                                    cudaMemcpyHostToDevice,
                                    s));
    s.synchronize(); // `cols` dies on return
}

template <class T, class Tap>
int fir2d_fft_engine<T, Tap>::pick_plan(long long remaining) const
{
    return pick_fft_batch(d_batches, remaining);
}

template <class T, class Tap>
void fir2d_fft_engine<T, Tap>::run(const row_source<T>& src,
                                   const output_window& win,
                                   T* out,
                                   cudaStream_t s)
{
    if (src.width < 0 || src.width > d_lim.in_width || win.rows < 0 ||
        win.rows > d_lim.max_out_rows || src.images < 0 || src.images > d_lim.max_images)
        throw std::invalid_argument(
            "fir2d_fft_engine::run: width " + std::to_string(src.width) + ", rows " +
            std::to_string(win.rows) + ", images " + std::to_string(src.images) +
            " pass the limits " + std::to_string(d_lim.in_width) + ", " +
            std::to_string(d_lim.max_out_rows) + ", " + std::to_string(d_lim.max_images));
    if (win.rows == 0 || win.width <= 0 || src.images == 0)
        return;

    namespace kern = fir2d_fft_kernels;
    using D = device_t<T>;
    const long long lr = d_fr - (d_kh - 1), lc = d_fc - (d_kw - 1);
    const long long tiles_c = (win.width + lc - 1) / lc;
    const long long per_image = ((win.rows + lr - 1) / lr) * tiles_c;
    const long long total = per_image * src.images;
    const int pack = packed ? 2 : 1;
    const long long slots = (total + pack - 1) / pack;
    const kern::tile_layout lay{ d_fr,
                                 d_fc,
                                 static_cast<long long>(d_fr) * d_fc,
                                 d_kh,
                                 d_kw,
                                 static_cast<int>(lr),
                                 static_cast<int>(lc),
                                 tiles_c,
                                 per_image,
                                 total };
    const kern::rows_view<D> view{ reinterpret_cast<const D*>(src.history),
                                   src.history_rows,
                                   reinterpret_cast<const D*>(src.input),
                                   src.rows,
                                   src.width,
                                   static_cast<long long>(src.image_stride) };
    auto* tiles = reinterpret_cast<float2*>(d_tiles.get());
    const auto spectrum = reinterpret_cast<const float2*>(d_spectrum.get());
    const dim3 block(kern::block_cols, kern::block_rows);
    auto grid = [](long long cols, long long rows, long long tiles) {
        auto capped = [](long long n) {
            return static_cast<unsigned>(std::min<long long>(n, kern::max_grid));
        };
        return dim3(blocks_for(cols, kern::block_cols),
                    capped(blocks_for(rows, kern::block_rows * kern::rows_per_thread)),
                    capped(tiles));
    };

    const auto twiddles = reinterpret_cast<const float2*>(d_twiddles.get());
    const auto row_twiddles =
        twiddles ? twiddles + block_fft_plan{ d_fr, true }.twiddle_count() +
                       block_fft_plan{ d_fr, false }.twiddle_count()
                 : nullptr;
    auto capped = [](long long n) {
        return static_cast<unsigned>(std::min<long long>(n, kern::max_grid));
    };
    // The fused column pass over b slots.
    auto columns = [&](long long b) {
        const auto cols = reinterpret_cast<const float2*>(d_spectrum_cols.get());
        auto launch = [&](auto kernel, int fr, int cb) {
            const dim3 blocks(blocks_for(d_fc, cb), capped(b));
            kernel<<<blocks,
                     kern::column_threads(fr, cb),
                     kern::column_pass_bytes(fr, cb),
                     s>>>(tiles, cols, twiddles, d_fc, lay.tile, b);
        };
        if (d_fr == 256)
            d_column_block == 8 ? launch(kern::column_pass<256, 8>, 256, 8)
                                : launch(kern::column_pass<256, 16>, 256, 16);
        else
            d_column_block == 8 ? launch(kern::column_pass<512, 8>, 512, 8)
                                : launch(kern::column_pass<512, 16>, 512, 16);
        GPUFILTER_CHECK_LAUNCH();
    };

    for (long long u0 = 0; u0 < slots;) {
        // The block FFT takes any count; cuFFT's plans their own.
        const int p = d_block_rows ? 0 : pick_plan(slots - u0);
        const long long b =
            d_block_rows ? std::min(d_batches[0], slots - u0) : d_batches[p];
        const long long g0 = u0 * pack;
        const long long count = std::min(b * pack, total - g0); // tiles to crop
        if (d_block_rows) {
            kern::with_row_size(d_fc, [&](auto fc_) {
                constexpr int FC = decltype(fc_)::value;
                constexpr int rb = kern::row_batch(FC);
                const std::size_t bytes = kern::row_pass_bytes(FC);
                kern::rows_forward<FC, D>
                    <<<dim3(d_fr / rb, capped(b)), kern::row_threads(FC), bytes, s>>>(
                        view, win.first, win.col_offset, lay, u0, b, row_twiddles, tiles);
                GPUFILTER_CHECK_LAUNCH();
                columns(b);
                kern::rows_inverse<FC, D><<<dim3(blocks_for(lr, rb), capped(b)),
                                            kern::row_threads(FC),
                                            bytes,
                                            s>>>(tiles,
                                                 lay,
                                                 g0,
                                                 count,
                                                 win.width,
                                                 win.col_offset,
                                                 src.width + d_kw - 1,
                                                 win.rows,
                                                 static_cast<long long>(win.image_stride),
                                                 row_twiddles,
                                                 reinterpret_cast<D*>(out));
                GPUFILTER_CHECK_LAUNCH();
            });
            u0 += b;
            continue;
        }
        kern::gather_tiles<<<grid(d_fc, d_fr, b), block, 0, s>>>(
            view, win.first, win.col_offset, lay, u0, b, tiles);
        GPUFILTER_CHECK_LAUNCH();

        const cufftHandle plan = d_plans[p].get();
        GPUFILTER_CHECK(cufftSetStream(plan, s));
        GPUFILTER_CHECK(cufftExecC2C(
            plan, as_cufft(d_tiles.get()), as_cufft(d_tiles.get()), CUFFT_FORWARD));
        if (d_fused) {
            columns(b);
        } else {
            const dim3 spectra(blocks_for(lay.tile, kern::threads), capped(b));
            kern::multiply_spectrum<<<spectra, kern::threads, 0, s>>>(
                tiles, spectrum, lay.tile, b);
            GPUFILTER_CHECK_LAUNCH();
        }
        GPUFILTER_CHECK(cufftExecC2C(
            plan, as_cufft(d_tiles.get()), as_cufft(d_tiles.get()), CUFFT_INVERSE));

        kern::crop_tiles<<<grid(lc, lr, count), block, 0, s>>>(
            tiles,
            lay,
            g0,
            count,
            win.width,
            win.col_offset,
            src.width + d_kw - 1,
            win.rows,
            static_cast<long long>(win.image_stride),
            reinterpret_cast<D*>(out));
        GPUFILTER_CHECK_LAUNCH();
        u0 += b;
    }
}

template class fir2d_fft_engine<float, float>;
template class fir2d_fft_engine<complex, float>;
template class fir2d_fft_engine<complex, complex>;

} // namespace cuda
} // namespace gpufilter
} // namespace gr
