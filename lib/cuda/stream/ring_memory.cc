/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/resources.h"
#include "ring_memory.h"
#include "stream_observer.h"
#include <cuda.h>
#include <cudaTypedefs.h>
#include <sys/mman.h>
#include <system_error>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {

//! Shared memory mapped twice, back to back (what GNU Radio's vmcircbuf does).
class host_ring
{
public:
    explicit host_ring(std::size_t bytes) : d_bytes(bytes)
    {
        const int fd = memfd_create("gpufilter-buffer", MFD_CLOEXEC);
        if (fd < 0)
            fail("memfd_create");
        if (ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
            const int err = errno;
            close(fd);
            fail("ftruncate", err);
        }
        // Reserve both halves at once, so nothing else can land between them.
        void* area =
            mmap(nullptr, 2 * bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (area == MAP_FAILED) {
            const int err = errno;
            close(fd);
            fail("mmap", err);
        }
        d_base = static_cast<char*>(area);
        for (int half = 0; half < 2; ++half) {
            if (mmap(d_base + half * bytes,
                     bytes,
                     PROT_READ | PROT_WRITE,
                     MAP_SHARED | MAP_FIXED,
                     fd,
                     0) == MAP_FAILED) {
                const int err = errno;
                close(fd);
                munmap(d_base, 2 * bytes);
                fail("mmap", err);
            }
        }
        close(fd); // the mappings keep the memory
    }
    ~host_ring() { munmap(d_base, 2 * d_bytes); }
    host_ring(const host_ring&) = delete;
    host_ring& operator=(const host_ring&) = delete;

    char* get() const { return d_base; }

private:
    [[noreturn]] void fail(const char* call, int err = errno) const
    {
        throw std::system_error(err,
                                std::generic_category(),
                                "device buffer: " + std::string(call) + " for " +
                                    std::to_string(d_bytes) +
                                    " bytes of host memory mapped twice");
    }

    std::size_t d_bytes;
    char* d_base = nullptr;
};

//! CUDA's virtual memory management, from the driver the runtime already loaded (the
//! library does not link the driver, so it loads on machines without one).
struct driver_api {
    PFN_cuGetErrorString_v6000 error_string = nullptr;
    PFN_cuMemGetAllocationGranularity_v10020 granularity = nullptr;
    PFN_cuMemCreate_v10020 create = nullptr;
    PFN_cuMemRelease_v10020 release = nullptr;
    PFN_cuMemAddressReserve_v10020 reserve = nullptr;
    PFN_cuMemAddressFree_v10020 address_free = nullptr;
    PFN_cuMemMap_v10020 map = nullptr;
    PFN_cuMemUnmap_v10020 unmap = nullptr;
    PFN_cuMemSetAccess_v10020 set_access = nullptr;

    template <class F>
    static void find(const char* symbol, F& fn)
    {
        void* p = nullptr;
        cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
        GPUFILTER_CHECK(cudaGetDriverEntryPointByVersion(
            symbol, &p, 12000, cudaEnableDefault, &found));
        if (found != cudaDriverEntryPointSuccess || !p)
            throw cuda_error(std::string("the CUDA driver has no ") + symbol, 0);
        fn = reinterpret_cast<F>(p);
    }

    static const driver_api& get()
    {
        static const driver_api api = [] {
            driver_api a;
            find("cuGetErrorString", a.error_string);
            find("cuMemGetAllocationGranularity", a.granularity);
            find("cuMemCreate", a.create);
            find("cuMemRelease", a.release);
            find("cuMemAddressReserve", a.reserve);
            find("cuMemAddressFree", a.address_free);
            find("cuMemMap", a.map);
            find("cuMemUnmap", a.unmap);
            find("cuMemSetAccess", a.set_access);
            return a;
        }();
        return api;
    }

    void check(CUresult r, const char* call) const
    {
        if (r == CUDA_SUCCESS)
            return;
        const char* text = nullptr;
        if (error_string(r, &text) != CUDA_SUCCESS || !text)
            text = "unknown error";
        throw cuda_error(std::string(call) + " failed (device buffer): " + text,
                         static_cast<int>(r));
    }
};

CUmemAllocationProp device_memory(int device)
{
    CUmemAllocationProp prop{};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = device;
    return prop;
}

//! Device memory mapped twice, back to back.
class device_ring
{
public:
    device_ring(int device, std::size_t bytes) : d_bytes(bytes)
    {
        const device_scope on(device);
        GPUFILTER_CHECK(cudaFree(nullptr)); // the device's context, for the driver calls
        const driver_api& cu = driver_api::get();
        const CUmemAllocationProp prop = device_memory(device);
        cu.check(cu.create(&d_handle, bytes, &prop, 0), "cuMemCreate");
        try {
            cu.check(cu.reserve(&d_base, 2 * bytes, 0, 0, 0), "cuMemAddressReserve");
            d_reserved = true;
            for (int half = 0; half < 2; ++half) {
                cu.check(cu.map(d_base + half * bytes, bytes, 0, d_handle, 0),
                         "cuMemMap");
                ++d_mapped;
            }
            CUmemAccessDesc access{};
            access.location = prop.location;
            access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
            for (int half = 0; half < 2; ++half) // per mapping, as the driver asks
                cu.check(cu.set_access(d_base + half * bytes, bytes, &access, 1),
                         "cuMemSetAccess");
            // Zeroed before any block's stream can touch it (blocks use their own
            // non-blocking streams, which do not wait for the default stream).
            stream zeroing;
            GPUFILTER_CHECK(cudaMemsetAsync(get(), 0, bytes, zeroing.get()));
            zeroing.synchronize();
        } catch (...) {
            release();
            throw;
        }
    }
    ~device_ring() { release(); }
    device_ring(const device_ring&) = delete;
    device_ring& operator=(const device_ring&) = delete;

    char* get() const
    {
        return reinterpret_cast<char*>(static_cast<std::uintptr_t>(d_base));
    }

private:
    void release() noexcept
    {
        const driver_api& cu = driver_api::get();
        for (int half = 0; half < d_mapped; ++half)
            cu.unmap(d_base + half * d_bytes, d_bytes);
        d_mapped = 0;
        if (d_reserved)
            cu.address_free(d_base, 2 * d_bytes);
        d_reserved = false;
        if (d_handle)
            cu.release(d_handle);
        d_handle = 0;
    }

    std::size_t d_bytes;
    CUmemGenericAllocationHandle d_handle = 0;
    CUdeviceptr d_base = 0;
    bool d_reserved = false;
    int d_mapped = 0;
};

} // namespace

std::size_t ring_memory::granularity(int device)
{
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    if (device == host_only)
        return page;
    if (device == emulated) { // a multiple of the page: whole pages are mapped twice
        stream_observer* observer = current_stream_observer();
        const std::size_t wanted = observer ? observer->emulated_ring_granularity() : 0;
        return (std::max(wanted, page) + page - 1) / page * page;
    }
    const device_scope on(device);
    GPUFILTER_CHECK(cudaFree(nullptr));
    const driver_api& cu = driver_api::get();
    const CUmemAllocationProp prop = device_memory(device);
    std::size_t g = 0;
    cu.check(cu.granularity(&g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM),
             "cuMemGetAllocationGranularity");
    // The host side is mapped in pages: a multiple of both (both are powers of two).
    return std::max(g, page);
}

struct ring_memory::impl {
    impl(int dev, std::size_t n) : device(dev), bytes(n), host(n) {}
    ~impl()
    {
        if (device_side && told)
            told->device_memory_freed(this, device, bytes);
    }

    int device;
    std::size_t bytes;
    host_ring host;
    char* device_side = nullptr;
    std::unique_ptr<host_ring> emulated_device; // emulated: the device side on the host
    std::unique_ptr<device_ring> device_mem;
    stream_observer* told = nullptr; // of the device side's making, so of its end too
};

ring_memory::ring_memory(int device, std::size_t bytes)
{
    if (bytes == 0 || bytes % granularity(device) != 0)
        throw std::invalid_argument("device buffer: " + std::to_string(bytes) +
                                    " bytes is not a multiple of the ring granularity");
    d_impl = std::make_unique<impl>(device, bytes);
}

ring_memory::~ring_memory() = default;

char* ring_memory::host() const { return d_impl->host.get(); }

char* ring_memory::device()
{
    impl& m = *d_impl;
    if (m.device_side)
        return m.device_side;
    if (m.device == host_only)
        throw std::logic_error("device buffer: a host-only ring has no device side");
    stream_observer* observer = current_stream_observer();
    if (observer)
        observer->before_device_memory(m.device, m.bytes);
    if (m.device == emulated) {
        m.emulated_device = std::make_unique<host_ring>(m.bytes);
        m.device_side = m.emulated_device->get();
    } else {
        m.device_mem = std::make_unique<device_ring>(m.device, m.bytes);
        m.device_side = m.device_mem->get();
    }
    m.told = observer;
    if (observer)
        observer->device_memory_made(&m, m.device, m.bytes);
    return m.device_side;
}

std::size_t ring_memory::bytes() const { return d_impl->bytes; }

void ring_memory::copy_between_homes(bool to_device)
{
    char* dev = device();
    char* dst = to_device ? dev : host();
    const char* src = to_device ? host() : dev;
    if (d_impl->device == emulated) {
        std::memcpy(dst, src, bytes());
        return;
    }
    const device_scope on(d_impl->device);
    GPUFILTER_CHECK(cudaMemcpy(
        dst, src, bytes(), to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost));
    // From pageable memory cudaMemcpy may return before the DMA has landed, and the
    // blocks' non-blocking streams do not wait for it.
    GPUFILTER_CHECK(cudaDeviceSynchronize());
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
