/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/cuda_check.h"
#include "../common/sample_types.h"
#include "../stream/gpu_path.h"
#include "fir2d_stream_engine.h"
#include <algorithm>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {
namespace cuda {

template <class T, class Tap>
fir2d_stream_engine<T, Tap>::fir2d_stream_engine(int vlen,
                                                 const kernel2d<Tap>& k,
                                                 fir2d_method method,
                                                 std::size_t max_rows)
    : d_vlen(vlen),
      d_method(method),
      d_max_rows(std::max<std::size_t>(max_rows, 1)),
      d_ports{ { sizeof(T) * vlen }, { sizeof(T) * vlen } }
{
    if (vlen < 1)
        throw std::invalid_argument("vlen: must be >= 1, got " + std::to_string(vlen));
    stream s;
    set_taps(k, s);
    s.synchronize();
}

template <class T, class Tap>
void fir2d_stream_engine<T, Tap>::set_taps(const kernel2d<Tap>& k)
{
    set_taps(k, this->control_stream());
}

template <class T, class Tap>
void fir2d_stream_engine<T, Tap>::set_taps(const kernel2d<Tap>& k, cudaStream_t s)
{
    if (k.rows < 1 || k.cols < 1 ||
        k.taps.size() != static_cast<std::size_t>(k.rows) * k.cols)
        throw std::invalid_argument("taps: a 2D kernel needs rows x columns taps");
    fir2d_limits lim;
    lim.in_width = d_vlen;
    lim.out_width = d_vlen;
    lim.col_offset = (k.cols - 1) / 2;
    lim.max_out_rows = static_cast<long>(d_max_rows);
    lim.max_images = 1;
    auto algorithm = make_fir2d_algorithm<T, Tap>(k, d_method, lim);
    GPUFILTER_CHECK(cudaStreamSynchronize(s)); // no queued call uses the old ones
    d_algorithm = std::move(algorithm);
    d_kernel_rows = k.rows;
    d_kernel_cols = k.cols;
    // Zeros until the block sets the history from GNU Radio's window.
    const std::size_t items = static_cast<std::size_t>(k.rows - 1) * d_vlen;
    for (auto& h : d_history) {
        h = device_buffer<T>(std::max<std::size_t>(items, 1));
        GPUFILTER_CHECK(cudaMemsetAsync(h.get(), 0, h.size() * sizeof(T), s));
    }
    d_current = 0;
    GPUFILTER_CHECK(cudaStreamSynchronize(s));
}

template <class T, class Tap>
void fir2d_stream_engine<T, Tap>::set_history(const void* const* host, cudaStream_t s)
{
    const std::size_t bytes = history_items() * d_vlen * sizeof(T);
    if (bytes > 0) {
        GPUFILTER_CHECK(cudaMemcpyAsync(
            d_history[d_current].get(), host[0], bytes, cudaMemcpyHostToDevice, s));
        GPUFILTER_CHECK(cudaStreamSynchronize(s));
    }
}

template <class T, class Tap>
std::size_t fir2d_stream_engine<T, Tap>::process(const void* const* in,
                                                 std::size_t n,
                                                 void* const* out,
                                                 cudaStream_t s)
{
    if (n == 0)
        return 0;
    const T* input = static_cast<const T*>(in[0]);
    const long h = d_kernel_rows - 1;
    row_source<T> src;
    src.history = d_history[d_current].get();
    src.history_rows = h;
    src.input = input;
    src.rows = static_cast<long>(n);
    src.width = d_vlen;
    output_window win;
    win.first = 0;
    win.rows = static_cast<long>(n);
    win.width = d_vlen;
    win.col_offset = (d_kernel_cols - 1) / 2;
    d_algorithm->run(src, win, static_cast<T*>(out[0]), s);

    // The next history: the last h rows of [history | input].
    if (h > 0) {
        const std::size_t row_bytes = d_vlen * sizeof(T);
        T* next = d_history[1 - d_current].get();
        const long from_input = std::min<long>(h, static_cast<long>(n));
        const long kept = h - from_input; // rows of the old history still needed
        if (kept > 0)
            GPUFILTER_CHECK(cudaMemcpyAsync(next,
                                            src.history + (h - kept) * d_vlen,
                                            kept * row_bytes,
                                            cudaMemcpyDeviceToDevice,
                                            s));
        GPUFILTER_CHECK(
            cudaMemcpyAsync(next + kept * d_vlen,
                            input + (static_cast<long>(n) - from_input) * d_vlen,
                            from_input * row_bytes,
                            cudaMemcpyDeviceToDevice,
                            s));
        d_current = 1 - d_current;
    }
    return n;
}

template <class T, class Tap>
const char* fir2d_stream_engine<T, Tap>::method() const
{
    return fir2d_method_name(d_algorithm->method());
}

template <class T, class Tap>
gpu_path<fir2d_controls<Tap>> make_fir2d_path(int device,
                                              std::size_t max_chunk,
                                              int vlen,
                                              const kernel2d<Tap>& k,
                                              fir2d_method method)
{
    // The host path never hands the engine more than a sub-chunk.
    return make_gpu_path<fir2d_controls<Tap>, fir2d_stream_engine<T, Tap>>(
        device, max_chunk, vlen, k, method, sub_chunk_for(max_chunk));
}

#define GPUFILTER_FIR2D_STREAM(T, Tap)                              \
    template class fir2d_stream_engine<T, Tap>;                     \
    template gpu_path<fir2d_controls<Tap>> make_fir2d_path<T, Tap>( \
        int, std::size_t, int, const kernel2d<Tap>&, fir2d_method);
GPUFILTER_FIR2D_STREAM(float, float)
GPUFILTER_FIR2D_STREAM(complex, float)
GPUFILTER_FIR2D_STREAM(complex, complex)

} // namespace cuda
} // namespace gpufilter
} // namespace gr
