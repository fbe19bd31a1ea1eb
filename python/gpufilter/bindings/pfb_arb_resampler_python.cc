/* SPDX-License-Identifier: GPL-3.0-or-later */

/***********************************************************************************/
/* Written by hand; the hash below is checked at build time so that a change to   */
/* the header without a matching change here fails the build.                      */
/* BINDTOOL_GEN_AUTOMATIC(0)                                                       */
/* BINDTOOL_USE_PYGCCXML(0)                                                        */
/* BINDTOOL_HEADER_FILE(pfb_arb_resampler.h) */
/* BINDTOOL_HEADER_FILE_HASH(847463741d5c5e89eff9eabe2e0db535) */
/***********************************************************************************/

#include <pybind11/complex.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <stdexcept>
#include <string>

namespace py = pybind11;

#include <gnuradio/gpufilter/pfb_arb_resampler.h>
// pydoc.h is automatically generated in the build directory
#include <pfb_arb_resampler_pydoc.h>

#include "checked_args.h"

using namespace gr::gpufilter::bindings;

namespace {
template <class IO_T, class TAP_T = float>
void bind_pfb_arb_resampler_template(py::module& m, const char* classname)
{
    using block = gr::gpufilter::pfb_arb_resampler<IO_T, TAP_T>;

    py::class_<block,
               gr::block,
               gr::basic_block,
               gr::gpufilter::gpu_options,
               std::shared_ptr<block>>
        cls(m, classname, D(pfb_arb_resampler));
    def_init(cls,
             &block::make,
             py::arg("rate"),
             py::arg("taps"),
             py::arg("filter_size") = 32,
             py::arg("device") = gr::gpufilter::device_auto,
             py::arg("batch_size") = gr::gpufilter::default_batch_size,
             py::arg("max_latency") = gr::gpufilter::default_max_latency,
             D(pfb_arb_resampler, make))
        .def(
            "set_taps", &block::set_taps, py::arg("taps"), D(pfb_arb_resampler, set_taps))
        .def("taps", &block::taps, D(pfb_arb_resampler, taps))
        .def("print_taps", &block::print_taps, D(pfb_arb_resampler, print_taps))
        .def(
            "set_rate", &block::set_rate, py::arg("rate"), D(pfb_arb_resampler, set_rate))
        .def("set_phase",
             &block::set_phase,
             py::arg("ph"),
             D(pfb_arb_resampler, set_phase))
        .def("phase", &block::phase, D(pfb_arb_resampler, phase))
        .def("interpolation_rate",
             &block::interpolation_rate,
             D(pfb_arb_resampler, interpolation_rate))
        .def("decimation_rate",
             &block::decimation_rate,
             D(pfb_arb_resampler, decimation_rate))
        .def("fractional_rate",
             &block::fractional_rate,
             D(pfb_arb_resampler, fractional_rate))
        .def("taps_per_filter",
             &block::taps_per_filter,
             D(pfb_arb_resampler, taps_per_filter))
        .def("group_delay", &block::group_delay, D(pfb_arb_resampler, group_delay))
        .def("phase_offset",
             &block::phase_offset,
             py::arg("freq"),
             py::arg("fs"),
             D(pfb_arb_resampler, phase_offset));
}
} // namespace

void bind_pfb_arb_resampler(py::module& m)
{
    bind_pfb_arb_resampler_template<gr_complex>(m, "pfb_arb_resampler_ccf");
    bind_pfb_arb_resampler_template<float>(m, "pfb_arb_resampler_fff");
    bind_pfb_arb_resampler_template<gr_complex, gr_complex>(m, "pfb_arb_resampler_ccc");
}
