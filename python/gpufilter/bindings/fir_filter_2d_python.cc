/* SPDX-License-Identifier: GPL-3.0-or-later */

/***********************************************************************************/
/* Written by hand; the hash below is checked at build time so that a change to   */
/* the header without a matching change here fails the build.                      */
/* BINDTOOL_GEN_AUTOMATIC(0)                                                       */
/* BINDTOOL_USE_PYGCCXML(0)                                                        */
/* BINDTOOL_HEADER_FILE(fir_filter_2d.h)                                           */
/* BINDTOOL_HEADER_FILE_HASH(0308e6466f279d11fbcc708440c18d8d) */
/***********************************************************************************/

#include <pybind11/complex.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "checked_args.h"
using namespace gr::gpufilter::bindings;

#include <gnuradio/gpufilter/fir_filter_2d.h>
// pydoc.h is automatically generated in the build directory
#include <fir_filter_2d_pydoc.h>

template <class IN_T, class OUT_T, class TAP_T>
void bind_fir_filter_2d_template(py::module& m, const char* classname)
{
    using block = gr::gpufilter::fir_filter_2d<IN_T, OUT_T, TAP_T>;
    using kernel = std::vector<std::vector<TAP_T>>;

    py::class_<block,
               gr::sync_block,
               gr::block,
               gr::basic_block,
               gr::gpufilter::gpu_options,
               std::shared_ptr<block>>
        cls(m, classname, D(fir_filter_2d));
    def_init(cls,
             &block::make,
             py::arg("vlen"),
             py::arg("taps"),
             py::arg("device") = gr::gpufilter::device_auto,
             py::arg("batch_size") = gr::gpufilter::default_batch_size,
             py::arg("method") = gr::gpufilter::filter_method::automatic,
             py::arg("max_latency") = gr::gpufilter::default_max_latency,
             D(fir_filter_2d, make));
    // method by name ("auto", "direct", "separable", "fft"), as GRC passes it.
    def_init_lambda(
        cls,
        [](unsigned vlen,
           const kernel& taps,
           int device,
           int batch_size,
           const std::string& method,
           double max_latency) {
            return block::make(vlen,
                               taps,
                               device,
                               batch_size,
                               gr::gpufilter::parse_filter_method(method),
                               max_latency);
        },
        py::arg("vlen"),
        py::arg("taps"),
        py::arg("device") = gr::gpufilter::device_auto,
        py::arg("batch_size") = gr::gpufilter::default_batch_size,
        py::arg("method"),
        py::arg("max_latency") = gr::gpufilter::default_max_latency,
        D(fir_filter_2d, make))
        .def("set_taps", &block::set_taps, py::arg("taps"), D(fir_filter_2d, set_taps))
        .def("taps", &block::taps, D(fir_filter_2d, taps))
        .def("vlen", &block::vlen, D(fir_filter_2d, vlen))
        .def("delay", &block::delay, D(fir_filter_2d, delay));
}

void bind_fir_filter_2d(py::module& m)
{
    bind_fir_filter_2d_template<float, float, float>(m, "fir_filter_2d_fff");
    bind_fir_filter_2d_template<gr_complex, gr_complex, float>(m, "fir_filter_2d_ccf");
    bind_fir_filter_2d_template<gr_complex, gr_complex, gr_complex>(m,
                                                                    "fir_filter_2d_ccc");
}
