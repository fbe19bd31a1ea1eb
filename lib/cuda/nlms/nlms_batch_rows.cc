/* SPDX-License-Identifier: GPL-3.0-or-later */
// nlms_batch_rows: the NumPy batch form's rows through the NLMS engine, with the host
// copies overlapped with the kernel (pageable copies for short calls, pinned staging
// filled by host threads for long ones).
#include "../common/resources.h"
#include "nlms_engine.h"
#include "nlms_host.h"
#include "streaming_copy.h"
#include <condition_variable>
#include <system_error>
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {

// The batch's pipeline: a call in chunks of samples, at least min_chunks of them, so
// that the first copy in and the last copy out, which nothing hides, stay short; never
// under min_chunk samples (a launch reloads every filter's taps). Calls of at least
// staged_bytes copy through pinned staging: pageable copies run at 6 to 9 GB/s, under
// what the kernel needs at thousands of filters, while host threads (max_copiers,
// each at least copier_bytes a chunk) fill the staging with streaming stores; below,
// pageable copies hide behind the kernel without the staging's cost. Staged,
// pipeline_sets chunks are in flight (one filled and drained by the host, one copied,
// one on the kernel), a chunk's x about stage_bytes.
//
// The host threads are what a staged call waits on: at 1024 filters of 4096 taps on
// an H200 host, 4 threads with memcpy kept the GPU waiting for its input in nearly
// every chunk (143 ms median end to end for 100 ms of kernels); 12 threads with
// streaming stores gave 122-127 ms. Most of what remains is the first time the output
// rows are written: the caller's fresh array is faulted in (and zeroed) then.
constexpr std::size_t min_chunks = 16;
constexpr std::size_t min_chunk = 1024;
constexpr std::size_t staged_bytes = std::size_t(256) << 20;
constexpr std::size_t pipeline_sets = 3;
constexpr std::size_t stage_bytes = std::size_t(4) << 20;
constexpr std::size_t copier_bytes = std::size_t(1) << 20;
constexpr unsigned max_copiers = 12;

//! Threads that run a job in parts, the calling thread part 0; kept for a whole call.
class copiers
{
public:
    explicit copiers(unsigned parts)
    {
        try {
            for (unsigned p = 1; p < parts; ++p)
                d_threads.emplace_back([this, p] { serve(p); });
        } catch (const std::system_error&) {
            // Fewer threads than asked: the copies take longer, nothing else changes.
        }
    }
    ~copiers()
    {
        {
            std::lock_guard<std::mutex> lock(d_mutex);
            d_stop = true;
        }
        d_wake.notify_all();
        for (auto& t : d_threads)
            t.join();
    }
    copiers(const copiers&) = delete;
    copiers& operator=(const copiers&) = delete;

    unsigned parts() const { return static_cast<unsigned>(d_threads.size()) + 1; }

    //! job(p) for p in [0, parts()); returns when all have returned. job must not throw.
    void run(const std::function<void(unsigned)>& job)
    {
        {
            std::lock_guard<std::mutex> lock(d_mutex);
            d_job = &job;
            d_pending = static_cast<unsigned>(d_threads.size());
            ++d_generation;
        }
        d_wake.notify_all();
        job(0);
        std::unique_lock<std::mutex> lock(d_mutex);
        d_done.wait(lock, [this] { return d_pending == 0; });
    }

private:
    void serve(unsigned p)
    {
        std::uint64_t seen = 0;
        for (;;) {
            const std::function<void(unsigned)>* job;
            {
                std::unique_lock<std::mutex> lock(d_mutex);
                d_wake.wait(lock, [&] { return d_stop || d_generation != seen; });
                if (d_stop)
                    return;
                seen = d_generation;
                job = d_job;
            }
            (*job)(p);
            std::lock_guard<std::mutex> lock(d_mutex);
            if (--d_pending == 0)
                d_done.notify_one();
        }
    }

    std::vector<std::thread> d_threads;
    std::mutex d_mutex;
    std::condition_variable d_wake, d_done;
    const std::function<void(unsigned)>* d_job = nullptr;
    std::uint64_t d_generation = 0;
    unsigned d_pending = 0;
    bool d_stop = false;
};

//! Waits for the streams before what they use is freed: after an error, copies and
//! kernels may still be in flight.
class stream_drain
{
public:
    explicit stream_drain(std::initializer_list<cudaStream_t> s) : d_streams(s) {}
    ~stream_drain()
    {
        for (cudaStream_t s : d_streams)
            cudaStreamSynchronize(s); // errors are the caller's exception already
    }

private:
    std::vector<cudaStream_t> d_streams;
};

//! Pinned staging kept from call to call, one buffer for each device: allocating
//! pinned memory costs about as much as copying it ten times (0.7 ms a MiB on an H100
//! host), so a loop of batch calls pays for it once. Freed at exit.
class staging_cache
{
public:
    //! At least n floats for `device`: the kept buffer when it is large enough.
    static pinned_buffer<float> take(int device, std::size_t n)
    {
        {
            auto& c = instance();
            std::lock_guard<std::mutex> lock(c.d_mutex);
            if (c.d_device == device && c.d_buffer.size() >= n)
                return std::move(c.d_buffer);
        }
        return pinned_buffer<float>(n);
    }
    //! Keeps b if it is larger than the kept buffer (or this device's).
    static void give(int device, pinned_buffer<float>&& b)
    {
        auto& c = instance();
        std::lock_guard<std::mutex> lock(c.d_mutex);
        if (c.d_device != device || b.size() > c.d_buffer.size()) {
            c.d_buffer = std::move(b);
            c.d_device = device;
        }
    }

private:
    static staging_cache& instance()
    {
        static staging_cache c; // made after CUDA's start, so freed before its end
        return c;
    }
    std::mutex d_mutex;
    int d_device = -1;
    pinned_buffer<float> d_buffer;
};

//! A staging buffer from the cache, given back at the end of its scope.
class staging_lease
{
public:
    staging_lease(int device, std::size_t n)
        : d_device(device), d_buffer(staging_cache::take(device, n))
    {
    }
    ~staging_lease() { staging_cache::give(d_device, std::move(d_buffer)); }
    staging_lease(const staging_lease&) = delete;
    staging_lease& operator=(const staging_lease&) = delete;
    float* get() const { return d_buffer.get(); }

private:
    int d_device;
    pinned_buffer<float> d_buffer;
};

//! One group's rows and the chunk length.
struct batch_group {
    const float* x;
    const float* d;
    float* e;
    std::size_t rows, nsamples, chunk;
    std::size_t nchunks() const { return (nsamples + chunk - 1) / chunk; }
    std::size_t length(std::size_t j) const
    {
        return std::min(chunk, nsamples - j * chunk);
    }
};

/*!
 * What the groups of a call share, made once a call: the device buffers of the chunks
 * in flight (sized for a whole group) and the streams. Made once a group, each group
 * after the first would wait at cudaFree for the whole device.
 */
struct batch_pipeline {
    device_buffer<float> dev;
    stream copy_in, run, copy_out;
};

/*!
 * The group in chunks from and to pageable memory: each copy returns once the host
 * side of it is done, on its own stream, while the kernel runs the chunk before.
 * Chunk j goes in, chunk j's kernel is queued, then chunk j-1 comes out (this waits
 * for its kernel): the kernel stream always holds the next chunk. Two sets of device
 * buffers: chunk j goes in after chunk j-2 is out.
 */
void run_pageable(nlms_engine& engine, const batch_group& b, batch_pipeline& p)
{
    const std::size_t nsets = std::min<std::size_t>(2, b.nchunks());
    const std::size_t stage = b.rows * b.chunk; // floats of one array of one chunk
    float* const dev = p.dev.get();
    event copied_in[2], ran[2], copied_out[2];
    cudaStream_t copy_in = p.copy_in, run = p.run, copy_out = p.copy_out;
    const stream_drain drain{ copy_in, run, copy_out };
    const std::size_t host_pitch = b.nsamples * sizeof(float);
    const std::size_t dev_pitch = b.chunk * sizeof(float);
    auto at = [&](std::size_t j, int array) {
        return dev + (3 * (j % nsets) + array) * stage;
    };
    auto copy_out_chunk = [&](std::size_t j) {
        GPUFILTER_CHECK(cudaStreamWaitEvent(copy_out, ran[j % nsets], 0));
        GPUFILTER_CHECK(cudaMemcpy2DAsync(b.e + j * b.chunk,
                                          host_pitch,
                                          at(j, 2),
                                          dev_pitch,
                                          b.length(j) * sizeof(float),
                                          b.rows,
                                          cudaMemcpyDeviceToHost,
                                          copy_out));
        copied_out[j % nsets].record(copy_out);
    };
    for (std::size_t j = 0; j < b.nchunks(); ++j) {
        const std::size_t width = b.length(j) * sizeof(float);
        if (j >= nsets)
            GPUFILTER_CHECK(cudaStreamWaitEvent(copy_in, copied_out[j % nsets], 0));
        for (int a = 0; a < 2; ++a)
            GPUFILTER_CHECK(cudaMemcpy2DAsync(at(j, a),
                                              dev_pitch,
                                              (a ? b.d : b.x) + j * b.chunk,
                                              host_pitch,
                                              width,
                                              b.rows,
                                              cudaMemcpyHostToDevice,
                                              copy_in));
        copied_in[j % nsets].record(copy_in);
        GPUFILTER_CHECK(cudaStreamWaitEvent(run, copied_in[j % nsets], 0));
        engine.process_rows(at(j, 0), at(j, 1), at(j, 2), b.chunk, b.length(j), run);
        ran[j % nsets].record(run);
        if (j > 0)
            copy_out_chunk(j - 1);
    }
    copy_out_chunk(b.nchunks() - 1);
    GPUFILTER_CHECK(cudaStreamSynchronize(copy_out)); // pageable: done already
}

/*!
 * The group in chunks through pinned staging: host threads gather chunk j's rows into
 * the staging and scatter chunk j - sets's e out of it, while the GPU copies chunk
 * j-1 in and chunk j-2 out on two streams and runs the kernel on a third.
 */
void run_staged(nlms_engine& engine,
                const batch_group& b,
                int device,
                copiers& threads,
                batch_pipeline& p)
{
    constexpr std::size_t S = pipeline_sets;
    const std::size_t stage = b.rows * b.chunk;
    float* const dev = p.dev.get();
    const staging_lease host(device, 3 * S * stage);
    struct chunk_set {
        event copied_in, ran, copied_out{ event_use::host_wait };
    } sets[S];
    cudaStream_t copy_in = p.copy_in, run = p.run, copy_out = p.copy_out;
    const stream_drain drain{ copy_in, run, copy_out };
    auto at = [stage](float* base, std::size_t set, int array) {
        return base + (3 * set + array) * stage;
    };
    const std::size_t nchunks = b.nchunks();
    for (std::size_t j = 0; j < nchunks + S; ++j) {
        const std::size_t set = j % S;
        const bool in = j < nchunks, out = j >= S; // chunk j in, chunk j - S out
        if (out) // the set's previous chunk is through: its staging is free
            sets[set].copied_out.synchronize();
        if (in || out)
            threads.run([&](unsigned p) {
                const std::size_t parts = threads.parts();
                const std::size_t r0 = b.rows * p / parts, r1 = b.rows * (p + 1) / parts;
                for (std::size_t r = r0; r < r1; ++r) {
                    if (out)
                        streaming_copy(b.e + r * b.nsamples + (j - S) * b.chunk,
                                       at(host.get(), set, 2) + r * b.chunk,
                                       b.length(j - S) * sizeof(float));
                    if (!in)
                        continue;
                    const std::size_t row = r * b.nsamples + j * b.chunk;
                    const std::size_t width = b.length(j) * sizeof(float);
                    streaming_copy(
                        at(host.get(), set, 0) + r * b.chunk, b.x + row, width);
                    streaming_copy(
                        at(host.get(), set, 1) + r * b.chunk, b.d + row, width);
                }
                streaming_copy_fence(); // before the copy engine reads the staging
            });
        if (!in)
            continue;
        const std::size_t n = b.length(j);
        const std::size_t bytes = ((b.rows - 1) * b.chunk + n) * sizeof(float);
        for (int a = 0; a < 2; ++a)
            GPUFILTER_CHECK(cudaMemcpyAsync(at(dev, set, a),
                                            at(host.get(), set, a),
                                            bytes,
                                            cudaMemcpyHostToDevice,
                                            copy_in));
        sets[set].copied_in.record(copy_in);
        GPUFILTER_CHECK(cudaStreamWaitEvent(run, sets[set].copied_in, 0));
        engine.process_rows(
            at(dev, set, 0), at(dev, set, 1), at(dev, set, 2), b.chunk, n, run);
        sets[set].ran.record(run);
        GPUFILTER_CHECK(cudaStreamWaitEvent(copy_out, sets[set].ran, 0));
        GPUFILTER_CHECK(cudaMemcpyAsync(at(host.get(), set, 2),
                                        at(dev, set, 2),
                                        bytes,
                                        cudaMemcpyDeviceToHost,
                                        copy_out));
        sets[set].copied_out.record(copy_out);
    }
}

} // namespace

void nlms_batch_rows(int device,
                     const float* x,
                     const float* d,
                     std::size_t nfilters,
                     std::size_t nsamples,
                     int ntaps,
                     const std::vector<float>& mu,
                     float eps,
                     float* e,
                     float* taps_out,
                     std::size_t max_bytes)
{
    if (nfilters == 0)
        return;
    const auto all_mu = checked_nlms_mus(mu, static_cast<int>(nfilters));
    use_device(device);
    if (nsamples == 0) { // no step: the initial taps, without an engine or streams
        std::fill(taps_out, taps_out + nfilters * static_cast<std::size_t>(ntaps), 0.0f);
        return;
    }
    // A group of filters per launch (as many as fill the GPU and whose state, taps
    // and history, fits in half of max_bytes), and the chunks in flight in the other
    // half, of a length that is a multiple of 4 (16-byte row starts on the device).
    const std::size_t state_bytes = 2 * sizeof(float) * static_cast<std::size_t>(ntaps);
    const std::size_t group = std::max<std::size_t>(
        1, std::min<std::size_t>({ nfilters, 4096, max_bytes / 2 / state_bytes }));
    const std::size_t row_bytes = 3 * sizeof(float) * group; // x, d, e per sample
    const bool staged = row_bytes * nsamples >= staged_bytes;
    std::size_t chunk = std::min({ max_bytes / 2 / pipeline_sets / row_bytes,
                                   stage_bytes / sizeof(float) / group,
                                   (nsamples + min_chunks - 1) / min_chunks });
    chunk = std::min(std::max(chunk, min_chunk), nsamples);
    chunk = std::max<std::size_t>((chunk + 3) / 4 * 4, 4);
    std::unique_ptr<copiers> threads;
    if (staged) {
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        const std::size_t parts = std::min<std::size_t>(
            { max_copiers, cores, group, row_bytes * chunk / copier_bytes });
        threads = std::make_unique<copiers>(std::max<std::size_t>(parts, 1));
    }
    batch_pipeline pipeline{ device_buffer<float>(3 * pipeline_sets * group * chunk) };
    stream s;
    // One engine for the groups of `group` filters, reset between them; a shorter
    // last group gets its own.
    std::unique_ptr<nlms_engine> engine;
    for (std::size_t f0 = 0; f0 < nfilters; f0 += group) {
        const std::size_t g = std::min(group, nfilters - f0);
        std::vector<float> mus(all_mu.begin() + f0, all_mu.begin() + f0 + g);
        if (engine && engine->nfilters() == static_cast<int>(g)) {
            engine->reset(s);
            engine->set_mu(mus, s);
        } else {
            engine = std::make_unique<nlms_engine>(ntaps, static_cast<int>(g), mus, eps);
        }
        const std::size_t first = f0 * nsamples;
        const batch_group b{ x + first, d + first, e + first, g, nsamples, chunk };
        if (staged)
            run_staged(*engine, b, device, *threads, pipeline);
        else
            run_pageable(*engine, b, pipeline);
        engine->copy_all_taps(taps_out + f0 * ntaps, s);
    }
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
