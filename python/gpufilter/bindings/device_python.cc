/* SPDX-License-Identifier: GPL-3.0-or-later */

/***********************************************************************************/
/* BINDTOOL_GEN_AUTOMATIC(0)                                                       */
/* BINDTOOL_USE_PYGCCXML(0)                                                        */
/* BINDTOOL_HEADER_FILE(device.h)                                                  */
/* BINDTOOL_HEADER_FILE_HASH(8013843b1e222d705478a7db5e9c3f58) */
/***********************************************************************************/

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "checked_args.h"
using namespace gr::gpufilter::bindings;

#include <gnuradio/gpufilter/device.h>
// pydoc.h is automatically generated in the build directory
#include <device_pydoc.h>

void bind_device(py::module& m)
{
    using gr::gpufilter::filter_method;
    using gr::gpufilter::host_transfer;
    py::enum_<filter_method>(m, "filter_method", D(filter_method))
        .value("automatic", filter_method::automatic)
        .value("direct", filter_method::direct)
        .value("fft", filter_method::fft);
    m.def("parse_filter_method",
          &gr::gpufilter::parse_filter_method,
          py::arg("name"),
          D(parse_filter_method));
    m.def("set_default_filter_method",
          &gr::gpufilter::set_default_filter_method,
          py::arg("method"),
          D(set_default_filter_method));
    m.def("get_default_filter_method",
          &gr::gpufilter::get_default_filter_method,
          D(get_default_filter_method));
    py::enum_<host_transfer>(m, "host_transfer", D(host_transfer))
        .value("dma_in_place", host_transfer::dma_in_place)
        .value("pinned_staging", host_transfer::pinned_staging);
    m.def("set_host_transfer",
          &gr::gpufilter::set_host_transfer,
          py::arg("mode"),
          D(set_host_transfer));
    m.def("get_host_transfer", &gr::gpufilter::get_host_transfer, D(get_host_transfer));
    m.def("set_device_buffers",
          &gr::gpufilter::set_device_buffers,
          py::arg("on"),
          D(set_device_buffers));
    m.def(
        "get_device_buffers", &gr::gpufilter::get_device_buffers, D(get_device_buffers));

    m.attr("device_auto") = gr::gpufilter::device_auto;
    m.attr("device_cpu") = gr::gpufilter::device_cpu;
    m.attr("default_batch_size") = gr::gpufilter::default_batch_size;
    m.attr("default_max_latency") = gr::gpufilter::default_max_latency;
    m.def("cuda_device_count", &gr::gpufilter::cuda_device_count, D(cuda_device_count));
    def_function(m,
                 "cuda_device_free_memory",
                 &gr::gpufilter::cuda_device_free_memory,
                 py::arg("device"),
                 D(cuda_device_free_memory));
    def_function(m,
                 "cuda_device_name",
                 &gr::gpufilter::cuda_device_name,
                 py::arg("device"),
                 D(cuda_device_name));
}
