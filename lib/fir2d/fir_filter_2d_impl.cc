/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/parameter_checks.h"
#include "cuda/fir2d/fir2d_tuning.h"
#include "fir2d/cpu/fir2d_cpu_kernel.h"
#include "fir2d/fir_filter_2d_impl.h"
#include <gnuradio/io_signature.h>
#include <algorithm>
#include <string>

namespace gr {
namespace gpufilter {

namespace {

// batch_size counts samples, as every block's: whole rows of it, at least one.
int batch_rows(int batch_size, unsigned vlen)
{
    return std::max(1, checked_batch_size(batch_size) / static_cast<int>(vlen));
}

template <class T, class Tap>
computation<cuda::fir2d_controls<Tap>>
fir2d_computation(unsigned vlen, const cuda::kernel2d<Tap>& k, filter_method method)
{
    const auto m = fir2d_engine_method(method);
    const int width = static_cast<int>(vlen);
    return { [=](int device, std::size_t max_chunk) {
                return cuda::make_fir2d_path<T, Tap>(device, max_chunk, width, k, m);
            },
             [=] { return std::make_unique<fir2d_cpu_kernel<T, Tap>>(width, k); } };
}

} // namespace

cuda::fir2d_method fir2d_engine_method(filter_method m)
{
    if (m == filter_method::automatic)
        m = get_default_filter_method();
    switch (m) {
    case filter_method::direct:
        return cuda::fir2d_method::direct;
    case filter_method::separable:
        return cuda::fir2d_method::separable;
    case filter_method::fft:
        return cuda::fir2d_method::fft;
    default:
        return cuda::fir2d_method::automatic;
    }
}

template <class Tap>
cuda::kernel2d<Tap> checked_kernel2d(const std::vector<std::vector<Tap>>& rows,
                                     filter_method method)
{
    auto k = cuda::make_kernel2d(rows);
    checked_taps(k.taps);
    if (fir2d_engine_method(method) == cuda::fir2d_method::separable)
        cuda::check_separable(k);
    return k;
}

template <class IN_T, class OUT_T, class TAP_T>
typename fir_filter_2d<IN_T, OUT_T, TAP_T>::sptr
fir_filter_2d<IN_T, OUT_T, TAP_T>::make(unsigned vlen,
                                        const std::vector<std::vector<TAP_T>>& taps,
                                        int device,
                                        int batch_size,
                                        filter_method method,
                                        double max_latency)
{
    checked_vlen(static_cast<int>(std::min<unsigned>(vlen, 1u << 30)));
    return gnuradio::make_block_sptr<fir_filter_2d_impl<IN_T, OUT_T, TAP_T>>(
        vlen, checked_kernel2d(taps, method), device, batch_size, method, max_latency);
}

template <class IN_T, class OUT_T, class TAP_T>
fir_filter_2d_impl<IN_T, OUT_T, TAP_T>::fir_filter_2d_impl(
    unsigned vlen,
    const cuda::kernel2d<TAP_T>& kernel,
    int device,
    int batch_size,
    filter_method method,
    double max_latency)
    : gr::sync_block(std::string("gpu_fir_filter_2d_") +
                         type_suffix<IN_T, OUT_T, TAP_T>(),
                     gr::io_signature::make(1, 1, sizeof(IN_T) * vlen),
                     gr::io_signature::make(1, 1, sizeof(OUT_T) * vlen)),
      gpu_block<fir_filter_2d<IN_T, OUT_T, TAP_T>, cuda::fir2d_controls<TAP_T>>(
          device,
          { 1, 1 },
          batch_rows(batch_size, vlen),
          max_latency,
          fir2d_computation<IN_T, TAP_T>(vlen, kernel, method)),
      d_vlen(vlen),
      d_batch_size(batch_size),
      d_method(method),
      d_kernel(kernel)
{
    this->set_history(kernel.rows);
}

template <class IN_T, class OUT_T, class TAP_T>
void fir_filter_2d_impl<IN_T, OUT_T, TAP_T>::set_taps(
    const std::vector<std::vector<TAP_T>>& taps)
{
    auto k = checked_kernel2d(taps, d_method);
    gr::thread::scoped_lock lock(this->d_setlock);
    // As gr-filter's FIRs: the filter changes now, the history on the next work().
    this->controls().set_taps(k);
    d_kernel = std::move(k);
    d_updated = true;
}

template <class IN_T, class OUT_T, class TAP_T>
std::vector<std::vector<TAP_T>> fir_filter_2d_impl<IN_T, OUT_T, TAP_T>::taps() const
{
    std::vector<std::vector<TAP_T>> rows;
    for (int i = 0; i < d_kernel.rows; ++i)
        rows.emplace_back(d_kernel.taps.begin() + static_cast<long>(i) * d_kernel.cols,
                          d_kernel.taps.begin() +
                              static_cast<long>(i + 1) * d_kernel.cols);
    return rows;
}

template <class IN_T, class OUT_T, class TAP_T>
int fir_filter_2d_impl<IN_T, OUT_T, TAP_T>::delay() const
{
    return (d_kernel.rows - 1) / 2;
}

template <class IN_T, class OUT_T, class TAP_T>
int fir_filter_2d_impl<IN_T, OUT_T, TAP_T>::work(int noutput_items,
                                                 gr_vector_const_void_star& input_items,
                                                 gr_vector_void_star& output_items)
{
    gr::thread::scoped_lock lock(this->d_setlock);
    if (d_updated) {
        this->set_history(d_kernel.rows);
        d_updated = false;
        this->d_core.history_changed();
        return 0; // the history requirement changed: let the scheduler re-window
    }
    return this->d_core.process(
        input_items, static_cast<std::size_t>(noutput_items), output_items);
}

template class fir_filter_2d<float, float, float>;
template class fir_filter_2d<gr_complex, gr_complex, float>;
template class fir_filter_2d<gr_complex, gr_complex, gr_complex>;

} // namespace gpufilter
} // namespace gr

namespace gr {
namespace gpufilter {
template cuda::kernel2d<float> checked_kernel2d(const std::vector<std::vector<float>>&,
                                                filter_method);
template cuda::kernel2d<gr_complex>
checked_kernel2d(const std::vector<std::vector<gr_complex>>&, filter_method);
} // namespace gpufilter
} // namespace gr
