/* SPDX-License-Identifier: GPL-3.0-or-later */

/***********************************************************************************/
/* BINDTOOL_GEN_AUTOMATIC(0)                                                       */
/* BINDTOOL_USE_PYGCCXML(0)                                                        */
/* BINDTOOL_HEADER_FILE(filter_method.h)                                           */
/* BINDTOOL_HEADER_FILE_HASH(e513076f35a14f3c779cfc30cc31f109) */
/***********************************************************************************/

#include <pybind11/pybind11.h>

namespace py = pybind11;

#include <gnuradio/gpufilter/filter_method.h>
// pydoc.h is automatically generated in the build directory
#include <filter_method_pydoc.h>

void bind_filter_method(py::module& m)
{
    using gr::gpufilter::filter_method;
    py::enum_<filter_method>(m, "filter_method", D(filter_method))
        .value("automatic", filter_method::automatic)
        .value("direct", filter_method::direct)
        .value("fft", filter_method::fft)
        .value("separable", filter_method::separable);
    m.def("parse_filter_method",
          &gr::gpufilter::parse_filter_method,
          py::arg("name"),
          D(parse_filter_method));
    m.def("set_default_filter_method",
          &gr::gpufilter::set_default_filter_method,
          py::arg("method"),
          D(set_default_filter_method));
    m.def("get_default_filter_method",
          &gr::gpufilter::get_default_filter_method,
          D(get_default_filter_method));
}
