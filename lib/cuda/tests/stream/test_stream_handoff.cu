/* SPDX-License-Identifier: GPL-3.0-or-later */
// stream_handoff: a device buffer's writer and readers queue their GPU work on their
// own streams, without waiting on the host, and the GPU still runs it in order. A
// slow kernel (it waits ~20 ms before touching memory) on one stream makes any
// missing order visible: without the handoff's waits, the other stream's work would
// run first and see (or destroy) the wrong values.
#include "../gpu_test_env.h"
#include "common/resources.h"
#include "stream/stream_handoff.h"
#include <gtest/gtest.h>
#include <cstdint>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {
namespace {

constexpr std::uint32_t words = 1 << 16;

//! out[i] = first + i, after about `delay_ns` (one thread per word).
__global__ void slow_fill(std::uint32_t* out, std::uint32_t first, unsigned delay_ns)
{
    for (unsigned waited = 0; waited < delay_ns; waited += 1000)
        __nanosleep(1000);
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < words)
        out[i] = first + i;
}

//! out[i] = in[i], after about `delay_ns`.
__global__ void slow_copy(const std::uint32_t* in, std::uint32_t* out, unsigned delay_ns)
{
    for (unsigned waited = 0; waited < delay_ns; waited += 1000)
        __nanosleep(1000);
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < words)
        out[i] = in[i];
}

constexpr unsigned slow = 20000000; // 20 ms: far longer than launching the other side
constexpr unsigned blocks = words / 256;

std::vector<std::uint32_t> download(const device_buffer<std::uint32_t>& d)
{
    std::vector<std::uint32_t> h(words);
    GPUFILTER_CHECK(cudaMemcpy(h.data(), d.get(), words * 4, cudaMemcpyDeviceToHost));
    return h;
}

void expect_run(const std::vector<std::uint32_t>& h,
                std::uint32_t first,
                const char* what)
{
    for (std::uint32_t i = 0; i < words; i += 997)
        ASSERT_EQ(h[i], first + i) << what << ", word " << i;
}

TEST(stream_handoff, reader_waits_for_the_writers_queued_kernel)
{
    GPUFILTER_REQUIRE_DEVICE_OR_SKIP();
    use_device(0);
    device_buffer<std::uint32_t> ring(words), seen(words);
    GPUFILTER_CHECK(cudaMemset(ring.get(), 0, words * 4));
    wait_for_default_stream();
    stream writer, reader;
    stream_handoff handoff(0);

    handoff.before_write(writer);
    slow_fill<<<blocks, 256, 0, writer>>>(ring.get(), 1000, slow);
    handoff.after_write(writer);
    // The writer's thread returns now; the reader is handed the items at once.
    handoff.before_read(reader);
    slow_copy<<<blocks, 256, 0, reader>>>(ring.get(), seen.get(), 0);
    handoff.after_read(&reader, reader);
    reader.synchronize();
    expect_run(download(seen), 1000, "the reader saw the writer's items");
    writer.synchronize();
}

TEST(stream_handoff, writer_waits_for_every_readers_queued_kernel)
{
    GPUFILTER_REQUIRE_DEVICE_OR_SKIP();
    use_device(0);
    device_buffer<std::uint32_t> ring(words), seen_a(words), seen_b(words);
    stream writer, reader_a, reader_b;
    stream_handoff handoff(0);

    handoff.before_write(writer);
    slow_fill<<<blocks, 256, 0, writer>>>(ring.get(), 1000, 0);
    handoff.after_write(writer);
    // Two readers, the second one slow: the space is freed when both return.
    handoff.before_read(reader_a);
    slow_copy<<<blocks, 256, 0, reader_a>>>(ring.get(), seen_a.get(), 0);
    handoff.after_read(&reader_a, reader_a);
    handoff.before_read(reader_b);
    slow_copy<<<blocks, 256, 0, reader_b>>>(ring.get(), seen_b.get(), slow);
    handoff.after_read(&reader_b, reader_b);
    // The writer reuses the space at once: its kernel must wait for both reads.
    handoff.before_write(writer);
    slow_fill<<<blocks, 256, 0, writer>>>(ring.get(), 5000000, 0);
    handoff.after_write(writer);
    writer.synchronize();
    reader_a.synchronize();
    reader_b.synchronize();
    expect_run(download(seen_a), 1000, "first reader");
    expect_run(download(seen_b), 1000, "slow second reader");
    expect_run(download(ring), 5000000, "the writer's second items");
}

TEST(stream_handoff, a_readers_later_calls_reuse_its_event)
{
    GPUFILTER_REQUIRE_DEVICE_OR_SKIP();
    use_device(0);
    device_buffer<std::uint32_t> ring(words), seen(words);
    stream writer, reader;
    stream_handoff handoff(0);
    for (std::uint32_t call = 0; call < 4; ++call) {
        handoff.before_write(writer);
        slow_fill<<<blocks, 256, 0, writer>>>(ring.get(), call * 100000, slow / 4);
        handoff.after_write(writer);
        handoff.before_read(reader);
        slow_copy<<<blocks, 256, 0, reader>>>(ring.get(), seen.get(), slow / 4);
        handoff.after_read(&reader, reader);
    }
    writer.synchronize();
    reader.synchronize();
    expect_run(download(seen), 300000, "the last call's items");
}

TEST(stream_handoff, leaves_the_callers_device_current)
{
    GPUFILTER_REQUIRE_DEVICE_OR_SKIP();
    use_device(0);
    stream s;
    stream_handoff handoff(0);
    handoff.after_read(&s, s);
    int current = -1;
    GPUFILTER_CHECK(cudaGetDevice(&current));
    EXPECT_EQ(current, 0);
}

} // namespace
} // namespace cuda
} // namespace gpufilter
} // namespace gr
