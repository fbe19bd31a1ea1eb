/* SPDX-License-Identifier: GPL-3.0-or-later */

/***********************************************************************************/
/* Written by hand; the hash below is checked at build time so that a change to   */
/* the header without a matching change here fails the build.                      */
/* BINDTOOL_GEN_AUTOMATIC(0)                                                       */
/* BINDTOOL_USE_PYGCCXML(0)                                                        */
/* BINDTOOL_HEADER_FILE(quadrature_demod_cf.h)                                     */
/* BINDTOOL_HEADER_FILE_HASH(4dbae35f9ce48f28736a2b138000f087) */
/***********************************************************************************/

#include <pybind11/pybind11.h>

namespace py = pybind11;

#include "checked_args.h"
using namespace gr::gpufilter::bindings;

#include <gnuradio/gpufilter/quadrature_demod_cf.h>
// pydoc.h is automatically generated in the build directory
#include <quadrature_demod_cf_pydoc.h>

void bind_quadrature_demod_cf(py::module& m)
{
    using gr::gpufilter::quadrature_demod_cf;

    py::class_<quadrature_demod_cf,
               gr::sync_block,
               gr::block,
               gr::basic_block,
               gr::gpufilter::gpu_options,
               std::shared_ptr<quadrature_demod_cf>>
        cls(m, "quadrature_demod_cf", D(quadrature_demod_cf));
    def_init(cls,
             &quadrature_demod_cf::make,
             py::arg("gain"),
             py::arg("device") = gr::gpufilter::device_auto,
             py::arg("batch_size") = gr::gpufilter::default_batch_size,
             py::arg("max_latency") = gr::gpufilter::default_max_latency,
             D(quadrature_demod_cf, make))
        .def("set_gain",
             &quadrature_demod_cf::set_gain,
             py::arg("gain"),
             D(quadrature_demod_cf, set_gain))
        .def("gain", &quadrature_demod_cf::gain, D(quadrature_demod_cf, gain));
}
