/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cuda_check.h"
#include <sstream>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {
const char* cufft_error_name(cufftResult err)
{
    switch (err) {
    case CUFFT_INVALID_PLAN:
        return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED:
        return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_VALUE:
        return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR:
        return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED:
        return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED:
        return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE:
        return "CUFFT_INVALID_SIZE";
    case CUFFT_NOT_SUPPORTED:
        return "CUFFT_NOT_SUPPORTED";
    default:
        return "cuFFT error";
    }
}

std::string describe(
    const char* library_message, int code, const char* expr, const char* file, int line)
{
    std::ostringstream s;
    s << "CUDA error: " << library_message << " (code " << code << ") in " << expr
      << " at " << file << ":" << line;
    return s.str();
}
} // namespace

void throw_error(cudaError_t err, const char* expr, const char* file, int line)
{
    std::string msg = std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err);
    throw cuda_error(describe(msg.c_str(), err, expr, file, line), err);
}

void throw_error(cufftResult err, const char* expr, const char* file, int line)
{
    throw cuda_error(describe(cufft_error_name(err), err, expr, file, line), err);
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
