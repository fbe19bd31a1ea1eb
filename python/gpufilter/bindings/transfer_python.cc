/* SPDX-License-Identifier: GPL-3.0-or-later */

/***********************************************************************************/
/* BINDTOOL_GEN_AUTOMATIC(0)                                                       */
/* BINDTOOL_USE_PYGCCXML(0)                                                        */
/* BINDTOOL_HEADER_FILE(transfer.h)                                                */
/* BINDTOOL_HEADER_FILE_HASH(7d31f85aab95001b466971b22ce5d239) */
/***********************************************************************************/

#include <pybind11/pybind11.h>

namespace py = pybind11;

#include <gnuradio/gpufilter/transfer.h>
// pydoc.h is automatically generated in the build directory
#include <transfer_pydoc.h>

void bind_transfer(py::module& m)
{
    using gr::gpufilter::host_transfer;
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
}
