/* SPDX-License-Identifier: GPL-3.0-or-later */

/***********************************************************************************/
/* Written by hand; the hash below is checked at build time so that a change to   */
/* the header without a matching change here fails the build.                      */
/* BINDTOOL_GEN_AUTOMATIC(0)                                                       */
/* BINDTOOL_USE_PYGCCXML(0)                                                        */
/* BINDTOOL_HEADER_FILE(interp_fir_filter.h)                                       */
/* BINDTOOL_HEADER_FILE_HASH(ceda09138ab194430a6b5ad93986b99d) */
/***********************************************************************************/

#include <pybind11/complex.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "checked_args.h"
using namespace gr::gpufilter::bindings;

#include <gnuradio/gpufilter/interp_fir_filter.h>
// pydoc.h is automatically generated in the build directory
#include <interp_fir_filter_pydoc.h>

namespace {
template <class IN_T, class OUT_T, class TAP_T>
void bind_interp_fir_filter_template(py::module& m, const char* classname)
{
    using block = gr::gpufilter::interp_fir_filter<IN_T, OUT_T, TAP_T>;

    py::class_<block,
               gr::sync_interpolator,
               gr::sync_block,
               gr::block,
               gr::basic_block,
               gr::gpufilter::gpu_options,
               std::shared_ptr<block>>
        cls(m, classname, D(interp_fir_filter));
    def_init(cls,
             &block::make,
             py::arg("interpolation"),
             py::arg("taps"),
             py::arg("device") = gr::gpufilter::device_auto,
             py::arg("batch_size") = gr::gpufilter::default_batch_size,
             py::arg("max_latency") = gr::gpufilter::default_max_latency,
             D(interp_fir_filter, make))
        .def(
            "set_taps", &block::set_taps, py::arg("taps"), D(interp_fir_filter, set_taps))
        .def("taps", &block::taps, D(interp_fir_filter, taps));
}
} // namespace

void bind_interp_fir_filter(py::module& m)
{
    bind_interp_fir_filter_template<gr_complex, gr_complex, gr_complex>(
        m, "interp_fir_filter_ccc");
    bind_interp_fir_filter_template<gr_complex, gr_complex, float>(
        m, "interp_fir_filter_ccf");
    bind_interp_fir_filter_template<float, gr_complex, gr_complex>(
        m, "interp_fir_filter_fcc");
    bind_interp_fir_filter_template<float, float, float>(m, "interp_fir_filter_fff");
    bind_interp_fir_filter_template<float, std::int16_t, float>(m,
                                                                "interp_fir_filter_fsf");
    bind_interp_fir_filter_template<std::int16_t, gr_complex, gr_complex>(
        m, "interp_fir_filter_scc");
}
