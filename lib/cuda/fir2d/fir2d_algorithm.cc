/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/sample_types.h"
#include "fir2d_algorithm.h"
#include "fir2d_direct_engine.h"
#include "fir2d_fft_engine.h"
#include "fir2d_separable_engine.h"
#include "fir2d_tuning.h"
#include "kernel_separation.h"
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {
namespace cuda {

const char* fir2d_method_name(fir2d_method m)
{
    switch (m) {
    case fir2d_method::direct:
        return "direct";
    case fir2d_method::separable:
        return "separable";
    case fir2d_method::fft:
        return "fft";
    default:
        return "auto";
    }
}


template <class T, class Tap>
std::unique_ptr<fir2d_algorithm<T, Tap>>
make_fir2d_algorithm(const kernel2d<Tap>& k, fir2d_method method, const fir2d_limits& lim)
{
    if (method == fir2d_method::direct)
        return std::make_unique<fir2d_direct_engine<T, Tap>>(k);
    if (method == fir2d_method::fft)
        return std::make_unique<fir2d_fft_engine<T, Tap>>(k, lim);
    // Separable when asked runs every term the kernel needs, up to
    // fir2d_max_forced_terms; automatic takes it only for a few terms.
    const bool forced = method == fir2d_method::separable;
    const auto parts =
        separate_kernel(k, forced ? fir2d_max_forced_terms : fir2d_max_separable_terms);
    const int terms = static_cast<int>(parts.terms.size());
    if (forced)
        check_separable_terms(terms, k.rows, k.cols);
    if (method == fir2d_method::automatic)
        method = choose_fir2d_method(k.rows, k.cols, terms, lim.in_width);
    switch (method) {
    case fir2d_method::separable:
        return std::make_unique<fir2d_separable_engine<T, Tap>>(parts, lim);
    case fir2d_method::fft:
        return std::make_unique<fir2d_fft_engine<T, Tap>>(k, lim);
    default:
        return std::make_unique<fir2d_direct_engine<T, Tap>>(k);
    }
}

template std::unique_ptr<fir2d_algorithm<float, float>>
make_fir2d_algorithm<float, float>(const kernel2d<float>&,
                                   fir2d_method,
                                   const fir2d_limits&);
template std::unique_ptr<fir2d_algorithm<complex, float>>
make_fir2d_algorithm<complex, float>(const kernel2d<float>&,
                                     fir2d_method,
                                     const fir2d_limits&);
template std::unique_ptr<fir2d_algorithm<complex, complex>>
make_fir2d_algorithm<complex, complex>(const kernel2d<complex>&,
                                       fir2d_method,
                                       const fir2d_limits&);

} // namespace cuda
} // namespace gpufilter
} // namespace gr
