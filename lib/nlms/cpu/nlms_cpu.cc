/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cuda/nlms/nlms_params.h"
#include "cuda/nlms/nlms_shape.h"
#include "nlms/cpu/nlms_cpu.h"
#include <volk/volk.h>
#include <algorithm>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {

nlms_cpu::nlms_cpu(int ntaps, int nfilters, const std::vector<float>& mu, float eps)
    : d_ntaps(cuda::checked_nlms_ntaps(ntaps, cuda::nlms_max_taps)),
      d_eps(cuda::checked_nlms_eps(eps)),
      d_block(4096)
{
    const auto mus = cuda::checked_nlms_mus(mu, cuda::checked_nlms_nfilters(nfilters));
    d_lanes.resize(nfilters);
    for (int k = 0; k < nfilters; ++k) {
        d_lanes[k].taps_rev.assign(ntaps, 0.0f);
        d_lanes[k].window.assign(ntaps + d_block, 0.0f);
        d_lanes[k].mu = mus[k];
    }
}

void nlms_cpu::process(const float* x,
                       const float* d,
                       float* e,
                       std::size_t filter_stride,
                       std::size_t sample_stride,
                       std::size_t n)
{
    process_filters(0, nfilters(), x, d, e, filter_stride, sample_stride, n);
}

void nlms_cpu::process_filters(int first,
                               int last,
                               const float* x,
                               const float* d,
                               float* e,
                               std::size_t filter_stride,
                               std::size_t sample_stride,
                               std::size_t n)
{
    for (int k = first; k < last; ++k) {
        const std::size_t off = static_cast<std::size_t>(k) * filter_stride;
        run(d_lanes[k], x + off, d + off, e + off, sample_stride, n);
    }
}

void nlms_cpu::run(
    lane& l, const float* x, const float* d, float* e, std::size_t stride, std::size_t n)
{
    const std::size_t N = d_ntaps;
    float* buf = l.window.data();
    float* w = l.taps_rev.data();
    for (std::size_t t0 = 0; t0 < n; t0 += d_block) {
        const std::size_t b = std::min(d_block, n - t0);
        for (std::size_t i = 0; i < b; ++i)
            buf[N + i] = x[(t0 + i) * stride];
        for (std::size_t i = 0; i < b; ++i) {
            const float* win = buf + i + 1; // x[n-N+1] ... x[n]
            const double in = win[N - 1], out = buf[i];
            l.norm += in * in - out * out; // each square exact in double
            if (++l.since_anchor >= static_cast<int>(N)) {
                double s = 0.0;
                for (std::size_t j = 0; j < N; ++j)
                    s += static_cast<double>(win[j]) * win[j];
                l.norm = s;
                l.since_anchor = 0;
            }
            float y;
            volk_32f_x2_dot_prod_32f(&y, w, win, static_cast<unsigned>(N));
            const float err = d[(t0 + i) * stride] - y;
            e[(t0 + i) * stride] = err;
            const float g = l.mu * err / (d_eps + static_cast<float>(l.norm));
            for (std::size_t j = 0; j < N; ++j)
                w[j] += g * win[j];
        }
        std::copy(buf + b, buf + b + N, buf); // the newest N become the history
    }
}

void nlms_cpu::set_mu(const std::vector<float>& mu)
{
    const auto mus = cuda::checked_nlms_mus(mu, nfilters());
    for (int k = 0; k < nfilters(); ++k)
        d_lanes[k].mu = mus[k];
}

void nlms_cpu::check_filter(int k) const { cuda::checked_nlms_filter(k, nfilters()); }

void nlms_cpu::set_taps(int k, const std::vector<float>& taps)
{
    check_filter(k);
    cuda::checked_nlms_taps(taps, d_ntaps);
    std::reverse_copy(taps.begin(), taps.end(), d_lanes[k].taps_rev.begin());
}

std::vector<float> nlms_cpu::taps(int k) const
{
    check_filter(k);
    const auto& r = d_lanes[k].taps_rev;
    return { r.rbegin(), r.rend() };
}

void nlms_cpu::reset()
{
    for (auto& l : d_lanes) {
        std::fill(l.taps_rev.begin(), l.taps_rev.end(), 0.0f);
        std::fill(l.window.begin(), l.window.end(), 0.0f);
        l.norm = 0.0;
        l.since_anchor = 0;
    }
}

} // namespace gpufilter
} // namespace gr
