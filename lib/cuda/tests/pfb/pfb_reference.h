/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_TESTS_PFB_REFERENCE_H
#define INCLUDED_GPUFILTER_TESTS_PFB_REFERENCE_H

// float64 references of gr-filter 3.10's polyphase blocks, written from gr-filter's
// algorithm and independently of the engine (no shared index math): the wideband
// input cut by blocks::stream_to_streams(N) (stream j, item t = x[t*N + j]), then
// pfb_channelizer_ccf_impl::general_work's loop as written there (one call for the
// whole input), or pfb_decimator_ccf_impl's work_fir_fft / work_fir_exp.

#include "../reference.h"
#include "common/sample_types.h"
#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <vector>

namespace gr {
namespace gpufilter {
namespace test {

// The integer formats' scaling, as documented (common/sample_load.h), written out
// again here in double.
inline cd to_cd(const cuda::complex& v) { return cd(v.real(), v.imag()); }
inline cd to_cd(const cuda::iq_s8& v) { return cd(v.i / 128.0, v.q / 128.0); }
inline cd to_cd(const cuda::iq_u8& v)
{
    return cd((v.i - 127.5) / 127.5, (v.q - 127.5) / 127.5);
}
inline cd to_cd(const cuda::iq_s16& v) { return cd(v.i / 32768.0, v.q / 32768.0); }

//! Random samples over the whole range of the format (never all zero).
template <class T>
std::vector<T> random_samples(std::size_t n, std::mt19937& g)
{
    std::vector<T> v(n);
    if constexpr (std::is_same_v<T, cuda::complex>) {
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        for (auto& x : v) {
            const float re = u(g);
            x = { re, u(g) };
        }
    } else {
        using R = decltype(T{}.i);
        std::uniform_int_distribution<int> u(std::numeric_limits<R>::min(),
                                             std::numeric_limits<R>::max());
        for (auto& x : v) {
            x.i = static_cast<R>(u(g));
            x.q = static_cast<R>(u(g));
        }
    }
    return v;
}

template <class T>
std::vector<cd> widen_all(const std::vector<T>& x)
{
    std::vector<cd> w(x.size());
    for (std::size_t i = 0; i < x.size(); ++i)
        w[i] = to_cd(x[i]);
    return w;
}

inline std::vector<float> random_taps(std::size_t n, std::mt19937& g)
{
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<float> t(n);
    for (auto& v : t)
        v = u(g);
    return t;
}

//! gr-filter's d_rate_ratio: (int)rintf(N / oversample_rate).
inline int gr_rate_ratio(unsigned N, float oversample_rate)
{
    return static_cast<int>(std::rint(static_cast<float>(N) / oversample_rate));
}

//! polyphase_filterbank::set_taps: filter i's tap j is taps[i + j*N], zero-padded.
inline std::vector<std::vector<double>> split_taps(const std::vector<float>& taps,
                                                   unsigned N)
{
    const std::size_t T = (taps.size() + N - 1) / N;
    std::vector<std::vector<double>> f(N, std::vector<double>(T, 0.0));
    for (unsigned i = 0; i < N; ++i)
        for (std::size_t j = 0; j < T; ++j)
            if (i + j * N < taps.size())
                f[i][j] = taps[i + j * N];
    return f;
}

/*!
 * stream_to_streams(N) of x: item t of stream j is x[t*N + j]; items before the
 * stream are zeros (GNU Radio's initial history), items past x are NaN, so that a
 * reference that reads them shows.
 */
struct streams_view {
    const std::vector<cd>& x;
    unsigned N;
    cd item(unsigned j, long long t) const
    {
        if (t < 0)
            return 0.0;
        const long long m = t * N + j;
        if (m >= static_cast<long long>(x.size()))
            return cd(std::numeric_limits<double>::quiet_NaN(), 0.0);
        return x[m];
    }
    //! fir_filter::filter(&in[...]) whose newest input is item `newest` of stream j:
    //! sum_k taps[k] * item(newest - k) (gr's filter dots the window with reversed
    //! taps).
    cd fir(const std::vector<double>& taps, unsigned j, long long newest) const
    {
        cd acc = 0.0;
        for (std::size_t k = 0; k < taps.size(); ++k)
            acc += taps[k] * item(j, newest - static_cast<long long>(k));
        return acc;
    }
};

//! gr-fft's fft_complex_rev (FFTW_BACKWARD, unscaled): X[c] = sum_p x[p] e^{+j2pi pc/N}.
inline std::vector<cd> backward_dft(const std::vector<cd>& x)
{
    const std::size_t N = x.size();
    std::vector<cd> tw(N);
    for (std::size_t m = 0; m < N; ++m)
        tw[m] = std::polar(1.0, 2.0 * M_PI * static_cast<double>(m) / N);
    std::vector<cd> X(N);
    for (std::size_t c = 0; c < N; ++c) {
        cd acc = 0.0;
        for (std::size_t p = 0; p < N; ++p)
            acc += x[p] * tw[(p * c) % N];
        X[c] = acc;
    }
    return X;
}

/*!
 * pfb_channelizer_ccf(N, taps, oversample_rate) after stream_to_streams(N), every
 * channel (out[c][s], before the channel map), for every output step whose input is
 * all in x. taps_for_step(s) gives the taps that apply to step s (set_taps mid-stream
 * with GNU Radio's window holding the real past samples).
 */
inline std::vector<std::vector<cd>> reference_channelizer(
    const std::vector<cd>& x,
    unsigned N,
    float oversample_rate,
    const std::function<const std::vector<float>&(std::size_t)>& taps_for_step)
{
    const int R = gr_rate_ratio(N, oversample_rate);
    // d_idxlut[i] = N - ((i + R) % N) - 1.
    std::vector<unsigned> idxlut(N);
    for (unsigned i = 0; i < N; ++i)
        idxlut[i] = N - ((i + R) % N) - 1;
    const std::size_t nsteps = x.size() / R;
    const streams_view in{ x, N };
    std::vector<std::vector<cd>> out(N, std::vector<cd>(nsteps));
    std::vector<cd> inbuf(N);
    // general_work's loop. Its window holds T = history() - 1 old items before new
    // item 0, so filter(&in[n]), whose newest input is in[n + T - 1], ends at new
    // item n - 1, and filter(&in[n - 1]) at new item n - 2.
    int n = 1, i = -1;
    const std::vector<float>* last_taps = nullptr;
    std::vector<std::vector<double>> filters;
    for (std::size_t s = 0; s < nsteps; ++s) {
        const std::vector<float>& taps = taps_for_step(s);
        if (&taps != last_taps) {
            filters = split_taps(taps, N);
            last_taps = &taps;
        }
        unsigned j = 0;
        i = (i + R) % static_cast<int>(N);
        const int last = i;
        while (i >= 0) {
            inbuf[idxlut[j]] = in.fir(filters[i], j, n - 1);
            j++;
            i--;
        }
        i = static_cast<int>(N) - 1;
        while (i > last) {
            inbuf[idxlut[j]] = in.fir(filters[i], j, n - 2);
            j++;
            i--;
        }
        n += (i + R) >= static_cast<int>(N);
        const auto X = backward_dft(inbuf);
        for (unsigned c = 0; c < N; ++c)
            out[c][s] = X[c];
    }
    return out;
}

inline std::vector<std::vector<cd>> reference_channelizer(const std::vector<cd>& x,
                                                          unsigned N,
                                                          float oversample_rate,
                                                          const std::vector<float>& taps)
{
    return reference_channelizer(
        x, N, oversample_rate, [&](std::size_t) -> const std::vector<float>& {
            return taps;
        });
}

//! pfb_decimator_ccf's d_rotator[i] = gr_expj(i * chan * 2 * GR_M_PI / decim): the
//! angle in double, passed to gr_expj as a float.
inline std::vector<cd> gr_decimator_rotator(unsigned M, unsigned chan)
{
    std::vector<cd> rot(M);
    for (unsigned i = 0; i < M; ++i) {
        const float angle = static_cast<float>(i * chan * 2 * M_PI / M);
        rot[i] = cd(static_cast<float>(std::cos(static_cast<double>(angle))),
                    static_cast<float>(std::sin(static_cast<double>(angle))));
    }
    return rot;
}

/*!
 * pfb_decimator_ccf(M, taps, chan, use_fft_rotator) after stream_to_streams(M): filter
 * j on stream M-1-j (newest item i for output i), then bin chan of the backward FFT
 * (work_fir_fft) or the sum with d_rotator (work_fir_exp).
 */
inline std::vector<cd> reference_decimator(const std::vector<cd>& x,
                                           unsigned M,
                                           const std::vector<float>& taps,
                                           unsigned chan,
                                           bool use_fft_rotator,
                                           std::size_t switch_at = SIZE_MAX,
                                           const std::vector<float>* new_taps = nullptr)
{
    const std::size_t nout = x.size() / M;
    const streams_view in{ x, M };
    auto filters = split_taps(taps, M);
    const auto rot = gr_decimator_rotator(M, chan);
    std::vector<cd> y(nout), branch(M);
    for (std::size_t i = 0; i < nout; ++i) {
        if (i == switch_at && new_taps)
            filters = split_taps(*new_taps, M);
        for (unsigned j = 0; j < M; ++j)
            branch[j] = in.fir(filters[j], M - 1 - j, static_cast<long long>(i));
        if (use_fft_rotator) {
            // Bin chan of the backward DFT (only that bin: large M stays cheap).
            cd acc = 0.0;
            for (unsigned j = 0; j < M; ++j)
                acc +=
                    branch[j] *
                    std::polar(1.0, 2.0 * M_PI * static_cast<double>((j * chan) % M) / M);
            y[i] = acc;
        } else {
            cd acc = 0.0;
            for (unsigned j = 0; j < M; ++j)
                acc += branch[j] * rot[j];
            y[i] = acc;
        }
    }
    return y;
}

//! ||got - want|| / ||want|| over all channels; an unwritten (NaN) output gives NaN.
inline double relative_error(const std::vector<std::vector<cuda::complex>>& got,
                             const std::vector<std::vector<cd>>& want)
{
    double num = 0, den = 0;
    for (std::size_t c = 0; c < want.size(); ++c)
        for (std::size_t s = 0; s < want[c].size(); ++s) {
            num += std::norm(to_cd(got[c][s]) - want[c][s]);
            den += std::norm(want[c][s]);
        }
    return std::sqrt(num / den);
}

} // namespace test
} // namespace gpufilter
} // namespace gr

#endif
