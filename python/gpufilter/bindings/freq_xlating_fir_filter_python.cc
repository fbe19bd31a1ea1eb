/* SPDX-License-Identifier: GPL-3.0-or-later */

/***********************************************************************************/
/* Written by hand; the hash below is checked at build time so that a change to   */
/* the header without a matching change here fails the build.                      */
/* BINDTOOL_GEN_AUTOMATIC(0)                                                       */
/* BINDTOOL_USE_PYGCCXML(0)                                                        */
/* BINDTOOL_HEADER_FILE(freq_xlating_fir_filter.h)                                 */
/* BINDTOOL_HEADER_FILE_HASH(5cde43a0a3b521de199e96957101f711) */
/***********************************************************************************/

#include <pybind11/complex.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "checked_args.h"
using namespace gr::gpufilter::bindings;

#include <gnuradio/gpufilter/freq_xlating_fir_filter.h>
// pydoc.h is automatically generated in the build directory
#include <freq_xlating_fir_filter_pydoc.h>

template <class IN_T, class OUT_T, class TAP_T>
void bind_freq_xlating_fir_filter_template(py::module& m, const char* classname)
{
    using block = gr::gpufilter::freq_xlating_fir_filter<IN_T, OUT_T, TAP_T>;

    py::class_<block,
               gr::sync_decimator,
               gr::sync_block,
               gr::block,
               gr::basic_block,
               gr::gpufilter::gpu_options,
               std::shared_ptr<block>>
        cls(m, classname, D(freq_xlating_fir_filter));
    def_init(cls,
             &block::make,
             py::arg("decimation"),
             py::arg("taps"),
             py::arg("center_freq"),
             py::arg("sampling_freq"),
             py::arg("device") = gr::gpufilter::device_auto,
             py::arg("batch_size") = gr::gpufilter::default_batch_size,
             py::arg("max_latency") = gr::gpufilter::default_max_latency,
             D(freq_xlating_fir_filter, make))
        .def("set_center_freq",
             &block::set_center_freq,
             py::arg("center_freq"),
             D(freq_xlating_fir_filter, set_center_freq))
        .def("center_freq", &block::center_freq, D(freq_xlating_fir_filter, center_freq))
        .def("set_taps",
             &block::set_taps,
             py::arg("taps"),
             D(freq_xlating_fir_filter, set_taps))
        .def("taps", &block::taps, D(freq_xlating_fir_filter, taps));
}

void bind_freq_xlating_fir_filter(py::module& m)
{
    bind_freq_xlating_fir_filter_template<gr_complex, gr_complex, gr_complex>(
        m, "freq_xlating_fir_filter_ccc");
    bind_freq_xlating_fir_filter_template<gr_complex, gr_complex, float>(
        m, "freq_xlating_fir_filter_ccf");
    bind_freq_xlating_fir_filter_template<float, gr_complex, gr_complex>(
        m, "freq_xlating_fir_filter_fcc");
    bind_freq_xlating_fir_filter_template<float, gr_complex, float>(
        m, "freq_xlating_fir_filter_fcf");
    bind_freq_xlating_fir_filter_template<std::int16_t, gr_complex, float>(
        m, "freq_xlating_fir_filter_scf");
    bind_freq_xlating_fir_filter_template<std::int16_t, gr_complex, gr_complex>(
        m, "freq_xlating_fir_filter_scc");
}
