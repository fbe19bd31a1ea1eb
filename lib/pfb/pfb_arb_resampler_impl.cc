/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/parameter_checks.h"
#include "pfb/pfb_arb_resampler_impl.h"
#include <gnuradio/io_signature.h>
#include <gnuradio/math.h>
#include <type_traits>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {

namespace {

//! Inputs per GPU transfer. batch_size counts input samples where rate <= 1 and
//! output samples above it, so that a high rate does not multiply the output buffers
//! (GNU Radio's, whose output multiple is a batch's outputs, and the GPU's).
int per_input_batch(int batch_size, float rate)
{
    if (rate <= 1.0f)
        return batch_size;
    return std::max(1, static_cast<int>(batch_size / std::ceil(rate)));
}

//! `x` as an int, saturated: forecast() and general_work() count inputs for as many
//! outputs as the scheduler offers, which at low rates exceeds an int.
int saturated_int(double x)
{
    constexpr double most = std::numeric_limits<int>::max();
    return x >= most ? std::numeric_limits<int>::max() : static_cast<int>(x);
}

//! The nominal rate as a fraction, for the batch size in output items only.
block_rate nominal_rate(float rate)
{
    constexpr std::uint64_t den = 4096;
    const double num = std::max(1.0, std::round(static_cast<double>(rate) * den));
    return { static_cast<std::uint64_t>(std::min(num, 1e12)), den };
}

//! A tap as gr-filter's print_taps writes it.
void print_tap(float t) { std::printf(" %.4e", t); }
void print_tap(const gr_complex& t) { std::printf(" %.4e%+.4ej", t.real(), t.imag()); }

} // namespace

template <class IO_T, class TAP_T>
typename pfb_arb_resampler<IO_T, TAP_T>::sptr
pfb_arb_resampler<IO_T, TAP_T>::make(float rate,
                                     const std::vector<TAP_T>& taps,
                                     unsigned int filter_size,
                                     int device,
                                     int batch_size,
                                     double max_latency)
{
    return gnuradio::make_block_sptr<pfb_arb_resampler_impl<IO_T, TAP_T>>(
        rate, taps, filter_size, device, batch_size, max_latency);
}

template <class IO_T, class TAP_T>
pfb_arb_resampler_impl<IO_T, TAP_T>::pfb_arb_resampler_impl(
    float rate,
    const std::vector<TAP_T>& taps,
    unsigned filter_size,
    int device,
    int batch_size,
    double max_latency)
    : gr::block(std::string("gpu_pfb_arb_resampler_") + type_suffix<IO_T, IO_T, TAP_T>(),
                gr::io_signature::make(1, 1, sizeof(IO_T)),
                gr::io_signature::make(1, 1, sizeof(IO_T))),
      gpu_block<pfb_arb_resampler<IO_T, TAP_T>, cuda::pfb_arb_resampler_controls>(
          device,
          nominal_rate(checked_rate(rate)),
          per_input_batch(checked_batch_size(batch_size), rate),
          max_latency,
          pfb_arb_resampler_computation<IO_T, TAP_T>(
              rate, checked_taps(taps), checked_count("filter_size", filter_size))),
      d_nfilts(filter_size),
      d_taps(taps),
      d_rate(cuda::arb_rate::make(rate, filter_size))
{
    const unsigned T = taps_per_filter();
    this->set_history(T);
    this->set_relative_rate(rate);
    if (rate >= 1.0f) // gr-filter's output_multiple
        this->d_core.set_output_multiple(
            std::max<int>(static_cast<int>(rate), static_cast<int>(filter_size)));

    // gr-filter's group delay and phase estimate, in its arithmetic, from the
    // construction's rate, taps and first arm.
    const unsigned last_filter = (taps.size() / 2) % filter_size;
    const float delay = rate * (T - 1.0) / 2.0;
    d_delay = static_cast<int>(std::lround(delay));
    const float accum = d_delay * d_rate.flt_rate;
    const int accum_int = static_cast<int>(accum);
    const float accum_frac = accum - accum_int;
    const int end_filter = static_cast<int>(
        std::lround(fmodf(last_filter + d_delay * d_rate.dec_rate + accum_int,
                          static_cast<float>(filter_size))));
    d_est_phase_change = last_filter - (end_filter + accum_frac);
}

template <class IO_T, class TAP_T>
void pfb_arb_resampler_impl<IO_T, TAP_T>::set_taps(const std::vector<TAP_T>& taps)
{
    checked_taps(taps);
    gr::thread::scoped_lock lock(this->d_setlock);
    d_taps = taps;
    if constexpr (std::is_same_v<TAP_T, gr_complex>)
        this->controls().set_complex_taps(taps);
    else
        this->controls().set_taps(taps);
    this->set_history(taps_per_filter()); // as gr-filter's set_taps
    d_updated = true;
}

template <class IO_T, class TAP_T>
std::vector<std::vector<TAP_T>> pfb_arb_resampler_impl<IO_T, TAP_T>::taps() const
{
    return polyphase_split(d_nfilts, d_taps);
}

template <class IO_T, class TAP_T>
void pfb_arb_resampler_impl<IO_T, TAP_T>::print_taps()
{
    const auto arms = taps();
    for (unsigned i = 0; i < arms.size(); ++i) {
        std::printf("filter[%u]: [", i);
        for (const TAP_T& t : arms[i])
            print_tap(t);
        std::printf("]\n");
    }
}

template <class IO_T, class TAP_T>
unsigned int pfb_arb_resampler_impl<IO_T, TAP_T>::taps_per_filter() const
{
    return gpufilter::taps_per_filter(d_nfilts, d_taps);
}

template <class IO_T, class TAP_T>
void pfb_arb_resampler_impl<IO_T, TAP_T>::set_rate(float rate)
{
    checked_rate(rate);
    gr::thread::scoped_lock lock(this->d_setlock);
    this->controls().set_rate(rate);
    d_rate = cuda::arb_rate::make(rate, d_nfilts);
    this->set_relative_rate(rate);
}

template <class IO_T, class TAP_T>
void pfb_arb_resampler_impl<IO_T, TAP_T>::set_phase(float ph)
{
    checked_phase(ph);
    gr::thread::scoped_lock lock(this->d_setlock);
    this->controls().set_phase(ph);
}

template <class IO_T, class TAP_T>
float pfb_arb_resampler_impl<IO_T, TAP_T>::phase() const
{
    const float ph_diff = 2.0 * GR_M_PI / static_cast<float>(d_nfilts);
    return this->controls().filter() * ph_diff;
}

template <class IO_T, class TAP_T>
float pfb_arb_resampler_impl<IO_T, TAP_T>::phase_offset(float freq, float fs)
{
    const float adj = (2.0 * GR_M_PI) * (freq / fs) / static_cast<float>(d_nfilts);
    return -adj * d_est_phase_change;
}

template <class IO_T, class TAP_T>
bool pfb_arb_resampler_impl<IO_T, TAP_T>::start()
{
    // A (re)started stream: the next output is at the first new sample, as in
    // gr-filter, whose kernel keeps its arm and fraction.
    this->controls().clear_skip();
    return gpu_block<pfb_arb_resampler<IO_T, TAP_T>,
                     cuda::pfb_arb_resampler_controls>::start();
}

template <class IO_T, class TAP_T>
void pfb_arb_resampler_impl<IO_T, TAP_T>::forecast(int noutput_items,
                                                   gr_vector_int& ninput_items_required)
{
    // gr-filter's rule, counted from the next output's position, which is skip()
    // samples past the unconsumed ones; a whole batch while upstream runs.
    const double rr = this->relative_rate();
    const int hist = static_cast<int>(this->history()) - 1;
    const int gr_needed = noutput_items / rr < 1
                              ? saturated_int(rr + hist)
                              : saturated_int(noutput_items / rr + hist);
    const auto skip = static_cast<int>(this->controls().skip());
    const int wanted = std::max(saturated_int(static_cast<double>(gr_needed) + skip),
                                this->d_core.batch_input_items());
    std::fill(ninput_items_required.begin(), ninput_items_required.end(), wanted);
}

template <class IO_T, class TAP_T>
int pfb_arb_resampler_impl<IO_T, TAP_T>::general_work(
    int noutput_items,
    gr_vector_int& ninput_items,
    gr_vector_const_void_star& input_items,
    gr_vector_void_star& output_items)
{
    gr::thread::scoped_lock lock(this->d_setlock);
    if (d_updated) {
        d_updated = false;
        this->d_core.history_changed();
        return 0; // the history requirement changed: let the scheduler re-window
    }
    block_core& core = this->d_core;
    // gr-filter's call: the outputs at the next floor(noutput / rate) positions.
    // In float as gr-filter's floorf, but saturated where that would overflow an int.
    const double wanted = noutput_items / this->relative_rate();
    const int nitems = saturated_int(floorf(static_cast<float>(std::min(wanted, 1e18))));
    const long avail = ninput_items[0] - (static_cast<long>(this->history()) - 1);
    if (avail <= 0)
        return 0;
    std::size_t n =
        this->controls().skip() + static_cast<std::size_t>(std::max(nitems, 0));
    n = std::min(n, static_cast<std::size_t>(avail));
    // Never more outputs than there is room for (gr-filter's kernel does not check).
    if (this->controls().output_count(n) > static_cast<std::size_t>(noutput_items))
        n = this->controls().inputs_for(static_cast<std::size_t>(noutput_items));
    // Through the samples the resampler steps over after its last output, as
    // gr-filter consumes (their tags move on with them), but never past the input.
    n = std::min(this->controls().next_position(n), static_cast<std::size_t>(avail));
    const int produced = core.process(input_items, n, output_items);
    if (produced < 0)
        return produced; // WORK_DONE: the GPU failed (logged)
    this->consume_each(static_cast<int>(n));
    return produced;
}

template class pfb_arb_resampler<gr_complex>;
template class pfb_arb_resampler<float>;
template class pfb_arb_resampler<gr_complex, gr_complex>;
template class pfb_arb_resampler_impl<gr_complex>;
template class pfb_arb_resampler_impl<float>;
template class pfb_arb_resampler_impl<gr_complex, gr_complex>;

} // namespace gpufilter
} // namespace gr
