/* SPDX-License-Identifier: GPL-3.0-or-later */

/***********************************************************************************/
/* Written by hand; the hash below is checked at build time so that a change to   */
/* the header without a matching change here fails the build.                      */
/* BINDTOOL_GEN_AUTOMATIC(0)                                                       */
/* BINDTOOL_USE_PYGCCXML(0)                                                        */
/* BINDTOOL_HEADER_FILE(pfb_channelizer_ccf.h) */
/* BINDTOOL_HEADER_FILE_HASH(df7de72438e5045490b6a2b1dd3b3474) */
/***********************************************************************************/

#include <pybind11/complex.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <stdexcept>
#include <string>

namespace py = pybind11;

#include <gnuradio/gpufilter/pfb_channelizer_ccf.h>
// pydoc.h is automatically generated in the build directory
#include <pfb_channelizer_ccf_pydoc.h>

#include "checked_args.h"

using namespace gr::gpufilter::bindings;

void bind_pfb_channelizer_ccf(py::module& m)
{
    using gr::gpufilter::pfb_channelizer_ccf;

    py::class_<pfb_channelizer_ccf,
               gr::sync_decimator,
               gr::sync_block,
               gr::block,
               gr::basic_block,
               gr::gpufilter::gpu_options,
               std::shared_ptr<pfb_channelizer_ccf>>
        cls(m, "pfb_channelizer_ccf", D(pfb_channelizer_ccf));
    def_init(cls,
             &pfb_channelizer_ccf::make,
             py::arg("numchans"),
             py::arg("taps"),
             py::arg("oversample_rate") = 1.0f,
             py::arg("device") = gr::gpufilter::device_auto,
             py::arg("batch_size") = gr::gpufilter::default_batch_size,
             py::arg("max_latency") = gr::gpufilter::default_max_latency,
             D(pfb_channelizer_ccf, make))
        .def("set_taps",
             &pfb_channelizer_ccf::set_taps,
             py::arg("taps"),
             D(pfb_channelizer_ccf, set_taps))
        .def("taps", &pfb_channelizer_ccf::taps, D(pfb_channelizer_ccf, taps));
    def_method(cls,
               "set_channel_map",
               &pfb_channelizer_ccf::set_channel_map,
               py::arg("map"),
               D(pfb_channelizer_ccf, set_channel_map))
        .def("channel_map",
             &pfb_channelizer_ccf::channel_map,
             D(pfb_channelizer_ccf, channel_map));
}
