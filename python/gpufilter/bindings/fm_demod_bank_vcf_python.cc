/* SPDX-License-Identifier: GPL-3.0-or-later */

/***********************************************************************************/
/* Written by hand; the hash below is checked at build time so that a change to   */
/* the header without a matching change here fails the build.                      */
/* BINDTOOL_GEN_AUTOMATIC(0)                                                       */
/* BINDTOOL_USE_PYGCCXML(0)                                                        */
/* BINDTOOL_HEADER_FILE(fm_demod_bank_vcf.h)                                       */
/* BINDTOOL_HEADER_FILE_HASH(876b319cbbb828947efa5bedbfce17ec) */
/***********************************************************************************/

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <stdexcept>
#include <string>

namespace py = pybind11;

#include <gnuradio/gpufilter/fm_demod_bank_vcf.h>
// pydoc.h is automatically generated in the build directory
#include <fm_demod_bank_vcf_pydoc.h>

#include "checked_args.h"

using namespace gr::gpufilter::bindings;

void bind_fm_demod_bank_vcf(py::module& m)
{
    using gr::gpufilter::fm_demod_bank_vcf;

    py::class_<fm_demod_bank_vcf,
               gr::sync_decimator,
               gr::sync_block,
               gr::block,
               gr::basic_block,
               gr::gpufilter::gpu_options,
               std::shared_ptr<fm_demod_bank_vcf>>
        cls(m, "fm_demod_bank_vcf", D(fm_demod_bank_vcf));
    def_init(cls,
             &fm_demod_bank_vcf::make,
             py::arg("nchan"),
             py::arg("channels"),
             py::arg("decimation"),
             py::arg("taps"),
             py::arg("channel_rate"),
             py::arg("deviation") = 75e3,
             py::arg("tau") = 75e-6,
             py::arg("device") = gr::gpufilter::device_auto,
             py::arg("batch_size") = 0,
             py::arg("max_latency") = gr::gpufilter::default_max_latency,
             D(fm_demod_bank_vcf, make))
        .def("nchan", &fm_demod_bank_vcf::nchan, D(fm_demod_bank_vcf, nchan))
        .def("channels", &fm_demod_bank_vcf::channels, D(fm_demod_bank_vcf, channels))
        .def("taps", &fm_demod_bank_vcf::taps, D(fm_demod_bank_vcf, taps));
}
