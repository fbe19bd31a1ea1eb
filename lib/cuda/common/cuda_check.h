/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_CHECK_H
#define INCLUDED_GPUFILTER_CUDA_CHECK_H

#include <cuda_runtime_api.h>
#include <cufft.h>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {
namespace cuda {

//! A failed CUDA runtime or cuFFT call; what() carries the library's own message.
class cuda_error : public std::runtime_error
{
public:
    cuda_error(const std::string& what, int code) : std::runtime_error(what), d_code(code)
    {
    }
    int code() const { return d_code; }

private:
    int d_code;
};

[[noreturn]] void
throw_error(cudaError_t err, const char* expr, const char* file, int line);
[[noreturn]] void
throw_error(cufftResult err, const char* expr, const char* file, int line);

inline void check(cudaError_t err, const char* expr, const char* file, int line)
{
    if (err != cudaSuccess)
        throw_error(err, expr, file, line);
}
inline void check(cufftResult err, const char* expr, const char* file, int line)
{
    if (err != CUFFT_SUCCESS)
        throw_error(err, expr, file, line);
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr

//! Checks a CUDA runtime or cuFFT call and throws cuda_error if it failed.
#define GPUFILTER_CHECK(expr) \
    ::gr::gpufilter::cuda::check((expr), #expr, __FILE__, __LINE__)

//! Checks the launch just made (bad configuration, no kernel image for this GPU).
#define GPUFILTER_CHECK_LAUNCH() GPUFILTER_CHECK(cudaGetLastError())

#endif
