/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "arb_schedule.h"
#include <cmath>
#include <stdexcept>

namespace gr {
namespace gpufilter {
namespace cuda {

arb_rate arb_rate::make(float rate, unsigned filter_size)
{
    if (!(rate > 0.0f) || !std::isfinite(rate))
        throw std::invalid_argument("rate: must be a finite number > 0");
    if (filter_size < 1)
        throw std::invalid_argument("filter_size: must be >= 1, got 0");
    arb_rate r;
    r.int_rate = filter_size;
    // As gr-filter: an unsigned over a float is a float quotient.
    const float q = static_cast<float>(filter_size) / rate;
    if (!(q < 4.0e9f))
        throw std::invalid_argument("rate: too small for filter_size");
    if (!(q > 1.0e-5f)) // outputs per input past ~1e5 * filter_size: no stream
        throw std::invalid_argument("rate: too large for filter_size");
    r.dec_rate = static_cast<unsigned>(std::floor(q));
    r.flt_rate = q - static_cast<float>(r.dec_rate);
    return r;
}

arb_schedule::arb_schedule(float rate, unsigned filter_size, unsigned initial_filter)
    : d_rate(arb_rate::make(rate, filter_size)), d_filter(initial_filter)
{
}

void arb_schedule::set_rate(float rate)
{
    d_rate = arb_rate::make(rate, d_rate.int_rate);
}

namespace {

// One pass of the recurrence over n input samples. gr-filter's fmodf(acc, 1) of
// acc in [0, 2) is acc - 1 for acc >= 1, exactly (Sterbenz), so no fmodf is needed;
// floor(acc) is that comparison.
template <bool Write>
std::size_t run(const arb_rate& r,
                unsigned& filter,
                float& acc,
                std::size_t& skip,
                std::size_t n,
                arb_checkpoint* cp,
                std::size_t cp_room)
{
    const std::uint64_t N = r.int_rate;
    const std::uint64_t dq = r.dec_rate / N; // whole inputs per step
    const std::uint64_t dr = r.dec_rate % N; // and the rest of the stride
    const float flt = r.flt_rate;
    std::uint64_t j = filter;
    std::uint64_t p = skip;
    if (j >= N && p < n) { // an arm set past the last: gr-filter moves on first
        p += j / N;
        j %= N;
    }
    float a = acc;
    std::size_t k = 0;
    // Branch-free steps: the carries of an irrational rate are not predictable.
    for (; p < n; ++k) {
        if (Write && k % arb_checkpoint_stride == 0) {
            if (k / arb_checkpoint_stride >= cp_room)
                throw std::logic_error("arb_schedule: more outputs than max_count()");
            cp[k / arb_checkpoint_stride] = { static_cast<std::int32_t>(p),
                                              static_cast<std::uint32_t>(j),
                                              a };
        }
        a += flt;
        const std::uint64_t carry = a >= 1.0f;
        a -= static_cast<float>(carry); // a - 0 is a: exact either way
        j += dr + carry;
        const std::uint64_t wrap = j >= N;
        j -= wrap * N;
        p += dq + wrap;
    }
    filter = static_cast<unsigned>(j);
    acc = a;
    skip = static_cast<std::size_t>(p - n);
    return k;
}

} // namespace

std::size_t arb_schedule::count(std::size_t n, std::size_t* next) const
{
    unsigned f = d_filter;
    float a = d_acc;
    std::size_t s = d_skip;
    const std::size_t k = run<false>(d_rate, f, a, s, n, nullptr, 0);
    if (next)
        *next = n + s;
    return k;
}

std::size_t arb_schedule::position_of(std::size_t k) const
{
    const std::uint64_t N = d_rate.int_rate;
    const std::uint64_t dq = d_rate.dec_rate / N;
    const std::uint64_t dr = d_rate.dec_rate % N;
    std::uint64_t j = d_filter;
    std::uint64_t p = d_skip + j / N;
    j %= N;
    float a = d_acc;
    for (std::size_t i = 0; i < k; ++i) {
        a += d_rate.flt_rate;
        const bool carry = a >= 1.0f;
        if (carry)
            a -= 1.0f;
        j += dr + (carry ? 1 : 0);
        p += dq;
        if (j >= N) {
            j -= N;
            ++p;
        }
    }
    return static_cast<std::size_t>(p);
}

std::size_t arb_schedule::max_count(std::size_t n) const
{
    // K outputs move the arm on by K*dec plus their carries, at least K*flt - 1 less
    // the float accumulator's rounding (under 2^-24 a step): so fewer than
    // (n + 2) * N / (dec + flt - 1e-7) outputs end before input n.
    const double per_input = d_rate.int_rate / (static_cast<double>(d_rate.dec_rate) +
                                                d_rate.flt_rate - 1.0e-7);
    return static_cast<std::size_t>(std::ceil((n + 2) * per_input)) + 2;
}

std::size_t
arb_schedule::advance(std::size_t n, arb_checkpoint* checkpoints, std::size_t room)
{
    if (checkpoints)
        return run<true>(d_rate, d_filter, d_acc, d_skip, n, checkpoints, room);
    return run<false>(d_rate, d_filter, d_acc, d_skip, n, nullptr, 0);
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
