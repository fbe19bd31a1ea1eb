/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "fir_state.h"
#include "history_kernels.cuh"
#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {

// dst[0, n) = src[from, from + n) on the device.
template <class T>
void launch_gather(history_then_input<device_t<T>> src,
                   long long from,
                   T* dst,
                   std::size_t n,
                   cudaStream_t stream)
{
    if (n == 0)
        return;
    constexpr int block = 256;
    history_kernels::gather<<<blocks_for(n, block), block, 0, stream>>>(
        src, from, reinterpret_cast<device_t<T>*>(dst), static_cast<long long>(n));
    GPUFILTER_CHECK_LAUNCH();
}

} // namespace

template <class In, class Out>
void fir_state<In, Out>::resize_history(std::size_t new_len, cudaStream_t stream)
{
    const std::size_t old_len = d_history_len;
    const std::size_t capacity = std::max<std::size_t>(new_len, 1);
    device_buffer<In>& next = d_history[d_current ^ 1];
    if (next.size() < capacity)
        next = device_buffer<In>(capacity);
    const auto old_history = history_view(*this, static_cast<const In*>(nullptr), 0);
    launch_gather(old_history,
                  static_cast<long long>(old_len) - static_cast<long long>(new_len),
                  next.get(),
                  new_len,
                  stream);
    d_current ^= 1;
    d_history_len = new_len;
    if (d_history[d_current ^ 1].size() < capacity) {
        // Wait for the gather before the old buffer may be freed.
        GPUFILTER_CHECK(cudaStreamSynchronize(stream));
        d_history[d_current ^ 1] = device_buffer<In>(capacity);
    }
}

template <class In, class Out>
void fir_state<In, Out>::set_history(const In* host_samples, cudaStream_t stream)
{
    if (d_history_len)
        GPUFILTER_CHECK(cudaMemcpyAsync(d_history[d_current].get(),
                                        host_samples,
                                        d_history_len * sizeof(In),
                                        cudaMemcpyHostToDevice,
                                        stream));
    GPUFILTER_CHECK(cudaStreamSynchronize(stream)); // host_samples may go away after this
    d_phase = 0;
}

template <class In, class Out>
void fir_state<In, Out>::reset(cudaStream_t stream)
{
    if (d_history_len)
        GPUFILTER_CHECK(cudaMemsetAsync(
            d_history[d_current].get(), 0, d_history_len * sizeof(In), stream));
    d_phase = 0;
}

template <class In, class Out>
void fir_state<In, Out>::set_rotation(const rotation& r)
{
    if (!is_complex_v<Out>)
        throw std::logic_error("set_rotation: this engine's output is real");
    d_rotation = r;
    d_rotated_outputs = 0;
    d_rotating = true;
}

template <class In, class Out>
rotation fir_state<In, Out>::next_rotation() const
{
    if (!d_rotating)
        return {};
    return { phase_cycles(d_rotation, d_rotated_outputs),
             wrap_cycles(d_rotation.step_cycles) };
}

template <class In, class Out>
void fir_state<In, Out>::advance(const In* d_in, std::size_t n, cudaStream_t stream)
{
    // The next call's history: the last history_len() samples of [history | input].
    launch_history_keep(history_keep_of(*this, d_in, n), stream);
    advance_kept(n);
}

template <class In, class Out>
void fir_state<In, Out>::advance_kept(std::size_t n)
{
    const std::size_t noutputs = output_count(n);
    d_rotated_outputs += noutputs;
    if (d_history_len)
        d_current ^= 1;
    d_phase = d_phase + noutputs * d_decimation - n;
}

// The (In, Out) pairs of the engines' (In, Tap) instantiations.
template class fir_state<float, float>;
template class fir_state<float, complex>;
template class fir_state<complex, complex>;
template class fir_state<std::int16_t, complex>;

} // namespace cuda
} // namespace gpufilter
} // namespace gr
