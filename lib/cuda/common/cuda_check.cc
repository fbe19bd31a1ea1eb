/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cuda_check.h"
#include <sstream>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {
// cuFFT has no error-string function. Matched by value, not by enumerator, because
// the enumerators differ between cuFFT 11 (CUDA 12) and 12 (CUDA 13) while a value
// never changes meaning.
const char* cufft_error_name(cufftResult err)
{
    switch (static_cast<int>(err)) {
    case 0x1:
        return "CUFFT_INVALID_PLAN";
    case 0x2:
        return "CUFFT_ALLOC_FAILED";
    case 0x3:
        return "CUFFT_INVALID_TYPE";
    case 0x4:
        return "CUFFT_INVALID_VALUE";
    case 0x5:
        return "CUFFT_INTERNAL_ERROR";
    case 0x6:
        return "CUFFT_EXEC_FAILED";
    case 0x7:
        return "CUFFT_SETUP_FAILED";
    case 0x8:
        return "CUFFT_INVALID_SIZE";
    case 0x9:
        return "CUFFT_UNALIGNED_DATA";
    case 0xA:
        return "CUFFT_INCOMPLETE_PARAMETER_LIST";
    case 0xB:
        return "CUFFT_INVALID_DEVICE";
    case 0xC:
        return "CUFFT_PARSE_ERROR";
    case 0xD:
        return "CUFFT_NO_WORKSPACE";
    case 0xE:
        return "CUFFT_NOT_IMPLEMENTED";
    case 0xF:
        return "CUFFT_LICENSE_ERROR";
    case 0x10:
        return "CUFFT_NOT_SUPPORTED";
    case 0x11:
        return "CUFFT_MISSING_DEPENDENCY";
    case 0x12:
        return "CUFFT_NVRTC_FAILURE";
    case 0x13:
        return "CUFFT_NVJITLINK_FAILURE";
    case 0x14:
        return "CUFFT_NVSHMEM_FAILURE";
    default:
        return "CUFFT_UNKNOWN_ERROR";
    }
}

std::string describe(const char* library,
                     const char* library_message,
                     int code,
                     const char* expr,
                     const char* file,
                     int line)
{
    std::ostringstream s;
    s << library << " error: " << library_message << " (code " << code << ") in " << expr
      << " at " << file << ":" << line;
    return s.str();
}

// A failed call (an allocation, say) also leaves its error in the runtime's last-error
// slot, where the next launch check would find it and blame an innocent launch: take
// it out. A sticky error (a broken context) stays and shows again anyway.
void clear_last_error() { static_cast<void>(cudaGetLastError()); }
} // namespace

void throw_error(cudaError_t err, const char* expr, const char* file, int line)
{
    clear_last_error();
    std::string msg = std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err);
    throw cuda_error(describe("CUDA", msg.c_str(), err, expr, file, line), err);
}

void throw_error(cufftResult err, const char* expr, const char* file, int line)
{
    clear_last_error();
    throw cuda_error(describe("cuFFT", cufft_error_name(err), err, expr, file, line),
                     err);
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
