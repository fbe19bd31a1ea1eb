/* SPDX-License-Identifier: GPL-3.0-or-later */
// The double-mapped rings behind device buffers: a window past the end of a ring is
// the ring's start, on the host (without a GPU too) and on the device.
#include "../gpu_test_env.h"
#include "common/resources.h"
#include "stream/ring_memory.h"
#include "stream/stream_observer.h"
#include <gtest/gtest.h>
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {
namespace {

__global__ void write_index(std::uint32_t* out, std::uint32_t first, std::uint32_t n)
{
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = first + i;
}

__global__ void copy_words(const std::uint32_t* in, std::uint32_t* out, std::uint32_t n)
{
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

//! Installed while it lives: counts the device side's bytes, refuses device memory
//! while asked, gives emulated rings the granularity asked. Made before the rings it
//! watches, so it outlives them.
class ring_observer final : public stream_observer
{
public:
    ring_observer() : d_replaced(set_stream_observer(this)) {}
    ~ring_observer() override { set_stream_observer(d_replaced); }

    void before_device_memory(int, std::size_t bytes) override
    {
        if (refuse)
            throw std::runtime_error(std::to_string(bytes) + " bytes refused");
    }
    void device_memory_made(const void*, int, std::size_t bytes) override
    {
        live += bytes;
    }
    void device_memory_freed(const void*, int, std::size_t bytes) override
    {
        live -= bytes;
    }
    std::size_t emulated_ring_granularity() override { return granularity; }

    std::size_t live = 0;
    bool refuse = false;
    std::size_t granularity = 0;

private:
    stream_observer* d_replaced;
};

void check_host_side(char* base, std::size_t bytes)
{
    auto* words = reinterpret_cast<std::uint32_t*>(base);
    const std::size_t n = bytes / 4;
    for (std::size_t i = 0; i < 2 * n; ++i)
        ASSERT_EQ(words[i], 0u) << "rings start zeroed, at word " << i;
    // Written across the end: lands at the start too.
    for (std::uint32_t i = 0; i < 64; ++i)
        words[n - 32 + i] = 1000 + i;
    for (std::uint32_t i = 0; i < 32; ++i) {
        EXPECT_EQ(words[i], 1000 + 32 + i);
        EXPECT_EQ(words[n + i], 1000 + 32 + i);
    }
}

TEST(ring_memory, host_side_is_mapped_twice)
{
    const std::size_t g = ring_memory::granularity(ring_memory::emulated);
    ring_memory ring(ring_memory::emulated, 3 * g);
    check_host_side(ring.host(), ring.bytes());
}

TEST(ring_memory, emulated_device_side_is_mapped_twice)
{
    const std::size_t g = ring_memory::granularity(ring_memory::emulated);
    ring_observer observer;
    {
        ring_memory ring(ring_memory::emulated, 2 * g);
        EXPECT_EQ(observer.live, 0u); // the device side is made on first use
        check_host_side(ring.device(), ring.bytes());
        EXPECT_EQ(observer.live, 2 * g);
    }
    EXPECT_EQ(observer.live, 0u);
}

TEST(ring_memory, freeing_is_told_to_the_observer_told_of_the_making)
{
    const std::size_t g = ring_memory::granularity(ring_memory::emulated);
    ring_observer first;
    {
        ring_memory ring(ring_memory::emulated, g);
        ring.device();
        ring_observer second; // installed in between, and gone before the ring
        EXPECT_EQ(first.live, g);
    }
    EXPECT_EQ(first.live, 0u);
}

TEST(ring_memory, refuses_sizes_off_the_granularity)
{
    const std::size_t g = ring_memory::granularity(ring_memory::emulated);
    EXPECT_THROW(ring_memory(ring_memory::emulated, g + 8), std::invalid_argument);
    EXPECT_THROW(ring_memory(ring_memory::emulated, 0), std::invalid_argument);
}

TEST(ring_memory, host_only_ring_has_no_device_side)
{
    const std::size_t g = ring_memory::granularity(ring_memory::host_only);
    EXPECT_EQ(g % 4096, 0u);
    ring_memory ring(ring_memory::host_only, g);
    check_host_side(ring.host(), ring.bytes());
    EXPECT_THROW(ring.device(), std::logic_error);
}

TEST(ring_memory, emulated_granularity_follows_the_observer)
{
    const std::size_t page = ring_memory::granularity(ring_memory::host_only);
    EXPECT_EQ(ring_memory::granularity(ring_memory::emulated), page); // none installed
    ring_observer observer;
    observer.granularity = std::size_t(2) << 20;
    EXPECT_EQ(ring_memory::granularity(ring_memory::emulated), std::size_t(2) << 20);
    observer.granularity = page + 1; // whole pages
    EXPECT_EQ(ring_memory::granularity(ring_memory::emulated), 2 * page);
    observer.granularity = 0;
    EXPECT_EQ(ring_memory::granularity(ring_memory::emulated), page);
    EXPECT_EQ(ring_memory::granularity(ring_memory::host_only), page);
}

TEST(ring_memory, device_side_that_cannot_be_made_throws)
{
    ring_observer observer;
    ring_memory ring(ring_memory::emulated,
                     ring_memory::granularity(ring_memory::emulated));
    observer.refuse = true;
    EXPECT_THROW(ring.device(), std::runtime_error);
    EXPECT_EQ(observer.live, 0u);
    observer.refuse = false;
    check_host_side(ring.host(), ring.bytes()); // the host side is still whole
    EXPECT_NE(ring.device(), nullptr);
    EXPECT_EQ(observer.live, ring.bytes());
}

//! Fills the host side, moves it to the device side and back, changed on the way.
void check_items_move_between_homes(int device)
{
    const std::size_t g = ring_memory::granularity(device);
    ring_memory ring(device, g);
    const std::size_t n = ring.bytes() / 4;
    auto* host = reinterpret_cast<std::uint32_t*>(ring.host());
    std::iota(host, host + n, 5u);
    ring.copy_between_homes(true);
    std::vector<std::uint32_t> dev(n);
    if (device == ring_memory::emulated) // host memory standing in, no CUDA call
        std::memcpy(dev.data(), ring.device(), ring.bytes());
    else
        GPUFILTER_CHECK(
            cudaMemcpy(dev.data(), ring.device(), ring.bytes(), cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(dev[i], 5 + i) << "word " << i << " on the device side";
    std::fill(host, host + n, 0u);
    ring.copy_between_homes(false);
    for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(host[i], 5 + i) << "word " << i << " back on the host side";
}

TEST(ring_memory, emulated_items_move_between_homes)
{
    check_items_move_between_homes(ring_memory::emulated);
}

TEST(ring_memory, items_move_between_homes)
{
    GPUFILTER_REQUIRE_DEVICE_OR_SKIP();
    check_items_move_between_homes(0);
}

TEST(ring_memory, leaves_the_callers_device_current)
{
    GPUFILTER_REQUIRE_DEVICE_OR_SKIP();
    int count = 0;
    GPUFILTER_CHECK(cudaGetDeviceCount(&count));
    const int other = count - 1; // device 0 itself where there is one
    GPUFILTER_CHECK(cudaSetDevice(other));
    {
        ring_memory ring(0, ring_memory::granularity(0));
        ring.device();
        ring.copy_between_homes(true);
        int current = -1;
        GPUFILTER_CHECK(cudaGetDevice(&current));
        EXPECT_EQ(current, other);
    }
    GPUFILTER_CHECK(cudaSetDevice(0));
}

TEST(ring_memory, device_side_is_mapped_twice)
{
    GPUFILTER_REQUIRE_DEVICE_OR_SKIP();
    const std::size_t g = ring_memory::granularity(0);
    EXPECT_EQ(g % 4096, 0u);
    ring_observer observer;
    {
        ring_memory ring(0, 2 * g);
        const std::size_t n = ring.bytes() / 4;
        auto* dev = reinterpret_cast<std::uint32_t*>(ring.device());
        EXPECT_EQ(observer.live, 2 * g);

        // Starts zeroed, both copies.
        std::vector<std::uint32_t> back(2 * n, 1);
        GPUFILTER_CHECK(cudaMemcpy(back.data(), dev, 8 * n, cudaMemcpyDeviceToHost));
        for (std::size_t i = 0; i < 2 * n; ++i)
            ASSERT_EQ(back[i], 0u) << "word " << i;

        // A kernel writes 4096 words across the end of the ring.
        const std::uint32_t span = 4096;
        write_index<<<span / 256, 256>>>(dev + n - span / 2, 7, span);
        GPUFILTER_CHECK_LAUNCH();
        GPUFILTER_CHECK(cudaDeviceSynchronize());
        GPUFILTER_CHECK(cudaMemcpy(back.data(), dev, 4 * n, cudaMemcpyDeviceToHost));
        for (std::uint32_t i = 0; i < span / 2; ++i) {
            ASSERT_EQ(back[n - span / 2 + i], 7 + i);
            ASSERT_EQ(back[i], 7 + span / 2 + i) << "the wrapped half lands at the start";
        }

        // A kernel reads across the end through the second mapping.
        device_buffer<std::uint32_t> out(span);
        copy_words<<<span / 256, 256>>>(dev + n - span / 2, out.get(), span);
        GPUFILTER_CHECK_LAUNCH();
        std::vector<std::uint32_t> got(span);
        GPUFILTER_CHECK(
            cudaMemcpy(got.data(), out.get(), 4 * span, cudaMemcpyDeviceToHost));
        for (std::uint32_t i = 0; i < span; ++i)
            ASSERT_EQ(got[i], 7 + i);

        // A DMA between the second copies of a page-locked host ring and the
        // device ring: both windows run past the end of their rings.
        ring_memory host_ring(0, 2 * g);
        auto* host = reinterpret_cast<std::uint32_t*>(host_ring.host());
        GPUFILTER_CHECK(cudaHostRegister(host, 2 * host_ring.bytes(), 0));
        std::iota(host + n - span / 2, host + n + span / 2, 100u);
        GPUFILTER_CHECK(cudaMemcpy(
            dev + n - span / 2, host + n - span / 2, 4 * span, cudaMemcpyHostToDevice));
        GPUFILTER_CHECK(cudaHostUnregister(host));
        GPUFILTER_CHECK(cudaMemcpy(back.data(), dev, 4 * n, cudaMemcpyDeviceToHost));
        for (std::uint32_t i = 0; i < span / 2; ++i) {
            ASSERT_EQ(back[n - span / 2 + i], 100 + i);
            ASSERT_EQ(back[i], 100 + span / 2 + i);
        }
    }
    EXPECT_EQ(observer.live, 0u);
}

} // namespace
} // namespace cuda
} // namespace gpufilter
} // namespace gr
