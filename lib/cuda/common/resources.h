/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_RESOURCES_H
#define INCLUDED_GPUFILTER_CUDA_RESOURCES_H

// Move-only owners of CUDA resources. Nothing else in the project calls
// cudaMalloc/cudaFree/cudaStreamCreate/... directly, so every resource is released
// exactly once, also when a constructor throws half-way.

#include "cuda_check.h"
#include <chrono>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

//! Makes `device` current for this thread (GNU Radio runs each block in its own thread).
inline void use_device(int device) { GPUFILTER_CHECK(cudaSetDevice(device)); }

//! Makes `device` current for the calls in its scope and then restores the caller's
//! device: for what is made from a thread that is not the block's own (GNU Radio
//! makes buffers in the user's thread), whose CUDA code must not find another device
//! current afterwards.
class device_scope
{
public:
    explicit device_scope(int device)
    {
        GPUFILTER_CHECK(cudaGetDevice(&d_previous));
        use_device(device);
    }
    ~device_scope() { cudaSetDevice(d_previous); }
    device_scope(const device_scope&) = delete;
    device_scope& operator=(const device_scope&) = delete;

private:
    int d_previous = 0;
};

//! Waits for what the synchronous API queued on the legacy default stream: a
//! cudaMemcpy from pageable memory may return before its DMA ends, a cudaMemset
//! before it runs, and the non-blocking streams (`stream`) do not wait for either.
inline void wait_for_default_stream()
{
    GPUFILTER_CHECK(cudaStreamSynchronize(cudaStreamLegacy));
}

template <class Handle, class Traits>
class unique_handle
{
public:
    unique_handle() = default;
    explicit unique_handle(Handle h) : d_h(h) {}
    unique_handle(unique_handle&& o) noexcept : d_h(std::exchange(o.d_h, Handle{})) {}
    unique_handle& operator=(unique_handle&& o) noexcept
    {
        if (this != &o) {
            reset();
            d_h = std::exchange(o.d_h, Handle{});
        }
        return *this;
    }
    unique_handle(const unique_handle&) = delete;
    unique_handle& operator=(const unique_handle&) = delete;
    ~unique_handle() { reset(); }

    Handle get() const { return d_h; }
    operator Handle() const { return d_h; }
    void reset()
    {
        if (d_h)
            Traits::destroy(
                d_h); // errors at teardown are ignored: nothing can act on them
        d_h = Handle{};
    }

private:
    Handle d_h{};
};

struct stream_traits {
    static void destroy(cudaStream_t s) { cudaStreamDestroy(s); }
};
struct event_traits {
    static void destroy(cudaEvent_t e) { cudaEventDestroy(e); }
};

//! A non-blocking stream (does not synchronize with the legacy default stream).
class stream : public unique_handle<cudaStream_t, stream_traits>
{
public:
    stream() : unique_handle(create()) {}
    void synchronize() const { GPUFILTER_CHECK(cudaStreamSynchronize(get())); }

private:
    static cudaStream_t create()
    {
        cudaStream_t s;
        GPUFILTER_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        return s;
    }
};

//! What an event is for: GPU-side order only (plain), timing, or a wait of the host
//! thread (host_wait: synchronize() sleeps, cudaEventBlockingSync). With fewer CUDA
//! contexts than cores CUDA spins by default: each GPU block's thread would keep a
//! core busy for as long as its GPU work runs. A sleeping wait costs a wake-up of a
//! few microseconds instead, and less host CPU in the measurement docs/benchmarks.md
//! gives ("Device buffers").
enum class event_use { plain, timing, host_wait };

//! An event; timing is off unless asked for (cheaper to record and wait on).
class event : public unique_handle<cudaEvent_t, event_traits>
{
public:
    explicit event(event_use use = event_use::plain) : unique_handle(create(use)) {}
    void record(cudaStream_t s) const { GPUFILTER_CHECK(cudaEventRecord(get(), s)); }
    void synchronize() const { GPUFILTER_CHECK(cudaEventSynchronize(get())); }
    //! Polls for up to `spin`, then sleeps as synchronize() does. A host_wait event's
    //! sleep is ended by an interrupt, a cost of the order of a small call's whole
    //! GPU round trip; work that takes longer than the spin still costs no core.
    void synchronize_spinning_first(std::chrono::microseconds spin) const
    {
        const auto until = std::chrono::steady_clock::now() + spin;
        do {
            const cudaError_t state = cudaEventQuery(get());
            if (state == cudaSuccess)
                return;
            if (state != cudaErrorNotReady)
                GPUFILTER_CHECK(state);
        } while (std::chrono::steady_clock::now() < until);
        synchronize();
    }

private:
    static cudaEvent_t create(event_use use)
    {
        unsigned flags = cudaEventDisableTiming;
        if (use == event_use::timing)
            flags = cudaEventDefault;
        else if (use == event_use::host_wait)
            flags |= cudaEventBlockingSync;
        cudaEvent_t e;
        GPUFILTER_CHECK(cudaEventCreateWithFlags(&e, flags));
        return e;
    }
};

//! Typed memory owner; Alloc supplies allocate/free (device or pinned host memory).
template <class T, class Alloc>
class buffer
{
public:
    buffer() = default;
    explicit buffer(std::size_t n) : d_size(n)
    {
        if (n)
            d_ptr = static_cast<T*>(Alloc::allocate(n * sizeof(T)));
    }
    buffer(buffer&& o) noexcept
        : d_ptr(std::exchange(o.d_ptr, nullptr)), d_size(std::exchange(o.d_size, 0))
    {
    }
    buffer& operator=(buffer&& o) noexcept
    {
        if (this != &o) {
            release();
            d_ptr = std::exchange(o.d_ptr, nullptr);
            d_size = std::exchange(o.d_size, 0);
        }
        return *this;
    }
    buffer(const buffer&) = delete;
    buffer& operator=(const buffer&) = delete;
    ~buffer() { release(); }

    T* get() const { return d_ptr; }
    std::size_t size() const { return d_size; }
    std::size_t bytes() const { return d_size * sizeof(T); }

private:
    void release()
    {
        if (d_ptr)
            Alloc::release(d_ptr);
        d_ptr = nullptr;
        d_size = 0;
    }
    T* d_ptr = nullptr;
    std::size_t d_size = 0;
};

struct device_alloc {
    static void* allocate(std::size_t bytes)
    {
        void* p;
        // The size in the message: "out of memory" alone does not say what to shrink.
        const cudaError_t err = cudaMalloc(&p, bytes);
        if (err != cudaSuccess)
            throw_error(err,
                        ("cudaMalloc of " + std::to_string(bytes) + " bytes").c_str(),
                        __FILE__,
                        __LINE__);
        return p;
    }
    static void release(void* p) { cudaFree(p); }
};
struct pinned_alloc {
    static void* allocate(std::size_t bytes)
    {
        void* p;
        const cudaError_t err = cudaHostAlloc(&p, bytes, cudaHostAllocDefault);
        if (err != cudaSuccess)
            throw_error(err,
                        ("cudaHostAlloc of " + std::to_string(bytes) + " bytes").c_str(),
                        __FILE__,
                        __LINE__);
        return p;
    }
    static void release(void* p) { cudaFreeHost(p); }
};

/*!
 * A cuFFT plan handle (cufftCreate/cufftDestroy). Not a unique_handle: 0 is a valid
 * cufftHandle, so validity is tracked separately. The plan is made by the owner
 * (cufftMakePlanMany on get()) after creation.
 */
class fft_plan
{
public:
    fft_plan() = default;
    static fft_plan create()
    {
        fft_plan p;
        GPUFILTER_CHECK(cufftCreate(&p.d_h));
        p.d_valid = true;
        return p;
    }
    fft_plan(fft_plan&& o) noexcept : d_h(o.d_h), d_valid(std::exchange(o.d_valid, false))
    {
    }
    fft_plan& operator=(fft_plan&& o) noexcept
    {
        if (this != &o) {
            reset();
            d_h = o.d_h;
            d_valid = std::exchange(o.d_valid, false);
        }
        return *this;
    }
    fft_plan(const fft_plan&) = delete;
    fft_plan& operator=(const fft_plan&) = delete;
    ~fft_plan() { reset(); }

    cufftHandle get() const { return d_h; }
    explicit operator bool() const { return d_valid; }
    void reset()
    {
        if (d_valid)
            cufftDestroy(d_h); // errors at teardown are ignored: nothing can act on them
        d_valid = false;
    }

private:
    cufftHandle d_h = 0;
    bool d_valid = false;
};

template <class T>
using device_buffer = buffer<T, device_alloc>;
template <class T>
using pinned_buffer = buffer<T, pinned_alloc>;

/*!
 * \brief Copies `host` into `dst` on stream s, making `dst` larger first when it is
 * too small (taps, tables: set-up data, never per call). From pageable memory the
 * call returns once `host` has been read. The caller has made sure that no queued
 * work still reads `dst`.
 */
template <class T>
void upload_growing(device_buffer<T>& dst, const std::vector<T>& host, cudaStream_t s)
{
    if (dst.size() < host.size())
        dst = device_buffer<T>(host.size());
    GPUFILTER_CHECK(cudaMemcpyAsync(
        dst.get(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice, s));
}

//! A device copy of `host` (a table made once), complete on return: any stream may
//! read it at once.
template <class T>
device_buffer<T> uploaded(const std::vector<T>& host)
{
    device_buffer<T> dst(host.size());
    stream s;
    GPUFILTER_CHECK(cudaMemcpyAsync(
        dst.get(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice, s));
    s.synchronize();
    return dst;
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
