/* SPDX-License-Identifier: GPL-3.0-or-later */

/***********************************************************************************/
/* Written by hand; the hash below is checked at build time so that a change to   */
/* the header without a matching change here fails the build.                      */
/* BINDTOOL_GEN_AUTOMATIC(0)                                                       */
/* BINDTOOL_USE_PYGCCXML(0)                                                        */
/* BINDTOOL_HEADER_FILE(gpu_options.h)                                             */
/* BINDTOOL_HEADER_FILE_HASH(e43527c9b1ebcfc2be380e9903f36563) */
/***********************************************************************************/

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gpufilter/gpu_options.h>
// pydoc.h is automatically generated in the build directory
#include <gpu_options_pydoc.h>

void bind_gpu_options(py::module& m)
{
    using opts = gr::gpufilter::gpu_options;
    // A base of every block class, so each block has these methods.
    py::class_<opts, std::shared_ptr<opts>>(m, "gpu_options", D(gpu_options))
        .def("on_gpu", &opts::on_gpu, D(gpu_options, on_gpu))
        .def("device", &opts::device, D(gpu_options, device))
        .def("batch_size", &opts::batch_size, D(gpu_options, batch_size))
        .def("max_latency", &opts::max_latency, D(gpu_options, max_latency))
        .def("set_max_latency",
             &opts::set_max_latency,
             py::arg("seconds"),
             D(gpu_options, set_max_latency))
        .def("current_batch_size",
             &opts::current_batch_size,
             D(gpu_options, current_batch_size))
        .def("input_rate", &opts::input_rate, D(gpu_options, input_rate))
        .def("largest_batch", &opts::largest_batch, D(gpu_options, largest_batch))
        .def("method", &opts::method, D(gpu_options, method))
        // The deprecated name, kept for existing scripts: the same function.
        .def("fir_method", &opts::method, D(gpu_options, fir_method))
        .def("bytes_to_device", &opts::bytes_to_device, D(gpu_options, bytes_to_device))
        .def("bytes_from_device",
             &opts::bytes_from_device,
             D(gpu_options, bytes_from_device));
}
