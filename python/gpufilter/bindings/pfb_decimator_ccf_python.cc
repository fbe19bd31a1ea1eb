/* SPDX-License-Identifier: GPL-3.0-or-later */

/***********************************************************************************/
/* Written by hand; the hash below is checked at build time so that a change to   */
/* the header without a matching change here fails the build.                      */
/* BINDTOOL_GEN_AUTOMATIC(0)                                                       */
/* BINDTOOL_USE_PYGCCXML(0)                                                        */
/* BINDTOOL_HEADER_FILE(pfb_decimator_ccf.h) */
/* BINDTOOL_HEADER_FILE_HASH(3381d5682dcfd17dda0c5a40fa9dd985) */
/***********************************************************************************/

#include <pybind11/complex.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <stdexcept>
#include <string>

namespace py = pybind11;

#include <gnuradio/gpufilter/pfb_decimator_ccf.h>
// pydoc.h is automatically generated in the build directory
#include <pfb_decimator_ccf_pydoc.h>

#include "checked_args.h"

using namespace gr::gpufilter::bindings;

void bind_pfb_decimator_ccf(py::module& m)
{
    using gr::gpufilter::pfb_decimator_ccf;

    py::class_<pfb_decimator_ccf,
               gr::sync_decimator,
               gr::sync_block,
               gr::block,
               gr::basic_block,
               gr::gpufilter::gpu_options,
               std::shared_ptr<pfb_decimator_ccf>>
        cls(m, "pfb_decimator_ccf", D(pfb_decimator_ccf));
    def_init(cls,
             &pfb_decimator_ccf::make,
             py::arg("decim"),
             py::arg("taps"),
             py::arg("channel"),
             py::arg("use_fft_rotator") = true,
             py::arg("use_fft_filters") = true,
             py::arg("device") = gr::gpufilter::device_auto,
             py::arg("batch_size") = gr::gpufilter::default_batch_size,
             py::arg("max_latency") = gr::gpufilter::default_max_latency,
             D(pfb_decimator_ccf, make))
        .def("set_taps",
             &pfb_decimator_ccf::set_taps,
             py::arg("taps"),
             D(pfb_decimator_ccf, set_taps))
        .def("taps", &pfb_decimator_ccf::taps, D(pfb_decimator_ccf, taps));
    def_method(cls,
               "set_channel",
               &pfb_decimator_ccf::set_channel,
               py::arg("channel"),
               D(pfb_decimator_ccf, set_channel))
        .def("channel", &pfb_decimator_ccf::channel, D(pfb_decimator_ccf, channel));
}
