/* SPDX-License-Identifier: GPL-3.0-or-later */
// host_stream with processors of other shapes than the FIR's: an interpolator with
// two inputs and two outputs, so that buffer sizing (max_output_count), every port's
// transfers (staged and in place) and state across sub-chunks are checked without a
// filter in the way.

#include "../gpu_test_env.h"
#include "common/cuda_check.h"
#include "stream/host_stream.h"
#include "stream/processor.h"
#include <gtest/gtest.h>
#include <cstdint>
#include <numeric>
#include <vector>

namespace gr {
namespace gpufilter {
namespace test {
namespace {

/*!
 * Two int32 input ports a, b; two output ports at twice the rate:
 *   out0 = a[0], a[0], a[1], a[1], ...    (each input item twice)
 *   out1 = b[0], c, b[1], c+1, ...        (b interleaved with a running count c)
 * The count carries across calls, as an engine's state does.
 */
class interpolator final : public cuda::processor
{
public:
    const cuda::port_layout& ports() const override { return d_ports; }
    std::size_t output_count(std::size_t n) const override { return 2 * n; }
    std::size_t max_output_count(std::size_t n) const override { return 2 * n; }
    std::size_t process(const void* const* in,
                        std::size_t n,
                        void* const* out,
                        cudaStream_t s) override
    {
        const std::size_t item = sizeof(std::int32_t);
        for (int copy = 0; copy < 2; ++copy) // out0: a twice
            GPUFILTER_CHECK(cudaMemcpy2DAsync(static_cast<char*>(out[0]) + copy * item,
                                              2 * item,
                                              in[0],
                                              item,
                                              item,
                                              n,
                                              cudaMemcpyDeviceToDevice,
                                              s));
        GPUFILTER_CHECK(cudaMemcpy2DAsync(
            out[1], 2 * item, in[1], item, item, n, cudaMemcpyDeviceToDevice, s));
        // The counts, from host memory that must outlive the copy: wait for it.
        std::vector<std::int32_t> counts(n);
        std::iota(counts.begin(), counts.end(), static_cast<std::int32_t>(d_count));
        GPUFILTER_CHECK(cudaMemcpy2DAsync(static_cast<char*>(out[1]) + item,
                                          2 * item,
                                          counts.data(),
                                          item,
                                          item,
                                          n,
                                          cudaMemcpyHostToDevice,
                                          s));
        GPUFILTER_CHECK(cudaStreamSynchronize(s));
        d_count += n;
        return 2 * n;
    }
    const char* method() const override { return "interpolator"; }

private:
    cuda::port_layout d_ports{ { 4, 4 }, { 4, 4 } };
    std::size_t d_count = 0;
};

class host_stream_test : public ::testing::TestWithParam<bool>
{
protected:
    void SetUp() override { GPUFILTER_REQUIRE_DEVICE_OR_SKIP(); }
};

TEST_P(host_stream_test, interpolating_two_port_processor_across_calls)
{
    const bool in_place = GetParam();
    const std::size_t total = 200003;
    std::vector<std::int32_t> a(total), b(total);
    for (std::size_t i = 0; i < total; ++i) {
        a[i] = static_cast<std::int32_t>(i * 7 + 3);
        b[i] = -static_cast<std::int32_t>(i * 5 + 1);
    }
    std::vector<std::int32_t> y0(2 * total, -99), y1(2 * total, -99); // poisoned
    // max_chunk 65536: sub-chunks of 16384, so calls wrap round the slot ring.
    cuda::host_stream hs(0, std::make_unique<interpolator>(), 65536);
    if (in_place) {
        for (auto* v : { &a, &b, &y0, &y1 })
            ASSERT_TRUE(hs.register_host_memory(v->data(), v->size() * 4))
                << hs.registration_note();
    }
    std::size_t done = 0;
    for (std::size_t n : { std::size_t(1),
                           std::size_t(70000),
                           std::size_t(3),
                           std::size_t(65536),
                           total }) {
        n = std::min(n, total - done);
        const void* ins[] = { a.data() + done, b.data() + done };
        void* outs[] = { y0.data() + 2 * done, y1.data() + 2 * done };
        ASSERT_EQ(hs.output_count(n), 2 * n);
        ASSERT_EQ(hs.process(ins, n, outs), 2 * n);
        done += n;
    }
    ASSERT_EQ(done, total);
    for (std::size_t i = 0; i < total; ++i) {
        ASSERT_EQ(y0[2 * i], a[i]) << i;
        ASSERT_EQ(y0[2 * i + 1], a[i]) << i;
        ASSERT_EQ(y1[2 * i], b[i]) << i;
        ASSERT_EQ(y1[2 * i + 1], static_cast<std::int32_t>(i)) << i;
    }
    EXPECT_STREQ(hs.method(), "interpolator");
    hs.unregister_host_memory();
}

INSTANTIATE_TEST_SUITE_P(transfers, host_stream_test, ::testing::Values(false, true));

TEST(host_stream_sub_chunk, a_quarter_of_max_chunk_within_its_bounds)
{
    // Host-only: what an engine behind a host_stream is sized for.
    EXPECT_EQ(cuda::sub_chunk_for(1), 1u);
    EXPECT_EQ(cuda::sub_chunk_for(4099), 4099u);
    EXPECT_EQ(cuda::sub_chunk_for(40000), 16384u);
    EXPECT_EQ(cuda::sub_chunk_for(262144), 65536u);
    EXPECT_EQ(cuda::sub_chunk_for(262147), 65537u);
}

TEST(host_stream_errors, null_processor_and_zero_chunk_are_named)
{
    GPUFILTER_REQUIRE_DEVICE_OR_SKIP();
    EXPECT_THROW(cuda::host_stream(0, nullptr, 16), std::invalid_argument);
    EXPECT_THROW(cuda::host_stream(0, std::make_unique<interpolator>(), 0),
                 std::invalid_argument);
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
