/* SPDX-License-Identifier: GPL-3.0-or-later */

/***********************************************************************************/
/* Written by hand; the hash below is checked at build time so that a change to   */
/* the header without a matching change here fails the build.                      */
/* BINDTOOL_GEN_AUTOMATIC(0)                                                       */
/* BINDTOOL_USE_PYGCCXML(0)                                                        */
/* BINDTOOL_HEADER_FILE(hilbert_fc.h)                                              */
/* BINDTOOL_HEADER_FILE_HASH(47b2135d19a85a903d1a0a886ccf26fc) */
/***********************************************************************************/

#include <pybind11/complex.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "checked_args.h"
using namespace gr::gpufilter::bindings;

#include <gnuradio/gpufilter/hilbert_fc.h>
// pydoc.h is automatically generated in the build directory
#include <hilbert_fc_pydoc.h>

void bind_hilbert_fc(py::module& m)
{
    using gr::gpufilter::hilbert_fc;

    // The window default needs gnuradio.fft's win_type, imported by the module init.
    py::class_<hilbert_fc,
               gr::sync_block,
               gr::block,
               gr::basic_block,
               gr::gpufilter::gpu_options,
               std::shared_ptr<hilbert_fc>>
        cls(m, "hilbert_fc", D(hilbert_fc));
    def_init(cls,
             &hilbert_fc::make,
             py::arg("ntaps"),
             py::arg("window") = gr::fft::window::win_type::WIN_HAMMING,
             py::arg("param") = 6.76,
             py::arg("device") = gr::gpufilter::device_auto,
             py::arg("batch_size") = gr::gpufilter::default_batch_size,
             py::arg("max_latency") = gr::gpufilter::default_max_latency,
             D(hilbert_fc, make))
        .def("taps", &hilbert_fc::taps, D(hilbert_fc, taps));
}
