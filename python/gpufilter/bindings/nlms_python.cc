/* SPDX-License-Identifier: GPL-3.0-or-later */

/***********************************************************************************/
/* Written by hand; the hash below is checked at build time so that a change to   */
/* the header without a matching change here fails the build.                      */
/* BINDTOOL_GEN_AUTOMATIC(0)                                                       */
/* BINDTOOL_USE_PYGCCXML(0)                                                        */
/* BINDTOOL_HEADER_FILE(nlms.h)                                                    */
/* BINDTOOL_HEADER_FILE_HASH(9b4f9110c30f220c358d9660d345baa3) */
/***********************************************************************************/

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "checked_args.h"
using namespace gr::gpufilter::bindings;

#include <gnuradio/gpufilter/nlms.h>
// pydoc.h is automatically generated in the build directory
#include <nlms_pydoc.h>

namespace {
using f32_array = py::array_t<float, py::array::c_style | py::array::forcecast>;

//! x, d: (filters, samples) or (samples,); mu: a number or one per filter.
py::tuple nlms_batch_py(
    py::object x_in, py::object d_in, int ntaps, py::object mu_in, double eps, int device)
{
    const auto x = f32_array::ensure(x_in);
    const auto d = f32_array::ensure(d_in);
    if (!x)
        throw py::value_error("x: must be an array of numbers");
    if (!d)
        throw py::value_error("d: must be an array of numbers");
    if (x.ndim() != 1 && x.ndim() != 2)
        throw py::value_error(
            "x: must have shape (filters, samples) or (samples,), got " +
            std::to_string(x.ndim()) + " dimensions");
    bool same = x.ndim() == d.ndim();
    for (py::ssize_t i = 0; same && i < x.ndim(); ++i)
        same = x.shape(i) == d.shape(i);
    if (!same)
        throw py::value_error("d: must have the shape of x");
    const std::size_t nf = x.ndim() == 2 ? x.shape(0) : 1;
    const std::size_t ns = x.ndim() == 2 ? x.shape(1) : x.shape(0);
    const auto mu_arr =
        py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(mu_in);
    if (!mu_arr || mu_arr.ndim() > 1)
        throw py::value_error("mu: must be a number or a 1-D array, one per filter");
    std::vector<float> mu(mu_arr.data(), mu_arr.data() + mu_arr.size());
    if (mu_arr.ndim() == 1 && mu.size() != nf)
        throw py::value_error("mu: must have one value per filter (" +
                              std::to_string(nf) + "), got " + std::to_string(mu.size()));
    if (ntaps < 1 || ntaps > gr::gpufilter::nlms_max_taps) // before allocating taps
        throw py::value_error("ntaps: must be in [1, " +
                              std::to_string(gr::gpufilter::nlms_max_taps) + "], got " +
                              std::to_string(ntaps));
    f32_array e(x.ndim() == 2
                    ? std::vector<py::ssize_t>{ py::ssize_t(nf), py::ssize_t(ns) }
                    : std::vector<py::ssize_t>{ py::ssize_t(ns) });
    f32_array taps(x.ndim() == 2
                       ? std::vector<py::ssize_t>{ py::ssize_t(nf), py::ssize_t(ntaps) }
                       : std::vector<py::ssize_t>{ py::ssize_t(ntaps) });
    const float* xp = x.data();
    const float* dp = d.data();
    float* ep = e.mutable_data();
    float* tp = taps.mutable_data();
    {
        py::gil_scoped_release release;
        gr::gpufilter::nlms_batch(xp, dp, nf, ns, ntaps, mu, eps, ep, tp, device);
    }
    return py::make_tuple(e, taps);
}
} // namespace

void bind_nlms(py::module& m)
{
    m.attr("nlms_default_eps") = gr::gpufilter::nlms_default_eps;
    m.attr("nlms_max_taps") = gr::gpufilter::nlms_max_taps;
    def_function(m,
                 "nlms_batch",
                 &nlms_batch_py,
                 py::arg("x"),
                 py::arg("d"),
                 py::arg("ntaps"),
                 py::arg("mu"),
                 py::arg("eps") = gr::gpufilter::nlms_default_eps,
                 py::arg("device") = gr::gpufilter::device_auto,
                 D(nlms_batch));
}
