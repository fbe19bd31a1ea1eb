/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/cuda_check.h"
#include "../common/resources.h"
#include "../common/sample_types.h"
#include "fir2d_algorithm.h"
#include "fir2d_images.h"
#include <algorithm>
#include <list>
#include <memory>
#include <mutex>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {
// Host images go through the GPU in groups of at most this many bytes (input and
// output together), so that a stack larger than the GPU's memory still runs.
constexpr std::size_t group_bytes = std::size_t(512) << 20;
// A grid's z dimension: images of one launch.
constexpr std::size_t most_images = 65535;

/*!
 * The algorithms of the last few calls, by kernel, method, limits and device: a
 * program that filters image after image with one kernel (a video, a benchmark) does
 * not redo the kernel's separation, FFT plans and spectrum each call. A cached
 * algorithm is used by one call at a time.
 */
template <class T, class Tap>
class algorithm_cache
{
public:
    struct lease {
        std::unique_ptr<fir2d_algorithm<T, Tap>> algorithm;
        int device;
        kernel2d<Tap> kernel;
        fir2d_method method;
        fir2d_limits limits;
    };

    lease
    take(int device, const kernel2d<Tap>& k, fir2d_method m, const fir2d_limits& lim)
    {
        {
            std::lock_guard<std::mutex> lock(d_mutex);
            for (auto it = d_entries.begin(); it != d_entries.end(); ++it)
                if (it->device == device && it->method == m && same(it->limits, lim) &&
                    it->kernel.rows == k.rows && it->kernel.cols == k.cols &&
                    it->kernel.taps == k.taps) {
                    lease l = std::move(*it);
                    d_entries.erase(it);
                    return l;
                }
        }
        return { make_fir2d_algorithm<T, Tap>(k, m, lim), device, k, m, lim };
    }

    void give_back(lease&& l)
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        d_entries.push_front(std::move(l));
        while (d_entries.size() > most_entries)
            d_entries.pop_back();
    }

private:
    static constexpr std::size_t most_entries = 4;
    static bool same(const fir2d_limits& a, const fir2d_limits& b)
    {
        return a.in_width == b.in_width && a.out_width == b.out_width &&
               a.col_offset == b.col_offset && a.max_out_rows == b.max_out_rows &&
               a.max_images == b.max_images;
    }
    std::mutex d_mutex;
    std::list<lease> d_entries;
};

template <class T, class Tap>
algorithm_cache<T, Tap>& cache()
{
    static auto* c = new algorithm_cache<T, Tap>(); // never destroyed: no CUDA at exit
    return *c;
}

} // namespace

template <class T, class Tap>
void fir2d_images(int device,
                  const T* in,
                  std::size_t images,
                  long rows,
                  int cols,
                  const kernel2d<Tap>& k,
                  output_window win,
                  fir2d_method method,
                  T* out,
                  bool device_memory)
{
    if (images == 0 || win.rows <= 0 || win.width <= 0)
        return;
    device_scope on(device);
    const std::size_t in_items = static_cast<std::size_t>(rows) * cols;
    const std::size_t out_items = static_cast<std::size_t>(win.rows) * win.width;
    std::size_t group = std::min(images, most_images);
    if (!device_memory)
        group = std::clamp<std::size_t>(
            group_bytes / ((in_items + out_items) * sizeof(T)), 1, group);

    fir2d_limits lim;
    lim.in_width = cols;
    lim.out_width = win.width;
    lim.col_offset = win.col_offset;
    lim.max_out_rows = win.rows;
    lim.max_images = static_cast<int>(group);
    auto lease = cache<T, Tap>().take(device, k, method, lim);
    auto& algorithm = lease.algorithm;

    stream s;
    device_buffer<T> d_in, d_out;
    if (!device_memory) {
        d_in = device_buffer<T>(group * in_items);
        d_out = device_buffer<T>(group * out_items);
    }
    win.image_stride = out_items;
    for (std::size_t b = 0; b < images; b += group) {
        const std::size_t n = std::min(group, images - b);
        const T* src_images = in + b * in_items;
        T* dst_images = out + b * out_items;
        if (!device_memory) {
            GPUFILTER_CHECK(cudaMemcpyAsync(d_in.get(),
                                            src_images,
                                            n * in_items * sizeof(T),
                                            cudaMemcpyHostToDevice,
                                            s.get()));
            src_images = d_in.get();
        }
        row_source<T> src;
        src.input = src_images;
        src.rows = rows;
        src.width = cols;
        src.images = static_cast<int>(n);
        src.image_stride = in_items;
        algorithm->run(src, win, device_memory ? dst_images : d_out.get(), s.get());
        if (!device_memory)
            GPUFILTER_CHECK(cudaMemcpyAsync(dst_images,
                                            d_out.get(),
                                            n * out_items * sizeof(T),
                                            cudaMemcpyDeviceToHost,
                                            s.get()));
        s.synchronize(); // the group's buffers are reused, the caller reads out
    }
    cache<T, Tap>().give_back(std::move(lease));
}

#define GPUFILTER_FIR2D_IMAGES(T, Tap)                       \
    template void fir2d_images<T, Tap>(int,                  \
                                       const T*,             \
                                       std::size_t,          \
                                       long,                 \
                                       int,                  \
                                       const kernel2d<Tap>&, \
                                       output_window,        \
                                       fir2d_method,         \
                                       T*,                   \
                                       bool);
GPUFILTER_FIR2D_IMAGES(float, float)
GPUFILTER_FIR2D_IMAGES(complex, float)
GPUFILTER_FIR2D_IMAGES(complex, complex)

} // namespace cuda
} // namespace gpufilter
} // namespace gr
