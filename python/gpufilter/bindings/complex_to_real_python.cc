/* SPDX-License-Identifier: GPL-3.0-or-later */

/***********************************************************************************/
/* Written by hand; the hash below is checked at build time so that a change to   */
/* the header without a matching change here fails the build.                      */
/* BINDTOOL_GEN_AUTOMATIC(0)                                                       */
/* BINDTOOL_USE_PYGCCXML(0)                                                        */
/* BINDTOOL_HEADER_FILE(complex_to_real.h)                                         */
/* BINDTOOL_HEADER_FILE_HASH(86defa4bd12df6f9ed2a988c180e05a5) */
/***********************************************************************************/

#include <pybind11/pybind11.h>

namespace py = pybind11;

#include "checked_args.h"
using namespace gr::gpufilter::bindings;

#include <gnuradio/gpufilter/complex_to_real.h>
// pydoc.h is automatically generated in the build directory
#include <complex_to_real_pydoc.h>

void bind_complex_to_real(py::module& m)
{
    using gr::gpufilter::complex_to_real;

    py::class_<complex_to_real,
               gr::sync_block,
               gr::block,
               gr::basic_block,
               gr::gpufilter::gpu_options,
               std::shared_ptr<complex_to_real>>
        cls(m, "complex_to_real", D(complex_to_real));
    def_init(cls,
             &complex_to_real::make,
             py::arg("vlen") = 1,
             py::arg("device") = gr::gpufilter::device_auto,
             py::arg("batch_size") = gr::gpufilter::default_batch_size,
             py::arg("max_latency") = gr::gpufilter::default_max_latency,
             D(complex_to_real, make))
        .def("vlen", &complex_to_real::vlen, D(complex_to_real, vlen));
}
