/* SPDX-License-Identifier: GPL-3.0-or-later */
// gpufilter_test_hooks: the test suite's fault injection. Built for tests only.

#include "testing_hooks.h"
#include <pybind11/pybind11.h>

PYBIND11_MODULE(gpufilter_test_hooks, m)
{
    m.def("fail_gpu_after",
          &gr::gpufilter::testing::fail_gpu_after,
          pybind11::arg("calls"),
          "GPU blocks made afterwards fail with a real CUDA error on GPU call calls+1.");
    m.def("page_locked_ranges",
          &gr::gpufilter::testing::page_locked_ranges,
          "Host memory ranges GPU blocks keep page-locked now.");
    m.def("emulate_device_buffers",
          &gr::gpufilter::testing::emulate_device_buffers,
          pybind11::arg("on"),
          "Blocks on the CPU fallback made afterwards declare device buffers, emulated "
          "in host memory.");
    m.def("device_buffer_bytes",
          &gr::gpufilter::testing::device_buffer_bytes,
          "Bytes of device memory that device buffers hold now (emulated included).");
}
