/* SPDX-License-Identifier: GPL-3.0-or-later */
// gpufilter_test_hooks: the test suite's fault injection and probes. Built for tests
// only, never installed.

#include "test_hooks.h"
#include <pybind11/pybind11.h>

PYBIND11_MODULE(gpufilter_test_hooks, m)
{
    using namespace gr::gpufilter::test_hooks;
    install_observer();
    m.def("fail_gpu_after",
          &fail_gpu_after,
          pybind11::arg("calls"),
          "GPU blocks made afterwards fail with a real CUDA error on GPU call calls+1.");
    m.def("page_locked_ranges",
          &page_locked_ranges,
          "Host memory ranges GPU blocks keep page-locked now.");
    m.def("hold_device_memory",
          &hold_device_memory,
          pybind11::arg("device"),
          pybind11::arg("leave_free"),
          "Fills a CUDA device until at most leave_free bytes are free; returns the "
          "bytes held.");
    m.def("release_device_memory",
          &release_device_memory,
          "Gives back what hold_device_memory() took.");
    m.def("block_memory_device",
          &block_memory_device,
          pybind11::arg("unique_id"),
          "The CUDA device holding the GPU buffers of the block with this unique_id() "
          "(device_cpu on the CPU fallback).");
    m.def("block_work_device",
          &block_work_device,
          pybind11::arg("unique_id"),
          "The CUDA device current in the block's work thread during its last GPU "
          "call (-1 before one; device_cpu on the CPU fallback).");
    m.def("emulate_device_buffers",
          &emulate_device_buffers,
          pybind11::arg("on"),
          "Blocks on the CPU fallback made afterwards declare device buffers, emulated "
          "in host memory.");
    m.def("device_buffer_bytes",
          &device_buffer_bytes,
          "Bytes of device memory that device buffers hold now (emulated included).");
    m.def("fail_device_buffer_memory",
          &fail_device_buffer_memory,
          pybind11::arg("on"),
          "While on, device buffers' device memory cannot be made (emulated included).");
    m.def("emulated_ring_granularity",
          &emulated_ring_granularity,
          pybind11::arg("bytes"),
          "Granularity of emulated device buffers' rings (0: a host page).");
}
