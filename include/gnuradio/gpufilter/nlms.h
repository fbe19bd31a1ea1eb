/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_NLMS_H
#define INCLUDED_GPUFILTER_NLMS_H

#include <gnuradio/gpufilter/api.h>
#include <gnuradio/gpufilter/device.h>
#include <cstddef>
#include <vector>

namespace gr {
namespace gpufilter {

//! The NLMS regulariser eps when none is given (nlms_filter_ff, nlms_batch): far below
//! x.x of a usable signal (ntaps samples of power P give ~ntaps P), yet enough that a
//! window of zeros gives a zero step instead of 0/0.
constexpr double nlms_default_eps = 1e-6;
//! Most taps of an NLMS filter (each tap is held in a register on the GPU).
constexpr int nlms_max_taps = 8192;

/*!
 * \brief Runs nfilters independent NLMS filters over whole signals, for simulations
 * (ensembles, parameter sweeps): the algorithm of nlms_filter_ff, zero initial taps.
 * \ingroup gpufilter
 *
 * x, d and errors are nfilters rows of nsamples floats (row k at k * nsamples);
 * final_taps gets nfilters rows of ntaps taps. mu: one value for all filters or one
 * per filter. On a GPU the filters run at once, sent in groups and chunks of samples
 * that bound the device memory; without a usable device (device_auto), or with
 * device_cpu, on the CPU. Throws std::invalid_argument naming the parameter for
 * ntaps outside [1, nlms_max_taps], a mu outside (0, 2] (NLMS diverges beyond 2), the
 * wrong number of mu values, or an eps that is not finite and > 0; std::out_of_range for
 * a device that does not exist. Returns the device used (an index, or device_cpu).
 */
GPUFILTER_API int nlms_batch(const float* x,
                             const float* d,
                             std::size_t nfilters,
                             std::size_t nsamples,
                             int ntaps,
                             const std::vector<float>& mu,
                             double eps,
                             float* errors,
                             float* final_taps,
                             int device = device_auto);

} // namespace gpufilter
} // namespace gr

#endif /* INCLUDED_GPUFILTER_NLMS_H */
