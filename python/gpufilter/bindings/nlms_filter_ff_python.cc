/* SPDX-License-Identifier: GPL-3.0-or-later */

/***********************************************************************************/
/* Written by hand; the hash below is checked at build time so that a change to   */
/* the header without a matching change here fails the build.                      */
/* BINDTOOL_GEN_AUTOMATIC(0)                                                       */
/* BINDTOOL_USE_PYGCCXML(0)                                                        */
/* BINDTOOL_HEADER_FILE(nlms_filter_ff.h)                                          */
/* BINDTOOL_HEADER_FILE_HASH(15e136db05ff14c9142a3ed8d5d7e0ac) */
/***********************************************************************************/

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "checked_args.h"
using namespace gr::gpufilter::bindings;

#include <gnuradio/gpufilter/nlms_filter_ff.h>
// pydoc.h is automatically generated in the build directory
#include <nlms_filter_ff_pydoc.h>

void bind_nlms_filter_ff(py::module& m)
{
    using gr::gpufilter::nlms_filter_ff;

    py::class_<nlms_filter_ff,
               gr::sync_block,
               gr::block,
               gr::basic_block,
               gr::gpufilter::gpu_options,
               std::shared_ptr<nlms_filter_ff>>
        cls(m, "nlms_filter_ff", D(nlms_filter_ff));
    def_init(cls,
             &nlms_filter_ff::make,
             py::arg("ntaps"),
             py::arg("mu"),
             py::arg("nfilters") = 1,
             py::arg("eps") = gr::gpufilter::nlms_default_eps,
             py::arg("device") = gr::gpufilter::device_auto,
             py::arg("batch_size") = gr::gpufilter::default_batch_size,
             py::arg("max_latency") = gr::gpufilter::default_max_latency,
             D(nlms_filter_ff, make))
        .def("set_mu", &nlms_filter_ff::set_mu, py::arg("mu"), D(nlms_filter_ff, set_mu))
        .def("mu", &nlms_filter_ff::mu, D(nlms_filter_ff, mu));
    def_method(
        cls, "taps", &nlms_filter_ff::taps, py::arg("k") = 0, D(nlms_filter_ff, taps));
    def_method(cls,
               "set_taps",
               &nlms_filter_ff::set_taps,
               py::arg("taps"),
               py::arg("k") = 0,
               D(nlms_filter_ff, set_taps))
        .def("reset", &nlms_filter_ff::reset, D(nlms_filter_ff, reset))
        .def("ntaps", &nlms_filter_ff::ntaps, D(nlms_filter_ff, ntaps))
        .def("nfilters", &nlms_filter_ff::nfilters, D(nlms_filter_ff, nfilters))
        .def("eps", &nlms_filter_ff::eps, D(nlms_filter_ff, eps));
}
