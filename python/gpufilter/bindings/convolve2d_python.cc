/* SPDX-License-Identifier: GPL-3.0-or-later */

/***********************************************************************************/
/* Written by hand; the hash below is checked at build time so that a change to   */
/* the header without a matching change here fails the build.                      */
/* BINDTOOL_GEN_AUTOMATIC(0)                                                       */
/* BINDTOOL_USE_PYGCCXML(0)                                                        */
/* BINDTOOL_HEADER_FILE(convolve2d.h)                                              */
/* BINDTOOL_HEADER_FILE_HASH(69adf425826a41ada37fcd2abc996a30) */
/***********************************************************************************/

#include <pybind11/complex.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <string>

namespace py = pybind11;

#include <gnuradio/gpufilter/convolve2d.h>
// pydoc.h is automatically generated in the build directory
#include <convolve2d_pydoc.h>

namespace {

using gr::gpufilter::filter_method;
using gr::gpufilter::image_window;

template <class T>
using c_array = py::array_t<T, py::array::c_style | py::array::forcecast>;

// The images (a C-contiguous (images, rows, cols) array) in host memory; the Python
// wrapper (convolve2d.py) has chosen the types, the window and the kernel's flip.
template <class T, class Tap>
c_array<T> images_host(const c_array<T>& in,
                       const c_array<Tap>& kernel,
                       const image_window& window,
                       filter_method method,
                       int device)
{
    if (in.ndim() != 3 || kernel.ndim() != 2)
        throw py::value_error(
            "in1: images must be (images, rows, cols), in2 a 2D kernel");
    c_array<T> out({ in.shape(0),
                     static_cast<py::ssize_t>(window.rows),
                     static_cast<py::ssize_t>(window.cols) });
    const T* x = in.data();
    T* y = out.mutable_data();
    const Tap* k = kernel.data();
    {
        py::gil_scoped_release release;
        gr::gpufilter::convolve2d_images<T, Tap>(x,
                                                 in.shape(0),
                                                 in.shape(1),
                                                 in.shape(2),
                                                 k,
                                                 kernel.shape(0),
                                                 kernel.shape(1),
                                                 window,
                                                 method,
                                                 y,
                                                 device,
                                                 false);
    }
    return out;
}

// The same on device memory (CuPy arrays): pointers as integers.
template <class T, class Tap>
void images_device(std::uintptr_t in,
                   std::size_t images,
                   std::size_t rows,
                   std::size_t cols,
                   const c_array<Tap>& kernel,
                   const image_window& window,
                   filter_method method,
                   std::uintptr_t out,
                   int device)
{
    if (kernel.ndim() != 2)
        throw py::value_error("in2: must be a 2D kernel");
    const Tap* k = kernel.data();
    py::gil_scoped_release release;
    gr::gpufilter::convolve2d_images<T, Tap>(reinterpret_cast<const T*>(in),
                                             images,
                                             rows,
                                             cols,
                                             k,
                                             kernel.shape(0),
                                             kernel.shape(1),
                                             window,
                                             method,
                                             reinterpret_cast<T*>(out),
                                             device,
                                             true);
}

//! convolve2d_images_<suffix> (host arrays) and convolve2d_device_<suffix> (pointers).
template <class T, class Tap>
void def_type(py::module& m, const std::string& suffix)
{
    m.def(("convolve2d_images_" + suffix).c_str(),
          &images_host<T, Tap>,
          py::arg("images"),
          py::arg("kernel"),
          py::arg("window"),
          py::arg("method"),
          py::arg("device"),
          D(convolve2d_images));
    m.def(("convolve2d_device_" + suffix).c_str(),
          &images_device<T, Tap>,
          D(convolve2d_images));
}

} // namespace

void bind_convolve2d(py::module& m)
{
    py::class_<image_window>(m, "image_window", D(image_window))
        .def(py::init([](long first_row, long rows, long cols, long col_offset) {
                 image_window w;
                 w.first_row = first_row;
                 w.rows = rows;
                 w.cols = cols;
                 w.col_offset = col_offset;
                 return w;
             }),
             py::arg("first_row"),
             py::arg("rows"),
             py::arg("cols"),
             py::arg("col_offset"))
        .def_readonly("first_row", &image_window::first_row)
        .def_readonly("rows", &image_window::rows)
        .def_readonly("cols", &image_window::cols)
        .def_readonly("col_offset", &image_window::col_offset);

    using gr_complex = std::complex<float>;
    def_type<float, float>(m, "fff");
    def_type<gr_complex, float>(m, "ccf");
    def_type<gr_complex, gr_complex>(m, "ccc");
}
