/* SPDX-License-Identifier: GPL-3.0-or-later */
// The fallback warning's reason for each way a machine can lack a usable GPU: it names
// what is missing, and gives versions only where a driver is too old.
#include "cuda/common/device_diagnosis.h"
#include <gtest/gtest.h>

namespace gr {
namespace gpufilter {
namespace cuda {
namespace {

device_probe probe(bool loadable, int error, int driver, int runtime, int count = 0)
{
    device_probe p;
    p.driver_loadable = loadable;
    p.error = error;
    p.error_name = "cudaErrorSomething";
    p.error_text = "something went wrong";
    p.driver_version = driver;
    p.runtime_version = runtime;
    p.device_count = count;
    return p;
}

bool has(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

TEST(device_diagnosis, versions_as_text)
{
    EXPECT_EQ(cuda_version_text(12040), "12.4");
    EXPECT_EQ(cuda_version_text(11080), "11.8");
    EXPECT_EQ(cuda_version_text(12000), "12.0");
}

TEST(device_diagnosis, a_device_needs_no_reason)
{
    EXPECT_EQ(why_no_device(probe(true, 0, 12040, 12020, 1)), "");
}

TEST(device_diagnosis, no_driver_is_not_an_old_driver)
{
    // What cudaGetDeviceCount answers when libcuda is absent.
    const auto why =
        why_no_device(probe(false, cuda_error_insufficient_driver, 0, 12020));
    EXPECT_TRUE(has(why, "no NVIDIA driver")) << why;
    EXPECT_TRUE(has(why, "libcuda.so.1")) << why;
    EXPECT_FALSE(has(why, "insufficient")) << why;
    EXPECT_FALSE(has(why, "update")) << why;
}

TEST(device_diagnosis, old_driver_gives_both_versions)
{
    const auto why =
        why_no_device(probe(true, cuda_error_insufficient_driver, 11040, 12020));
    EXPECT_TRUE(has(why, "too old")) << why;
    EXPECT_TRUE(has(why, "11.4")) << why;
    EXPECT_TRUE(has(why, "12.2")) << why;
    EXPECT_TRUE(has(why, "update the driver")) << why;
}

TEST(device_diagnosis, insufficient_driver_without_a_version)
{
    const auto why = why_no_device(probe(true, cuda_error_insufficient_driver, 0, 12020));
    EXPECT_TRUE(has(why, "12.2")) << why;
    EXPECT_TRUE(has(why, "no CUDA version")) << why;
}

TEST(device_diagnosis, driver_without_a_gpu)
{
    for (const int error : { cuda_error_no_device, 0 }) {
        const auto why = why_no_device(probe(true, error, 12040, 12020));
        EXPECT_TRUE(has(why, "no NVIDIA GPU")) << why;
        EXPECT_TRUE(has(why, "12.4")) << why;
        EXPECT_FALSE(has(why, "driver is too old")) << why;
    }
}

TEST(device_diagnosis, other_errors_are_cudas_own)
{
    const auto why = why_no_device(probe(true, 999, 12040, 12020));
    EXPECT_EQ(why, "cudaErrorSomething: something went wrong");
}

} // namespace
} // namespace cuda
} // namespace gpufilter
} // namespace gr
