/* SPDX-License-Identifier: GPL-3.0-or-later */

/***********************************************************************************/
/* Written by hand; the hash below is checked at build time so that a change to   */
/* the header without a matching change here fails the build.                      */
/* BINDTOOL_GEN_AUTOMATIC(0)                                                       */
/* BINDTOOL_USE_PYGCCXML(0)                                                        */
/* BINDTOOL_HEADER_FILE(pfb_interpolator_ccf.h) */
/* BINDTOOL_HEADER_FILE_HASH(cd55e786fcffa534175abf68899f81f6) */
/***********************************************************************************/

#include <pybind11/complex.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <stdexcept>
#include <string>

namespace py = pybind11;

#include <gnuradio/gpufilter/pfb_interpolator_ccf.h>
// pydoc.h is automatically generated in the build directory
#include <pfb_interpolator_ccf_pydoc.h>

#include "checked_args.h"

using namespace gr::gpufilter::bindings;

void bind_pfb_interpolator_ccf(py::module& m)
{
    using gr::gpufilter::pfb_interpolator_ccf;

    py::class_<pfb_interpolator_ccf,
               gr::sync_interpolator,
               gr::sync_block,
               gr::block,
               gr::basic_block,
               gr::gpufilter::gpu_options,
               std::shared_ptr<pfb_interpolator_ccf>>
        cls(m, "pfb_interpolator_ccf", D(pfb_interpolator_ccf));
    def_init(cls,
             &pfb_interpolator_ccf::make,
             py::arg("interp"),
             py::arg("taps"),
             py::arg("device") = gr::gpufilter::device_auto,
             py::arg("batch_size") = gr::gpufilter::default_batch_size,
             py::arg("max_latency") = gr::gpufilter::default_max_latency,
             D(pfb_interpolator_ccf, make))
        .def("set_taps",
             &pfb_interpolator_ccf::set_taps,
             py::arg("taps"),
             D(pfb_interpolator_ccf, set_taps))
        .def("taps", &pfb_interpolator_ccf::taps, D(pfb_interpolator_ccf, taps));
}
