/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/device_selection.h"
#include "core/parameter_checks.h"
#include "cuda/fir2d/fir2d_images.h"
#include "cuda/fir2d/fir2d_tuning.h"
#include "fir2d/cpu/fir2d_cpu.h"
#include "fir2d/fir_filter_2d_impl.h"
#include <gnuradio/gpufilter/convolve2d.h>
#include <gnuradio/logger.h>
#include <climits>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {

namespace {

void check_extent(const char* name, long long value, long long least)
{
    if (value < least || value > INT_MAX)
        throw std::invalid_argument(
            std::string(name) + ": must be in [" + std::to_string(least) + ", " +
            std::to_string(INT_MAX) + "], got " + std::to_string(value));
}

} // namespace

template <class T, class Tap>
int convolve2d_images(const T* in,
                      std::size_t images,
                      std::size_t rows,
                      std::size_t cols,
                      const Tap* kernel,
                      int kh,
                      int kw,
                      const image_window& window,
                      filter_method method,
                      T* out,
                      int device,
                      bool device_memory)
{
    check_extent("rows", static_cast<long long>(rows), 1);
    check_extent("cols", static_cast<long long>(cols), 1);
    check_extent("kernel rows", kh, 1);
    check_extent("kernel cols", kw, 1);
    check_extent("window rows", window.rows, 0);
    check_extent("window cols", window.cols, 0);
    cuda::kernel2d<Tap> k;
    k.rows = kh;
    k.cols = kw;
    k.taps.assign(kernel, kernel + static_cast<std::size_t>(kh) * kw);
    checked_taps(k.taps, "in2");
    const auto m = fir2d_engine_method(method);

    // One warning per process about the CPU, not one per image of a loop.
    static const auto logger = std::make_shared<gr::logger>("convolve2d");
    const int dev = device_memory ? device : select_device(device, logger);
    logger->set_level("error");
    if (device_memory && dev < 0)
        throw std::invalid_argument("device: arrays in GPU memory need a device index, "
                                    "got " +
                                    std::to_string(device));
    cuda::output_window win;
    win.first = window.first_row;
    win.rows = window.rows;
    win.width = static_cast<int>(window.cols);
    win.col_offset = static_cast<int>(window.col_offset);
    if (dev != device_cpu) {
        cuda::fir2d_images<T, Tap>(dev,
                                   in,
                                   images,
                                   static_cast<long>(rows),
                                   static_cast<int>(cols),
                                   k,
                                   win,
                                   m,
                                   out,
                                   device_memory);
        return dev;
    }
    // The GPU's maker refuses what separable cannot run (once per kernel: it keeps
    // the algorithm); the CPU refuses the same kernels.
    if (m == cuda::fir2d_method::separable)
        cuda::check_separable(k);
    cuda::row_source<T> src;
    src.input = in;
    src.rows = static_cast<long>(rows);
    src.width = static_cast<int>(cols);
    src.images = static_cast<int>(images);
    src.image_stride = rows * cols;
    win.image_stride = static_cast<std::size_t>(window.rows) * window.cols;
    if (images > 0)
        fir2d_cpu(k, src, win, out);
    return dev;
}

#define GPUFILTER_CONVOLVE2D_IMAGES(T, Tap)                                   \
    template GPUFILTER_API int convolve2d_images<T, Tap>(const T*,            \
                                                         std::size_t,         \
                                                         std::size_t,         \
                                                         std::size_t,         \
                                                         const Tap*,          \
                                                         int,                 \
                                                         int,                 \
                                                         const image_window&, \
                                                         filter_method,       \
                                                         T*,                  \
                                                         int,                 \
                                                         bool);
GPUFILTER_CONVOLVE2D_IMAGES(float, float)
GPUFILTER_CONVOLVE2D_IMAGES(gr_complex, float)
GPUFILTER_CONVOLVE2D_IMAGES(gr_complex, gr_complex)

} // namespace gpufilter
} // namespace gr
