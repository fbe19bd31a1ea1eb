/* SPDX-License-Identifier: GPL-3.0-or-later */

/***********************************************************************************/
/* Written by hand; the hash below is checked at build time so that a change to   */
/* the header without a matching change here fails the build.                      */
/* BINDTOOL_GEN_AUTOMATIC(0)                                                       */
/* BINDTOOL_USE_PYGCCXML(0)                                                        */
/* BINDTOOL_HEADER_FILE(fir_filter.h)                                              */
/* BINDTOOL_HEADER_FILE_HASH(bfea50f15a0e28654181eae79af5dfdf) */
/***********************************************************************************/

#include <pybind11/complex.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "checked_args.h"
using namespace gr::gpufilter::bindings;

#include <gnuradio/gpufilter/fir_filter.h>
// pydoc.h is automatically generated in the build directory
#include <fir_filter_pydoc.h>

template <class IN_T, class OUT_T, class TAP_T>
void bind_fir_filter_template(py::module& m, const char* classname)
{
    using block = gr::gpufilter::fir_filter<IN_T, OUT_T, TAP_T>;

    py::class_<block,
               gr::sync_decimator,
               gr::sync_block,
               gr::block,
               gr::basic_block,
               gr::gpufilter::gpu_options,
               std::shared_ptr<block>>
        cls(m, classname, D(fir_filter));
    def_init(cls,
             &block::make,
             py::arg("decimation"),
             py::arg("taps"),
             py::arg("device") = gr::gpufilter::device_auto,
             py::arg("batch_size") = gr::gpufilter::default_batch_size,
             py::arg("method") = gr::gpufilter::filter_method::automatic,
             py::arg("max_latency") = gr::gpufilter::default_max_latency,
             D(fir_filter, make));
    // method by name ("auto", "direct", "fft"), as GRC and older scripts pass it.
    def_init_lambda(
        cls,
        [](int decimation,
           const std::vector<TAP_T>& taps,
           int device,
           int batch_size,
           const std::string& method,
           double max_latency) {
            return block::make(decimation,
                               taps,
                               device,
                               batch_size,
                               gr::gpufilter::parse_filter_method(method),
                               max_latency);
        },
        py::arg("decimation"),
        py::arg("taps"),
        py::arg("device") = gr::gpufilter::device_auto,
        py::arg("batch_size") = gr::gpufilter::default_batch_size,
        py::arg("method"),
        py::arg("max_latency") = gr::gpufilter::default_max_latency,
        D(fir_filter, make))
        .def("set_taps", &block::set_taps, py::arg("taps"), D(fir_filter, set_taps))
        .def("taps", &block::taps, D(fir_filter, taps));
}

void bind_fir_filter(py::module& m)
{
    bind_fir_filter_template<float, float, float>(m, "fir_filter_fff");
    bind_fir_filter_template<gr_complex, gr_complex, float>(m, "fir_filter_ccf");
    bind_fir_filter_template<gr_complex, gr_complex, gr_complex>(m, "fir_filter_ccc");
    bind_fir_filter_template<float, gr_complex, gr_complex>(m, "fir_filter_fcc");
    bind_fir_filter_template<float, std::int16_t, float>(m, "fir_filter_fsf");
    bind_fir_filter_template<std::int16_t, gr_complex, gr_complex>(m, "fir_filter_scc");
}
