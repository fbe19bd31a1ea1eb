/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_TESTS_ARB_REFERENCE_H
#define INCLUDED_GPUFILTER_TESTS_ARB_REFERENCE_H

// gr-filter 3.10's pfb_arb_resampler kernel written out again, independently of the
// engine: its filter() loop as written there (fmodf, floor, the inner loop over arms),
// the arms' taps from create_taps/create_diff_taps, and the outputs in float64.

#include "../reference.h"
#include <cmath>
#include <complex>
#include <cstdint>
#include <vector>

namespace gr {
namespace gpufilter {
namespace test {

//! gr-filter's kernel on a growing stream; outputs in double.
class arb_reference
{
public:
    arb_reference(float rate, const std::vector<float>& taps, unsigned nfilts)
        : d_int_rate(nfilts), d_last_filter((taps.size() / 2) % nfilts)
    {
        set_rate(rate);
        set_taps(taps);
    }

    void set_rate(float rate)
    {
        d_dec_rate = (unsigned int)floor(d_int_rate / rate);
        d_flt_rate = (d_int_rate / rate) - d_dec_rate;
    }
    void set_taps(const std::vector<float>& taps)
    {
        d_tpf = (unsigned)std::ceil((double)taps.size() / d_int_rate);
        std::vector<float> dt;
        for (std::size_t i = 0; i + 1 < taps.size(); ++i) {
            float tap = 0;
            tap += -1 * taps[i];
            tap += 1 * taps[i + 1];
            dt.push_back(tap);
        }
        dt.push_back(0);
        d_h = split(taps);
        d_dh = split(dt);
    }
    void set_last_filter(unsigned f) { d_last_filter = f; }
    unsigned last_filter() const { return d_last_filter; }
    float acc() const { return d_acc; }

    /*!
     * gr-filter's filter(out, in, n_to_read, n_read) with `in` at stream sample
     * `pos` (the window starts tpf - 1 samples earlier; zeros before the stream).
     * Appends the outputs, returns n_read.
     */
    int filter(const std::vector<cd>& x, long pos, int n_to_read, std::vector<cd>& out)
    {
        int i_in = 0;
        unsigned int j = d_last_filter;
        while (i_in < n_to_read) {
            while (j < d_int_rate) {
                cd o0 = 0, o1 = 0;
                const long newest = pos + i_in;
                for (unsigned m = 0; m < d_tpf; ++m) {
                    const long v = newest - static_cast<long>(m);
                    const cd s = v >= 0 && v < static_cast<long>(x.size()) ? x[v] : cd(0);
                    o0 += static_cast<double>(d_h[j][m]) * s;
                    o1 += static_cast<double>(d_dh[j][m]) * s;
                }
                out.push_back(o0 + o1 * static_cast<double>(d_acc));
                d_acc += d_flt_rate;
                j += d_dec_rate + (int)floor(d_acc);
                d_acc = fmodf(d_acc, 1.0);
            }
            i_in += (int)(j / d_int_rate);
            j = j % d_int_rate;
        }
        d_last_filter = j;
        return i_in;
    }

private:
    std::vector<std::vector<float>> split(const std::vector<float>& t) const
    {
        std::vector<std::vector<float>> arms(d_int_rate, std::vector<float>(d_tpf, 0.f));
        for (unsigned i = 0; i < d_int_rate; ++i)
            for (unsigned k = 0; k < d_tpf; ++k)
                if (i + k * d_int_rate < t.size())
                    arms[i][k] = t[i + k * d_int_rate];
        return arms;
    }

    unsigned d_int_rate;
    unsigned d_dec_rate = 0;
    float d_flt_rate = 0;
    float d_acc = 0;
    unsigned d_last_filter;
    unsigned d_tpf = 0;
    std::vector<std::vector<float>> d_h, d_dh;
};

} // namespace test
} // namespace gpufilter
} // namespace gr

#endif
