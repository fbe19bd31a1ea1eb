/* SPDX-License-Identifier: GPL-3.0-or-later */

/***********************************************************************************/
/* Written by hand; the hash below is checked at build time so that a change to   */
/* the header without a matching change here fails the build.                      */
/* BINDTOOL_GEN_AUTOMATIC(0)                                                       */
/* BINDTOOL_USE_PYGCCXML(0)                                                        */
/* BINDTOOL_HEADER_FILE(rational_resampler.h)                                      */
/* BINDTOOL_HEADER_FILE_HASH(63aacaef33a78ca02bf166d04f6f46b0) */
/***********************************************************************************/

#include <pybind11/complex.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "checked_args.h"
using namespace gr::gpufilter::bindings;

#include <gnuradio/gpufilter/rational_resampler.h>
// pydoc.h is automatically generated in the build directory
#include <rational_resampler_pydoc.h>

namespace {

//! The accessors and setters both classes have.
template <class Cls, class Block>
void def_rational_accessors(Cls& cls)
{
    cls.def("interpolation", &Block::interpolation, D(rational_resampler, interpolation))
        .def("decimation", &Block::decimation, D(rational_resampler, decimation))
        .def("set_taps",
             &Block::set_taps,
             py::arg("taps"),
             D(rational_resampler, set_taps))
        .def("taps", &Block::taps, D(rational_resampler, taps));
}

template <class IN_T, class OUT_T, class TAP_T>
void bind_rational_resampler_template(py::module& m, const char* classname)
{
    using block = gr::gpufilter::rational_resampler<IN_T, OUT_T, TAP_T>;

    py::class_<block,
               gr::block,
               gr::basic_block,
               gr::gpufilter::gpu_options,
               std::shared_ptr<block>>
        cls(m, classname, D(rational_resampler));
    def_init(cls,
             &block::make,
             py::arg("interpolation"),
             py::arg("decimation"),
             py::arg("taps") = std::vector<TAP_T>(),
             py::arg("fractional_bw") = 0.0f,
             py::arg("device") = gr::gpufilter::device_auto,
             py::arg("batch_size") = gr::gpufilter::default_batch_size,
             py::arg("max_latency") = gr::gpufilter::default_max_latency,
             D(rational_resampler, make));
    def_rational_accessors<decltype(cls), block>(cls);
}

} // namespace

void bind_rational_resampler(py::module& m)
{
    bind_rational_resampler_template<gr_complex, gr_complex, gr_complex>(
        m, "rational_resampler_ccc");
    bind_rational_resampler_template<gr_complex, gr_complex, float>(
        m, "rational_resampler_ccf");
    bind_rational_resampler_template<float, gr_complex, gr_complex>(
        m, "rational_resampler_fcc");
    bind_rational_resampler_template<float, float, float>(m, "rational_resampler_fff");
    bind_rational_resampler_template<float, std::int16_t, float>(
        m, "rational_resampler_fsf");
    bind_rational_resampler_template<std::int16_t, gr_complex, gr_complex>(
        m, "rational_resampler_scc");

    using vff = gr::gpufilter::rational_resampler_vff;
    py::class_<vff,
               gr::block,
               gr::basic_block,
               gr::gpufilter::gpu_options,
               std::shared_ptr<vff>>
        cls(m, "rational_resampler_vff", D(rational_resampler_vff));
    def_init(cls,
             &vff::make,
             py::arg("vlen"),
             py::arg("interpolation"),
             py::arg("decimation"),
             py::arg("taps") = std::vector<float>(),
             py::arg("fractional_bw") = 0.0f,
             py::arg("device") = gr::gpufilter::device_auto,
             py::arg("batch_size") = gr::gpufilter::default_batch_size,
             py::arg("max_latency") = gr::gpufilter::default_max_latency,
             D(rational_resampler_vff, make));
    cls.def("vlen", &vff::vlen, D(rational_resampler_vff, vlen));
    def_rational_accessors<decltype(cls), vff>(cls);
}
