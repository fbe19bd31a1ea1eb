/* SPDX-License-Identifier: GPL-3.0-or-later */

/***********************************************************************************/
/* BINDTOOL_GEN_AUTOMATIC(0)                                                       */
/* BINDTOOL_USE_PYGCCXML(0)                                                        */
/* BINDTOOL_HEADER_FILE(device.h)                                                  */
/* BINDTOOL_HEADER_FILE_HASH(0a018981f79d1bebf39972b70ade3375) */
/***********************************************************************************/

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gpufilter/device.h>
// pydoc.h is automatically generated in the build directory
#include <device_pydoc.h>

void bind_device(py::module& m)
{
    m.attr("device_auto") = gr::gpufilter::device_auto;
    m.attr("device_cpu") = gr::gpufilter::device_cpu;
    m.attr("default_batch_size") = gr::gpufilter::default_batch_size;
    m.def("cuda_device_count", &gr::gpufilter::cuda_device_count, D(cuda_device_count));
    m.def("cuda_device_name",
          &gr::gpufilter::cuda_device_name,
          py::arg("device"),
          D(cuda_device_name));
}
