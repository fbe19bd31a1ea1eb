/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cuda/demod/demod_stream.h"
#include "demod/demod_backend.h"
#include <gnuradio/gr_complex.h>
#include <gnuradio/math.h>
#include <volk/volk.h>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace gpufilter {

namespace {

//! gr-analog's quadrature_demod_cf work(): volk's conjugate product of each sample
//! with the one before (the window's old item first), then gain * fast_atan2f. In
//! chunks through a buffer of fixed size, so that work() does not allocate.
class quadrature_demod_cpu_kernel final : public cpu_kernel
{
public:
    explicit quadrature_demod_cpu_kernel(float gain) : d_gain(gain), d_tmp(chunk) {}
    void set_gain(float gain) { d_gain = gain; }

    std::size_t
    process(const void* const* windows, std::size_t nnew, void* const* out) override
    {
        const auto in = static_cast<const gr_complex*>(windows[0]);
        const auto y = static_cast<float*>(out[0]);
        for (std::size_t done = 0; done < nnew; done += chunk) {
            const std::size_t n = std::min(chunk, nnew - done);
            volk_32fc_x2_multiply_conjugate_32fc(
                d_tmp.data(), in + done + 1, in + done, static_cast<unsigned>(n));
            for (std::size_t i = 0; i < n; ++i)
                y[done + i] = d_gain * gr::fast_atan2f(d_tmp[i].imag(), d_tmp[i].real());
        }
        return nnew;
    }

private:
    static constexpr std::size_t chunk = 8192;
    float d_gain;
    std::vector<gr_complex> d_tmp;
};

//! gr-blocks' complex_to_real work(): volk's deinterleave of the real parts.
class complex_to_real_cpu_kernel final : public cpu_kernel
{
public:
    explicit complex_to_real_cpu_kernel(int vlen) : d_vlen(vlen) {}
    std::size_t
    process(const void* const* windows, std::size_t nnew, void* const* out) override
    {
        volk_32fc_deinterleave_real_32f(static_cast<float*>(out[0]),
                                        static_cast<const gr_complex*>(windows[0]),
                                        static_cast<unsigned>(nnew * d_vlen));
        return nnew;
    }

private:
    std::size_t d_vlen;
};

} // namespace

block_core::backends quadrature_demod_backend::make(float gain)
{
    return { [gain](int device,
                    std::size_t max_chunk) -> std::unique_ptr<cuda::host_stream> {
                return std::make_unique<cuda::quadrature_demod_stream>(
                    device, gain, 1, max_chunk);
            },
             [gain]() -> std::unique_ptr<cpu_kernel> {
                 return std::make_unique<quadrature_demod_cpu_kernel>(gain);
             } };
}

void quadrature_demod_backend::set_gain(block_core& core, float gain)
{
    if (auto gpu = core.gpu())
        static_cast<cuda::quadrature_demod_stream*>(gpu)->set_gain(gain);
    else
        static_cast<quadrature_demod_cpu_kernel*>(core.cpu())->set_gain(gain);
}

block_core::backends complex_to_real_backend::make(int vlen)
{
    return { [vlen](int device,
                    std::size_t max_chunk) -> std::unique_ptr<cuda::host_stream> {
                return std::make_unique<cuda::complex_to_real_stream>(
                    device, static_cast<unsigned>(vlen), max_chunk);
            },
             [vlen]() -> std::unique_ptr<cpu_kernel> {
                 return std::make_unique<complex_to_real_cpu_kernel>(vlen);
             } };
}

} // namespace gpufilter
} // namespace gr
