/* SPDX-License-Identifier: GPL-3.0-or-later */

/***********************************************************************************/
/* Written by hand; the hash below is checked at build time so that a change to   */
/* the header without a matching change here fails the build.                      */
/* BINDTOOL_GEN_AUTOMATIC(0)                                                       */
/* BINDTOOL_USE_PYGCCXML(0)                                                        */
/* BINDTOOL_HEADER_FILE(fm_demod_bank_vcf.h)                                       */
/* BINDTOOL_HEADER_FILE_HASH(f4dc0fce4a5375191942d703de223211) */
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
               std::shared_ptr<fm_demod_bank_vcf>>(
        m, "fm_demod_bank_vcf", D(fm_demod_bank_vcf))
        .def(py::init([](int nchan,
                         const std::vector<int>& channels,
                         int decimation,
                         const std::vector<float>& taps,
                         double channel_rate,
                         double deviation,
                         double tau,
                         int device,
                         int batch_size,
                         double max_latency) {
                 return fm_demod_bank_vcf::make(checked_count("nchan", nchan),
                                                checked_indices("channels", channels),
                                                checked_count("decimation", decimation),
                                                taps,
                                                channel_rate,
                                                deviation,
                                                tau,
                                                device,
                                                batch_size,
                                                max_latency);
             }),
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
