/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/device_math.cuh"
#include "../stream/gpu_path.h"
#include "pfb_arb_complex_taps.h"

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {

std::vector<float> real_parts(const std::vector<complex>& taps)
{
    std::vector<float> re(taps.size());
    for (std::size_t i = 0; i < taps.size(); ++i)
        re[i] = taps[i].real();
    return re;
}

std::vector<float> imaginary_parts(const std::vector<complex>& taps)
{
    std::vector<float> im(taps.size());
    for (std::size_t i = 0; i < taps.size(); ++i)
        im[i] = taps[i].imag();
    return im;
}

//! out[k] += j * im[k]: the imaginary taps' outputs into the real taps'.
__global__ void
add_times_j(float2* __restrict__ out, const float2* __restrict__ im, long long n)
{
    const long long k = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (k < n) {
        const float2 a = out[k], b = im[k];
        out[k] = make_float2(a.x - b.y, a.y + b.x);
    }
}

} // namespace

pfb_arb_complex_taps_engine::pfb_arb_complex_taps_engine(float rate,
                                                         const std::vector<complex>& taps,
                                                         unsigned filter_size)
    : d_re(rate, real_parts(taps), filter_size),
      d_im(rate, imaginary_parts(taps), filter_size)
{
}

void pfb_arb_complex_taps_engine::set_complex_taps(const std::vector<complex>& taps)
{
    cudaStream_t s = control_stream();
    d_re.set_taps(real_parts(taps), s);
    d_im.set_taps(imaginary_parts(taps), s);
}

void pfb_arb_complex_taps_engine::set_rate(float rate)
{
    d_re.set_rate(rate);
    d_im.set_rate(rate);
}

void pfb_arb_complex_taps_engine::set_phase(float phase)
{
    d_re.set_phase(phase);
    d_im.set_phase(phase);
}

void pfb_arb_complex_taps_engine::clear_skip()
{
    d_re.clear_skip();
    d_im.clear_skip();
}

void pfb_arb_complex_taps_engine::set_history(const void* const* host, cudaStream_t s)
{
    d_re.set_history(host, s);
    d_im.set_history(host, s);
}

std::size_t pfb_arb_complex_taps_engine::process(const void* const* in,
                                                 std::size_t n,
                                                 void* const* out,
                                                 cudaStream_t s)
{
    const std::size_t most = d_re.max_output_count(n);
    if (d_im_out.size() < most) {
        // Grows on the first calls only (the host path's chunk bounds n).
        GPUFILTER_CHECK(cudaStreamSynchronize(s));
        d_im_out = device_buffer<complex>(most);
    }
    void* im_out[] = { d_im_out.get() };
    const std::size_t count = d_re.process(in, n, out, s);
    const std::size_t same = d_im.process(in, n, im_out, s);
    if (same != count)
        throw std::logic_error("pfb_arb_resampler_ccc: the two halves' counts differ");
    if (count) {
        constexpr int block = 256;
        add_times_j<<<blocks_for(static_cast<long long>(count), block), block, 0, s>>>(
            static_cast<float2*>(out[0]),
            reinterpret_cast<const float2*>(d_im_out.get()),
            static_cast<long long>(count));
        GPUFILTER_CHECK_LAUNCH();
    }
    return count;
}

gpu_path<pfb_arb_resampler_controls>
make_pfb_arb_resampler_ccc_path(int device,
                                std::size_t max_chunk,
                                float rate,
                                const std::vector<complex>& taps,
                                unsigned filter_size)
{
    return make_gpu_path<pfb_arb_resampler_controls, pfb_arb_complex_taps_engine>(
        device, max_chunk, rate, taps, filter_size);
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
