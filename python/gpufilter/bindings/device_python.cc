/* SPDX-License-Identifier: GPL-3.0-or-later */

/***********************************************************************************/
/* BINDTOOL_GEN_AUTOMATIC(0)                                                       */
/* BINDTOOL_USE_PYGCCXML(0)                                                        */
/* BINDTOOL_HEADER_FILE(device.h)                                                  */
/* BINDTOOL_HEADER_FILE_HASH(2e75ef372102f723fe32c7020b776491) */
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
