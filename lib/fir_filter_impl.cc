/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "fir_filter_impl.h"
#include "parameter_checks.h"
#include <gnuradio/io_signature.h>
#include <algorithm>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {

namespace {
template <class T>
constexpr char type_letter()
{
    return std::is_same_v<T, float> ? 'f' : 'c';
}

template <class IN_T, class OUT_T, class TAP_T>
std::string block_name()
{
    return std::string("gpu_fir_filter_") + type_letter<IN_T>() + type_letter<OUT_T>() +
           type_letter<TAP_T>();
}

} // namespace

template <class IN_T, class OUT_T, class TAP_T>
typename fir_filter<IN_T, OUT_T, TAP_T>::sptr
fir_filter<IN_T, OUT_T, TAP_T>::make(int decimation,
                                     const std::vector<TAP_T>& taps,
                                     int device,
                                     int batch_size,
                                     const std::string& method)
{
    return gnuradio::make_block_sptr<fir_filter_impl<IN_T, OUT_T, TAP_T>>(
        decimation, taps, device, batch_size, method);
}

template <class IN_T, class OUT_T, class TAP_T>
fir_filter_impl<IN_T, OUT_T, TAP_T>::fir_filter_impl(int decimation,
                                                     const std::vector<TAP_T>& taps,
                                                     int device,
                                                     int batch_size,
                                                     const std::string& method)
    : gr::sync_decimator(block_name<IN_T, OUT_T, TAP_T>(),
                         gr::io_signature::make(1, 1, sizeof(IN_T)),
                         gr::io_signature::make(1, 1, sizeof(OUT_T)),
                         checked_decimation(decimation)),
      gpu_block<fir_filter<IN_T, OUT_T, TAP_T>, IN_T, TAP_T>(
          device,
          checked_taps(taps),
          decimation,
          checked_batch_size(batch_size),
          checked_method(method)),
      d_taps(taps)
{
    if (!this->d_core.on_gpu())
        d_cpu =
            std::make_unique<gr::filter::kernel::fir_filter<IN_T, OUT_T, TAP_T>>(taps);
    this->set_history(taps.size());
}

template <class IN_T, class OUT_T, class TAP_T>
void fir_filter_impl<IN_T, OUT_T, TAP_T>::set_taps(const std::vector<TAP_T>& taps)
{
    checked_taps(taps);
    gr::thread::scoped_lock lock(this->d_setlock);
    // As gr-filter: the filter changes now, the history on the next work() call.
    d_taps = taps;
    if (d_cpu)
        d_cpu->set_taps(taps);
    else
        this->d_core.gpu().set_taps(taps);
    d_updated = true;
}

template <class IN_T, class OUT_T, class TAP_T>
std::vector<TAP_T> fir_filter_impl<IN_T, OUT_T, TAP_T>::taps() const
{
    return d_taps;
}

template <class IN_T, class OUT_T, class TAP_T>
int fir_filter_impl<IN_T, OUT_T, TAP_T>::work(int noutput_items,
                                              gr_vector_const_void_star& input_items,
                                              gr_vector_void_star& output_items)
{
    gr::thread::scoped_lock lock(this->d_setlock);
    if (d_updated) {
        this->set_history(d_taps.size());
        d_updated = false;
        this->d_core.history_changed();
        return 0; // the history requirement changed: let the scheduler re-window
    }

    // The window is history() - 1 old samples followed by noutput_items*D new ones.
    const auto in = static_cast<const IN_T*>(input_items[0]);
    const auto out = static_cast<OUT_T*>(output_items[0]);
    const int decimation = this->decimation();
    const std::size_t nnew = static_cast<std::size_t>(noutput_items) * decimation;
    this->d_core.note_batch(nnew);

    if (d_cpu) { // gr-filter's own code path, for identical results
        if (decimation == 1)
            d_cpu->filterN(out, in, noutput_items);
        else
            d_cpu->filterNdec(out, in, noutput_items, decimation);
        return noutput_items;
    }
    return this->d_core.filter(in, nnew, out) ? noutput_items : gr::block::WORK_DONE;
}

template class fir_filter<float, float, float>;
template class fir_filter<gr_complex, gr_complex, float>;
template class fir_filter<gr_complex, gr_complex, gr_complex>;
template class fir_filter<float, gr_complex, gr_complex>;

} // namespace gpufilter
} // namespace gr
