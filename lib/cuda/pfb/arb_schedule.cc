/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "arb_schedule.h"
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {

using u128 = unsigned __int128;
constexpr std::uint64_t one = std::uint64_t(1) << arb_fraction_bits; // 1.0 in units

//! x * 2^23 when it is a whole number below 2^32 (x in [0, 1) here), else -1.
std::int64_t units_of(float x)
{
    const double u = static_cast<double>(x) * static_cast<double>(one);
    if (!(u >= 0.0) || u >= 4294967296.0 || u != std::floor(u))
        return -1;
    return static_cast<std::int64_t>(u);
}

} // namespace

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
    if (!(q < 4.0e9f) || !(q > 1.0e-5f)) { // outputs per input past ~1e5 * filter_size
        char text[160];
        std::snprintf(text,
                      sizeof text,
                      "rate: must be in (filter_size / 4e9, 1e5 * filter_size) = "
                      "(%g, %g) for filter_size = %u, got %g",
                      filter_size / 4.0e9,
                      1.0e5 * filter_size,
                      filter_size,
                      rate);
        throw std::invalid_argument(text);
    }
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

bool arb_schedule::exact() const
{
    return units_of(d_rate.flt_rate) >= 0 && units_of(d_acc) >= 0;
}

namespace {

//! The state as the closed form sees it: output k has
//!   X_k = filter * 2^23 + A + k * D,  D = dec * 2^23 + F,
//!   position skip + (X_k >> 23) / N, arm (X_k >> 23) % N, fraction (X_k mod 2^23) /
//!   2^23.
struct closed_form {
    std::uint64_t N, p0, A, D;
    u128 B;

    closed_form(const arb_rate& r, unsigned filter, float acc, std::size_t skip)
        : N(r.int_rate),
          p0(skip),
          A(static_cast<std::uint64_t>(units_of(acc))),
          D(static_cast<std::uint64_t>(r.dec_rate) * one +
            static_cast<std::uint64_t>(units_of(r.flt_rate))),
          B(static_cast<u128>(filter) * one + A)
    {
    }
    u128 x(std::uint64_t k) const { return B + static_cast<u128>(k) * D; }
    std::uint64_t position(std::uint64_t k) const
    {
        return p0 + static_cast<std::uint64_t>((x(k) >> arb_fraction_bits) / N);
    }
    arb_checkpoint at(std::uint64_t k) const
    {
        const u128 xk = x(k);
        const u128 J = xk >> arb_fraction_bits;
        const auto a = static_cast<std::uint32_t>(xk & (one - 1));
        return { static_cast<std::int32_t>(p0 + static_cast<std::uint64_t>(J / N)),
                 static_cast<std::uint32_t>(J % N),
                 static_cast<float>(a) / static_cast<float>(one) };
    }
    //! at(b * stride) for b < blocks, stepping from one to the next with integer adds:
    //! the host writes one for every GPU block of every call, and a 128-bit division
    //! each took longer than the GPU's work.
    void fill(std::uint64_t stride, std::uint64_t blocks, arb_checkpoint* cp) const
    {
        if (!blocks)
            return;
        constexpr std::uint64_t mask = one - 1;
        const u128 step = static_cast<u128>(stride) * D;
        const std::uint64_t df = static_cast<std::uint64_t>(step & mask);
        const u128 dJ = step >> arb_fraction_bits;
        const std::uint64_t dp = static_cast<std::uint64_t>(dJ / N);
        const std::uint64_t dj = static_cast<std::uint64_t>(dJ % N);
        const u128 J0 = B >> arb_fraction_bits;
        std::uint64_t p = p0 + static_cast<std::uint64_t>(J0 / N);
        std::uint64_t j = static_cast<std::uint64_t>(J0 % N);
        std::uint64_t f = static_cast<std::uint64_t>(B & mask);
        for (std::uint64_t b = 0;; ++b) {
            cp[b] = { static_cast<std::int32_t>(p),
                      static_cast<std::uint32_t>(j),
                      static_cast<float>(f) / static_cast<float>(one) };
            if (b + 1 == blocks)
                break;
            f += df;
            j += dj + (f >> arb_fraction_bits); // below 2N
            f &= mask;
            p += dp;
            if (j >= N) {
                j -= N;
                ++p;
            }
        }
    }
    //! Outputs at positions < n (p0 < n).
    std::uint64_t count(std::uint64_t n) const
    {
        // position(k) < n  <=>  X_k < (n - p0) * N * 2^23.
        const u128 limit = static_cast<u128>(n - p0) * N * one;
        if (limit <= B)
            return 0;
        return static_cast<std::uint64_t>((limit - B + D - 1) / D);
    }
};

// The sequential steps, gr-filter's float operations, for an accumulator that is not
// on the 2^-23 grid (rates above filter_size). gr-filter's fmodf(acc, 1) of acc in
// [0, 2) is acc - 1 for acc >= 1, exactly, so no fmodf is needed.
struct float_step {
    std::uint64_t N, dq, dr; // arms; whole inputs per step and the rest of the stride
    float flt;

    explicit float_step(const arb_rate& r)
        : N(r.int_rate),
          dq(r.dec_rate / r.int_rate),
          dr(r.dec_rate % r.int_rate),
          flt(r.flt_rate)
    {
    }
    //! One output on: accumulator a, arm j, input position p.
    void operator()(float& a, std::uint64_t& j, std::uint64_t& p) const
    {
        a += flt;
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
};

template <bool Write>
std::size_t run(const arb_rate& r,
                unsigned& filter,
                float& acc,
                std::size_t& skip,
                std::size_t n,
                arb_checkpoint* cp,
                std::size_t cp_room)
{
    const float_step step(r);
    const std::uint64_t N = step.N;
    std::uint64_t j = filter;
    std::uint64_t p = skip;
    if (j >= N && p < n) { // an arm set past the last: gr-filter moves on first
        p += j / N;
        j %= N;
    }
    float a = acc;
    std::size_t k = 0;
    for (; p < n; ++k) {
        if (Write && k % arb_checkpoint_stride == 0) {
            if (k / arb_checkpoint_stride >= cp_room)
                throw std::logic_error("arb_schedule: more outputs than max_count()");
            cp[k / arb_checkpoint_stride] = { static_cast<std::int32_t>(p),
                                              static_cast<std::uint32_t>(j),
                                              a };
        }
        step(a, j, p);
    }
    filter = static_cast<unsigned>(j);
    acc = a;
    skip = static_cast<std::size_t>(p - n);
    return k;
}

} // namespace

std::size_t arb_schedule::count(std::size_t n, std::size_t* next) const
{
    if (exact()) {
        if (d_skip >= n) {
            if (next)
                *next = d_skip;
            return 0;
        }
        const closed_form f(d_rate, d_filter, d_acc, d_skip);
        const std::uint64_t k = f.count(n);
        if (next)
            *next = f.position(k);
        return static_cast<std::size_t>(k);
    }
    unsigned fl = d_filter;
    float a = d_acc;
    std::size_t s = d_skip;
    const std::size_t k = run<false>(d_rate, fl, a, s, n, nullptr, 0);
    if (next)
        *next = n + s;
    return k;
}

std::size_t arb_schedule::position_of(std::size_t k) const
{
    if (exact())
        return closed_form(d_rate, d_filter, d_acc, d_skip).position(k);
    const float_step step(d_rate);
    std::uint64_t j = d_filter;
    std::uint64_t p = d_skip + j / step.N;
    j %= step.N;
    float a = d_acc;
    for (std::size_t i = 0; i < k; ++i)
        step(a, j, p);
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
    if (!exact()) {
        if (checkpoints)
            return run<true>(d_rate, d_filter, d_acc, d_skip, n, checkpoints, room);
        return run<false>(d_rate, d_filter, d_acc, d_skip, n, nullptr, 0);
    }
    if (d_skip >= n) { // no output, and gr-filter's kernel would not run
        d_skip -= n;
        return 0;
    }
    const closed_form f(d_rate, d_filter, d_acc, d_skip);
    const std::uint64_t k = f.count(n);
    if (checkpoints) {
        const std::uint64_t blocks = (k + arb_exact_stride - 1) / arb_exact_stride;
        if (blocks > room)
            throw std::logic_error("arb_schedule: more outputs than max_count()");
        f.fill(arb_exact_stride, blocks, checkpoints);
    }
    const arb_checkpoint next = f.at(k);
    d_filter = next.filter;
    d_acc = next.acc;
    d_skip = static_cast<std::size_t>(static_cast<std::uint64_t>(next.pos) - n);
    return static_cast<std::size_t>(k);
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr
