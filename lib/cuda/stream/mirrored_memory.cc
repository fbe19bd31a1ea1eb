/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/resources.h"
#include "mirrored_memory.h"
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {
std::atomic<std::size_t> s_live_bytes{ 0 };
constexpr std::size_t page = 4096;

struct free_host {
    void operator()(char* p) const { std::free(p); }
};
} // namespace

struct mirrored_memory::impl {
    impl(int dev, std::size_t n) : device(dev), bytes(n)
    {
        const std::size_t rounded = (n + page - 1) / page * page;
        host.reset(
            static_cast<char*>(std::aligned_alloc(page, rounded ? rounded : page)));
        if (!host)
            throw std::bad_alloc();
        std::memset(host.get(), 0, rounded);
    }
    ~impl()
    {
        if (device_ptr)
            s_live_bytes -= bytes;
    }

    char* device_side()
    {
        if (device_ptr)
            return device_ptr;
        if (device == emulated) {
            emu_device.assign(bytes, 0);
            device_ptr = emu_device.data();
        } else {
            use_device(device);
            copies = std::make_unique<stream>();
            dev_mem = device_buffer<char>(bytes);
            GPUFILTER_CHECK(cudaMemsetAsync(dev_mem.get(), 0, bytes, copies->get()));
            copies->synchronize();
            device_ptr = dev_mem.get();
        }
        s_live_bytes += bytes;
        return device_ptr;
    }

    int device;
    std::size_t bytes;
    std::unique_ptr<char, free_host> host;
    char* device_ptr = nullptr;
    std::vector<char> emu_device; // emulated: the device side on the host
    device_buffer<char> dev_mem;
    device_buffer<char> scratch;    // overlapping device moves go through it
    std::unique_ptr<stream> copies; // made with the device side
};

mirrored_memory::mirrored_memory(int device, std::size_t bytes)
    : d_impl(std::make_unique<impl>(device, bytes))
{
}

mirrored_memory::~mirrored_memory() = default;

char* mirrored_memory::host() const { return d_impl->host.get(); }
char* mirrored_memory::device() { return d_impl->device_side(); }
std::size_t mirrored_memory::bytes() const { return d_impl->bytes; }

void* mirrored_memory::move_on_device(void* dst, const void* src, std::size_t n)
{
    impl& m = *d_impl;
    if (m.device == emulated)
        return std::memmove(dst, src, n);
    if (n == 0 || dst == src)
        return dst;
    use_device(m.device);
    const auto d = static_cast<char*>(dst);
    const auto s = static_cast<const char*>(src);
    const cudaStream_t st = m.copies->get();
    if (d + n <= s || s + n <= d) { // no overlap: one copy
        GPUFILTER_CHECK(cudaMemcpyAsync(d, s, n, cudaMemcpyDeviceToDevice, st));
    } else { // CUDA leaves overlapping copies undefined: through a scratch buffer
        if (m.scratch.size() < n)
            m.scratch = device_buffer<char>(n);
        GPUFILTER_CHECK(
            cudaMemcpyAsync(m.scratch.get(), s, n, cudaMemcpyDeviceToDevice, st));
        GPUFILTER_CHECK(
            cudaMemcpyAsync(d, m.scratch.get(), n, cudaMemcpyDeviceToDevice, st));
    }
    m.copies->synchronize();
    return dst;
}

std::size_t mirrored_memory::live_device_bytes() { return s_live_bytes; }

} // namespace cuda
} // namespace gpufilter
} // namespace gr
