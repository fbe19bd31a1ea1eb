/* SPDX-License-Identifier: GPL-3.0-or-later */

/***********************************************************************************/
/* Written by hand; the hash below is checked at build time so that a change to   */
/* the header without a matching change here fails the build.                      */
/* BINDTOOL_GEN_AUTOMATIC(0)                                                       */
/* BINDTOOL_USE_PYGCCXML(0)                                                        */
/* BINDTOOL_HEADER_FILE(fft_filter.h)                                              */
/* BINDTOOL_HEADER_FILE_HASH(871405e41764779e7a247a583e06ca8d) */
/***********************************************************************************/

#include <pybind11/complex.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "checked_args.h"
using namespace gr::gpufilter::bindings;

#include <gnuradio/gpufilter/fft_filter.h>
// pydoc.h is automatically generated in the build directory
#include <fft_filter_pydoc.h>

template <class IN_T, class OUT_T, class TAP_T>
void bind_fft_filter_template(py::module& m, const char* classname)
{
    using block = gr::gpufilter::fft_filter<IN_T, OUT_T, TAP_T>;

    py::class_<block,
               gr::sync_decimator,
               gr::sync_block,
               gr::block,
               gr::basic_block,
               gr::gpufilter::gpu_options,
               std::shared_ptr<block>>
        cls(m, classname, D(fft_filter));
    def_init(cls,
             &block::make,
             py::arg("decimation"),
             py::arg("taps"),
             py::arg("nthreads") = 1,
             py::arg("device") = gr::gpufilter::device_auto,
             py::arg("batch_size") = gr::gpufilter::default_batch_size,
             py::arg("method") = gr::gpufilter::filter_method::fft,
             py::arg("max_latency") = gr::gpufilter::default_max_latency,
             D(fft_filter, make));
    // method by name ("auto", "direct", "fft"), as GRC and scripts may pass it.
    def_init_lambda(
        cls,
        [](int decimation,
           const std::vector<TAP_T>& taps,
           int nthreads,
           int device,
           int batch_size,
           const std::string& method,
           double max_latency) {
            return block::make(decimation,
                               taps,
                               nthreads,
                               device,
                               batch_size,
                               gr::gpufilter::parse_filter_method(method),
                               max_latency);
        },
        py::arg("decimation"),
        py::arg("taps"),
        py::arg("nthreads") = 1,
        py::arg("device") = gr::gpufilter::device_auto,
        py::arg("batch_size") = gr::gpufilter::default_batch_size,
        py::arg("method"),
        py::arg("max_latency") = gr::gpufilter::default_max_latency,
        D(fft_filter, make))
        .def("set_taps", &block::set_taps, py::arg("taps"), D(fft_filter, set_taps))
        .def("taps", &block::taps, D(fft_filter, taps));
    def_method(cls,
               "set_nthreads",
               &block::set_nthreads,
               py::arg("n"),
               D(fft_filter, set_nthreads))
        .def("nthreads", &block::nthreads, D(fft_filter, nthreads));
}

void bind_fft_filter(py::module& m)
{
    bind_fft_filter_template<gr_complex, gr_complex, gr_complex>(m, "fft_filter_ccc");
    bind_fft_filter_template<gr_complex, gr_complex, float>(m, "fft_filter_ccf");
    bind_fft_filter_template<float, float, float>(m, "fft_filter_fff");
}
