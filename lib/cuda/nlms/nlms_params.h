/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_NLMS_PARAMS_H
#define INCLUDED_GPUFILTER_CUDA_NLMS_PARAMS_H

// The NLMS parameters' rules, shared by the engine, the blocks' CPU fallback and the
// batch API. No CUDA types. Each check throws std::invalid_argument naming the
// parameter and its value (Python: ValueError).

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

inline int checked_nlms_ntaps(int ntaps, int most)
{
    if (ntaps < 1 || ntaps > most)
        throw std::invalid_argument("ntaps: must be in [1, " + std::to_string(most) +
                                    "], got " + std::to_string(ntaps));
    return ntaps;
}

inline int checked_nlms_nfilters(int nfilters)
{
    if (nfilters < 1)
        throw std::invalid_argument("nfilters: must be >= 1, got " +
                                    std::to_string(nfilters));
    return nfilters;
}

//! Most step size: NLMS converges in the mean square for 0 < mu < 2 (mu = 2 keeps the
//! error from growing), and diverges beyond it.
constexpr double nlms_max_mu = 2.0;

inline float checked_nlms_mu(double mu)
{
    if (!(mu > 0.0) || !(mu <= nlms_max_mu))
        throw std::invalid_argument(
            "mu: must be in (0, 2] (NLMS diverges beyond 2), got " + std::to_string(mu));
    return static_cast<float>(mu);
}

//! mu: one value for every filter, or one per filter.
inline std::vector<float> checked_nlms_mus(const std::vector<float>& mu, int nfilters)
{
    if (mu.size() != 1 && mu.size() != static_cast<std::size_t>(nfilters))
        throw std::invalid_argument(
            "mu: must have 1 or nfilters = " + std::to_string(nfilters) +
            " values, got " + std::to_string(mu.size()));
    std::vector<float> out(nfilters);
    for (int k = 0; k < nfilters; ++k)
        out[k] = checked_nlms_mu(mu[mu.size() == 1 ? 0 : k]);
    return out;
}

inline float checked_nlms_eps(double eps)
{
    if (!(eps > 0.0) || !std::isfinite(eps) || !(static_cast<float>(eps) > 0.0f))
        throw std::invalid_argument("eps: must be a finite number > 0, got " +
                                    std::to_string(eps));
    return static_cast<float>(eps);
}

//! A filter's index k (set_taps, taps): in [0, nfilters); std::out_of_range naming k.
inline int checked_nlms_filter(int k, int nfilters)
{
    if (k < 0 || k >= nfilters)
        throw std::out_of_range("k: must be in [0, " + std::to_string(nfilters) +
                                "), got " + std::to_string(k));
    return k;
}

//! One filter's new taps: exactly ntaps values.
inline const std::vector<float>& checked_nlms_taps(const std::vector<float>& taps,
                                                   int ntaps)
{
    if (taps.size() != static_cast<std::size_t>(ntaps))
        throw std::invalid_argument("taps: must have ntaps = " + std::to_string(ntaps) +
                                    " values, got " + std::to_string(taps.size()));
    return taps;
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
