/* SPDX-License-Identifier: GPL-3.0-or-later */

/***********************************************************************************/
/* Written by hand; the hash below is checked at build time so that a change to   */
/* the header without a matching change here fails the build.                      */
/* BINDTOOL_GEN_AUTOMATIC(0)                                                       */
/* BINDTOOL_USE_PYGCCXML(0)                                                        */
/* BINDTOOL_HEADER_FILE(pfb_channelizer_vcf.h) */
/* BINDTOOL_HEADER_FILE_HASH(b6d0430993761dfdace568b96679d273) */
/***********************************************************************************/

#include <pybind11/complex.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <stdexcept>
#include <string>

namespace py = pybind11;

#include <gnuradio/gpufilter/pfb_channelizer_vcf.h>
// pydoc.h is automatically generated in the build directory
#include <pfb_channelizer_vcf_pydoc.h>

#include "checked_args.h"

using namespace gr::gpufilter::bindings;

void bind_pfb_channelizer_vcf(py::module& m)
{
    using gr::gpufilter::pfb_channelizer_vcf;

    py::class_<pfb_channelizer_vcf,
               gr::sync_decimator,
               gr::sync_block,
               gr::block,
               gr::basic_block,
               gr::gpufilter::gpu_options,
               std::shared_ptr<pfb_channelizer_vcf>>
        cls(m, "pfb_channelizer_vcf", D(pfb_channelizer_vcf));
    def_init(cls,
             &pfb_channelizer_vcf::make,
             py::arg("numchans"),
             py::arg("taps"),
             py::arg("oversample_rate") = 1.0f,
             py::arg("input_format") = "complex",
             py::arg("device") = gr::gpufilter::device_auto,
             py::arg("batch_size") = gr::gpufilter::default_batch_size,
             py::arg("max_latency") = gr::gpufilter::default_max_latency,
             D(pfb_channelizer_vcf, make))
        .def("set_taps",
             &pfb_channelizer_vcf::set_taps,
             py::arg("taps"),
             D(pfb_channelizer_vcf, set_taps))
        .def("taps", &pfb_channelizer_vcf::taps, D(pfb_channelizer_vcf, taps))
        .def("input_format",
             &pfb_channelizer_vcf::input_format,
             D(pfb_channelizer_vcf, input_format));
}
