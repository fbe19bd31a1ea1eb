/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../common/device.h"
#include "../common/kernel_attributes.h"
#include "../fir/history_kernels.cuh"
#include "pfb_arb_kernels.cuh"
#include "pfb_arb_periodic_kernels.cuh"
#include "pfb_arb_resampler_engine.h"
#include "pfb_arb_stationary_kernels.cuh"
#include <algorithm>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {

//! Rows of zero taps before and after the arms in device memory: the most steps of
//! a stationary walk (stationary_steps).
constexpr std::size_t arm_padding = 64;

//! What a launch of either kernel needs.
template <class S>
struct launch_args {
    arb_rate rate;
    arb_kernels::step_rule rule;
    bool exact;
    history_then_input<S> src;
    int taps_per_arm;
    const float2* arms; // [m*N + j], zeros at rows -arm_padding .. T + arm_padding
    const arb_checkpoint* cps;
    long long count;
    S* out;
    cudaStream_t stream;
};

//! resample(): one output per thread, from a shared-memory tile where the block's
//! inputs fit in it, else from device memory.
template <class S>
void launch_per_output(const launch_args<S>& g)
{
    // A block's outputs span at most 255 steps of dq + 1 inputs, plus the taps.
    const long long span =
        (arb_kernels::threads - 1LL) * (g.rule.dq + 1) + g.taps_per_arm;
    const bool staged = span <= arb_kernels::max_staged;
    auto* kernel = staged ? (g.exact ? arb_kernels::resample<S, true, true>
                                     : arb_kernels::resample<S, true, false>)
                          : (g.exact ? arb_kernels::resample<S, false, true>
                                     : arb_kernels::resample<S, false, false>);
    kernel<<<blocks_for(g.count, arb_kernels::threads),
             arb_kernels::threads,
             staged ? span * sizeof(S) : 0,
             g.stream>>>(g.src, g.taps_per_arm, g.arms, g.cps, g.rule, g.count, g.out);
    GPUFILTER_CHECK_LAUNCH();
}

//! The most inputs between the first and the last of `outputs` consecutive outputs:
//! from an arm below N, each step moves the arm on by dec, plus 1 when the fraction
//! carries (never when flt is 0: the fraction then stays below 1).
unsigned long long reach(const arb_rate& r, unsigned long long outputs)
{
    const unsigned long long step = r.dec_rate + (r.flt_rate > 0.0f ? 1ULL : 0ULL);
    return (r.int_rate - 1 + (outputs - 1) * step) / r.int_rate;
}

//! Shared memory a window-kernel block may take without opting in to more.
constexpr unsigned long long window_smem_limit = 48 * 1024;

//! resample_window<S, K> where its shared memory fits: true when launched.
template <class S, int K>
bool launch_window(const launch_args<S>& g)
{
    constexpr unsigned long long per_block = arb_kernels::threads * K;
    const unsigned long long E = reach(g.rate, K);
    // The block's inputs: its outputs' reach, the taps, and E more (the kernel's note).
    const unsigned long long span = reach(g.rate, per_block) + g.taps_per_arm + E;
    if (span > arb_kernels::max_staged) // then T and E are small ints too
        return false;
    const unsigned long long arm_bytes =
        (g.taps_per_arm + 2 * E) * g.rate.int_rate * sizeof(float2);
    const unsigned long long tile_bytes =
        (arb_kernels::tile_slot<S>(static_cast<int>(span) - 1) + 1ULL) * sizeof(S);
    const unsigned long long smem =
        std::max(arm_bytes + tile_bytes, per_block * sizeof(S));
    if (smem > window_smem_limit)
        return false;
    // The default filter_size, 32, as a constant (the kernel's note).
    const bool n32 = g.rate.int_rate == 32;
    auto* kernel = n32 ? (g.exact ? arb_kernels::resample_window<S, K, 32, true>
                                  : arb_kernels::resample_window<S, K, 32, false>)
                       : (g.exact ? arb_kernels::resample_window<S, K, 0, true>
                                  : arb_kernels::resample_window<S, K, 0, false>);
    kernel<<<blocks_for(g.count, per_block), arb_kernels::threads, smem, g.stream>>>(
        g.src,
        g.taps_per_arm,
        static_cast<int>(E),
        g.arms,
        g.cps,
        g.rule,
        g.count,
        g.out);
    GPUFILTER_CHECK_LAUNCH();
    return true;
}

//! The compile-time steps of the stationary kernel for W = T + omax steps: the
//! smallest that holds them, 0 where none does (K = 2 keeps 4 W taps in registers).
int stationary_steps(int W, int K)
{
    const int sizes[] = { 16, 24, 28, 32, 36, 40, 48, 64 }; // at most arm_padding
    for (const int s : sizes)
        if (W <= s && (K == 1 || s <= 24))
            return s;
    return 0;
}

//! resample_stationary for one output a thread, or resample_stationary_96 for complex
//! samples at 28 and 32 steps.
template <class S, int W, int GS>
constexpr auto stationary_one_output()
{
    if constexpr (sizeof(S) == 8 && (W == 28 || W == 32))
        return arb_kernels::resample_stationary_96<S, W, GS>;
    else
        return arb_kernels::resample_stationary<S, W, GS, 1>;
}

template <class S, int GS, int K>
bool launch_stationary_steps(const launch_args<S>& g,
                             const arb_kernels::stationary_rule& r,
                             int steps,
                             unsigned block,
                             unsigned long long blocks,
                             std::size_t smem)
{
    using namespace arb_kernels;
    auto* kernel = steps == 16   ? resample_stationary<S, 16, GS, K>
                   : steps == 24 ? resample_stationary<S, 24, GS, K>
                   : K == 2      ? nullptr
                   : steps == 28 ? stationary_one_output<S, 28, GS>()
                   : steps == 32 ? stationary_one_output<S, 32, GS>()
                   : steps == 36 ? resample_stationary<S, 36, GS, 1>
                   : steps == 40 ? resample_stationary<S, 40, GS, 1>
                   : steps == 48 ? resample_stationary<S, 48, GS, 1>
                   : steps == 64 ? resample_stationary<S, 64, GS, 1>
                                 : nullptr;
    if (!kernel)
        return false;
    allow_dynamic_shared_memory(kernel, smem);
    kernel<<<blocks, block, smem, g.stream>>>(g.src, g.arms, g.cps, r, g.count, g.out);
    GPUFILTER_CHECK_LAUNCH();
    return true;
}

//! Shared memory a stationary block may take (its inputs for all its rounds), where
//! the device allows it; about 384 bytes a thread below that (launch_stationary).
constexpr unsigned long long stationary_smem_limit = 96 * 1024;

/*!
 * The stationary kernel's round shape (arb_stationary_shape) for G threads reading one
 * sample (1, 4 or 8) and K outputs a thread a round (1 or 2): a round of L outputs
 * that keep their arms (L*D near a multiple of N arms: reloads rare), the taps and the
 * group's spread in at most 64 steps (24 with 2 outputs a thread). `want` names what
 * it is for; its L stays 0 where the kernel does not apply.
 */
arb_stationary_shape stationary_shape_for(const arb_rate& rate, arb_stationary_shape want)
{
    const unsigned long long N = want.N;
    const int G = want.G, K = want.K;
    const unsigned long long one = 1ull << arb_fraction_bits;
    const unsigned long long NU = N * one;
    using u128 = unsigned __int128;
    const u128 D = static_cast<u128>(want.dec) * one + want.F;
    // L outputs a round: each round a thread's arm drifts by dist arms, and a warp
    // reloads its taps about 32 K dist times a round (more with groups), a reload
    // costing about two rounds; with idle threads and a round's overhead.
    long long best_L = 0;
    double best_cost = 0.0;
    const auto KD_mod = static_cast<unsigned long long>((K * D) % NU);
    unsigned long long rem = static_cast<unsigned long long>((31 * K * D) % NU);
    for (long long L = 32 * K; L <= arb_kernels::threads * K; L += K) {
        rem += KD_mod; // (L * D) mod NU, NU below 2^63
        if (rem >= NU)
            rem -= NU;
        const double dist = static_cast<double>(std::min(rem, NU - rem)) / one;
        const double reloads = std::min(1.0, 32.0 * K * dist * (G > 1 ? 2.0 : 1.0));
        const long long threads = L / K;
        const double cost = (((threads + 31) / 32) * 32.0 / threads) *
                            (1.0 + 2.0 * reloads) * (1.0 + 16.0 / threads);
        if (!best_L || cost < best_cost) {
            best_L = L;
            best_cost = cost;
        }
    }
    if (best_cost > 2.0)
        return want;
    const int omax = G * K > 1 ? static_cast<int>(reach(rate, G * K)) : 0;
    const int steps = stationary_steps(want.taps + omax, K);
    if (!steps)
        return want;
    arb_stationary_shape shape = want;
    shape.L = best_L;
    shape.block = static_cast<unsigned>((best_L / K + 31) / 32 * 32);
    shape.steps = steps;
    shape.smem_limit = std::min<unsigned long long>(
        stationary_smem_limit, current_device_shared_memory_per_block());
    return shape;
}

/*!
 * Whether a stationary launch's phases fit the kernel's 32 bits (arb_phase,
 * a few instructions fewer a round than 64): X = arm * 2^23 + fraction and X + dY below
 * 2^32 (N <= 256 arms), and phase_from's arm count J below 2^32 for every output offset
 * d up to d_max from a checkpoint (J <= N + d * (dec + 1), the fraction's carries
 * included). Where they do not, the window kernel runs instead: a second set of the
 * stationary kernels in 64 bits doubled the module CUDA loads at the engine's first
 * call (measured before load_kernels: a live flowgraph's first output came about 20 ms
 * later).
 */
bool stationary_phase_fits_32_bits(unsigned N,
                                   unsigned long long dec,
                                   unsigned long long d_max)
{
    using u128 = unsigned __int128;
    return N <= 256 && N + static_cast<u128>(d_max) * (dec + 1) < (u128(1) << 32);
}

/*!
 * resample_stationary where it applies: the closed form (exact), a round shape
 * (stationary_shape_for), the block's inputs in shared memory and phases that fit 32
 * bits (stationary_phase_fits_32_bits). True when launched.
 */
template <class S>
bool launch_stationary(const launch_args<S>& g, const arb_stationary_shape& shape)
{
    if (!g.exact || !shape.L)
        return false;
    using u128 = unsigned __int128;
    const unsigned long long one = 1ull << arb_fraction_bits;
    const unsigned long long NU = shape.N * one;
    const u128 D = static_cast<u128>(g.rule.dec) * one + g.rule.F;
    const long long L = shape.L;
    const unsigned block = shape.block;
    const int steps = shape.steps, G = shape.G, K = shape.K;
    // Rounds: about 2048 blocks, at most 64 rounds a block, and the block's inputs
    // for all its rounds in shared memory (from `steps` - 1 before the first output's).
    long long R = std::min(64LL, std::max(1LL, (g.count + L * 2048 - 1) / (L * 2048)));
    auto span = [&](long long rounds) {
        return reach(g.rate, (rounds - 1) * L + block * K) + steps;
    };
    // The span staged in 16-byte copies (the kernel's note), within about 384 bytes
    // a thread: the blocks a multiprocessor's registers allow (about 64K / (100 *
    // threads)) then fit its shared memory too, and the rounds a block stages for at
    // once are as many as that allows (the staging is the part of a block's time
    // that its own work cannot hide).
    auto smem_of = [&](long long rounds) {
        return static_cast<unsigned long long>(arb_kernels::stationary_copy_length<S>(
                   static_cast<long long>(span(rounds)))) *
               16ull;
    };
    const unsigned long long limit = shape.smem_limit;
    const unsigned long long budget =
        std::min(limit, stationary_smem_limit * block / arb_kernels::threads);
    while (R > 1 && smem_of(R) > budget)
        --R;
    if (smem_of(R) > limit)
        return false;
    const std::size_t smem = smem_of(R);

    arb_kernels::stationary_rule r;
    r.N = g.rate.int_rate;
    r.dec = g.rule.dec;
    r.F = g.rule.F;
    r.NU = NU;
    const u128 LD = L * D;
    r.dY = static_cast<unsigned long long>(LD % NU);
    r.dP = static_cast<int>(LD / NU);
    r.L = static_cast<int>(L);
    r.R = static_cast<int>(R);
    r.T = g.taps_per_arm;
    const long long per_block = L * R;
    const auto blocks =
        static_cast<unsigned long long>((g.count + per_block - 1) / per_block);
    // The largest offset from a checkpoint a block's phases take (the kernel's `hi`).
    const unsigned long long d_max = arb_exact_stride + (R - 1) * L + K * block;
    if (!stationary_phase_fits_32_bits(r.N, r.dec, d_max))
        return false;
    auto* launch = K == 1 ? (G == 1   ? launch_stationary_steps<S, 1, 1>
                             : G == 4 ? launch_stationary_steps<S, 4, 1>
                                      : launch_stationary_steps<S, 8, 1>)
                          : (G == 1   ? launch_stationary_steps<S, 1, 2>
                             : G == 4 ? launch_stationary_steps<S, 4, 2>
                                      : launch_stationary_steps<S, 8, 2>);
    return launch(g, r, steps, block, blocks, smem);
}

//! The periodic kernel's compiled input strides: P = 1 to 4 inputs a period.
constexpr int periodic_max_stride = 4;
//! The most a period may move an output's arm, in 2^-23 arm units: 2^-12 arm, so that
//! a block's 32 * M periods cross at most one arm's edge (the kernel's note).
constexpr unsigned long long periodic_drift_limit = (1ull << arb_fraction_bits) >> 12;

/*!
 * The periodic kernel's rule at this rate: the shortest period of L <= 8 outputs that
 * takes a whole number P of inputs, 1 to 4, and moves an arm by at most
 * periodic_drift_limit. L = 0 where there is none.
 */
arb_kernels::stationary_rule periodic_rule_for(const arb_kernels::step_rule& step,
                                               unsigned N,
                                               int taps_per_arm,
                                               int& stride)
{
    using u128 = unsigned __int128;
    const unsigned long long one = 1ull << arb_fraction_bits;
    const unsigned long long NU = N * one;
    const u128 D = static_cast<u128>(step.dec) * one + step.F;
    arb_kernels::stationary_rule r{};
    for (int L = 1; L <= arb_kernels::periodic_max_period; ++L) {
        const u128 LD = L * D;
        const auto rem = static_cast<unsigned long long>(LD % NU);
        const auto whole = static_cast<long long>(LD / NU);
        // A small remainder: the arm drifts up, P = whole; one near NU: it drifts down
        // and each period wraps the arm once, P = whole + 1.
        const long long P = rem <= periodic_drift_limit        ? whole
                            : NU - rem <= periodic_drift_limit ? whole + 1
                                                               : 0;
        if (P < 1 || P > periodic_max_stride)
            continue;
        r.N = N;
        r.dec = step.dec;
        r.F = step.F;
        r.NU = NU;
        r.dY = rem;
        r.dP = static_cast<int>(whole);
        r.L = L;
        r.T = taps_per_arm;
        stride = static_cast<int>(P);
        return r;
    }
    return r;
}

template <class S, int W, int P>
bool launch_periodic_shape(const launch_args<S>& g,
                           const arb_kernels::stationary_rule& r,
                           const history_keep<S>& keep)
{
    using namespace arb_kernels;
    constexpr int MP = periodic_outputs * P;
    const std::size_t smem =
        (static_cast<std::size_t>(r.L) * periodic_class_slots<MP>(W) +
         periodic_output_slots(r.L)) *
        sizeof(S);
    if (smem > current_device_shared_memory_per_block())
        return false;
    auto* kernel = resample_periodic<S, W, P>;
    allow_dynamic_shared_memory(kernel, smem);
    const long long per_block = 32LL * r.L * periodic_outputs;
    kernel<<<blocks_for(g.count, per_block), 32 * r.L, smem, g.stream>>>(
        g.src, g.arms, g.cps, r, g.count, g.out, keep);
    GPUFILTER_CHECK_LAUNCH();
    return true;
}

template <class S, int W>
bool launch_periodic_width(const launch_args<S>& g,
                           const arb_kernels::stationary_rule& r,
                           int P,
                           const history_keep<S>& keep)
{
    switch (P) {
    case 1:
        return launch_periodic_shape<S, W, 1>(g, r, keep);
    case 2:
        return launch_periodic_shape<S, W, 2>(g, r, keep);
    case 3:
        return launch_periodic_shape<S, W, 3>(g, r, keep);
    default:
        return launch_periodic_shape<S, W, 4>(g, r, keep);
    }
}

/*!
 * resample_periodic where it applies: the closed form (exact), a short period
 * (periodic_rule_for), at most 32 taps an arm (the arm in registers, W = 16 or 32
 * taps) and periodic_max_arms arms. True when launched: the kernel then also copied
 * `keep`, the next call's history.
 */
template <class S>
bool launch_periodic(const launch_args<S>& g, const history_keep<S>& keep)
{
    if (!g.exact || g.taps_per_arm > 32 ||
        g.rate.int_rate > arb_kernels::periodic_max_arms)
        return false;
    int P = 0;
    const auto r = periodic_rule_for(g.rule, g.rate.int_rate, g.taps_per_arm, P);
    if (!r.L)
        return false;
    return g.taps_per_arm <= 16 ? launch_periodic_width<S, 16>(g, r, P, keep)
                                : launch_periodic_width<S, 32>(g, r, P, keep);
}

} // namespace

template <class T>
pfb_arb_resampler_engine<T>::pfb_arb_resampler_engine(float rate,
                                                      const std::vector<float>& taps,
                                                      unsigned filter_size,
                                                      const pfb_tuning& tuning)
    : d_sched(rate, filter_size, filter_size ? (taps.size() / 2) % filter_size : 0),
      d_tuning(tuning),
      d_state(1),
      d_ports{ { sizeof(T) }, { sizeof(T) } }
{
    check_pfb_tuning(d_tuning);
    stream s;
    set_taps(taps, s);
    load_kernels(s);
}

template <class T>
void pfb_arb_resampler_engine<T>::load_kernels(cudaStream_t stream)
{
    // CUDA loads a kernel onto the GPU the first time it runs (lazy loading), so a
    // block's first work() on a live stream would also wait for that. One call on
    // zeros here loads this rate's kernels; then the schedule, the zero history, the
    // checkpoint buffers and the launch record are as a new engine's (a call's
    // buffers grow to its size, and freeing a smaller pinned one would wait for the
    // whole device in the middle of a stream).
    const arb_schedule fresh = d_sched;
    // 4096 samples, fewer at high rates: at most about 2^16 outputs.
    const arb_rate r = d_sched.rate(); // N / (dec + flt) outputs an input
    const double inputs_per_output = (r.dec_rate + double(r.flt_rate)) / r.int_rate;
    const auto n =
        static_cast<std::size_t>(std::clamp(65536.0 * inputs_per_output, 64.0, 4096.0));
    device_buffer<T> zeros(n);
    device_buffer<T> out(std::max<std::size_t>(d_sched.max_count(n), 1));
    GPUFILTER_CHECK(cudaMemsetAsync(zeros.get(), 0, n * sizeof(T), stream));
    const void* in[] = { zeros.get() };
    void* outs[] = { out.get() };
    process(in, n, outs, stream);
    d_sched = fresh;
    d_memo_valid = false;
    d_state.reset(stream); // ordered after the call on the stream
    GPUFILTER_CHECK(cudaStreamSynchronize(stream)); // the buffers die on return

    for (plan_slot& plan : d_plans)
        plan = plan_slot();
    d_next_plan = 0;
    d_launched_per_thread = 0;
    d_launched_kernel = "";
}

template <class T>
void pfb_arb_resampler_engine<T>::set_taps(const std::vector<float>& taps,
                                           cudaStream_t stream)
{
    if (taps.empty())
        throw std::invalid_argument("taps: must not be empty");
    const std::size_t N = d_sched.rate().int_rate;
    const std::size_t Tn = (taps.size() + N - 1) / N;
    // gr-filter's derivative taps: (-1, 1) applied forward, the last one 0.
    std::vector<float> padded(N * Tn, 0.0f), dpadded(N * Tn, 0.0f);
    std::copy(taps.begin(), taps.end(), padded.begin());
    for (std::size_t i = 0; i + 1 < taps.size(); ++i) {
        float tap = 0.0f;
        tap += -1.0f * taps[i];
        tap += 1.0f * taps[i + 1];
        dpadded[i] = tap;
    }
    // Tap m of every arm side by side: a warp's outputs use different arms, and
    // read tap m of each at once, from one or two cache lines instead of 32. Rows
    // of zero taps before and after (arm_padding): the stationary kernel reads its
    // shifted taps with no range test.
    constexpr std::size_t P = arm_padding;
    std::vector<float2> arms((P + Tn + P) * N, make_float2(0.0f, 0.0f));
    for (std::size_t j = 0; j < N; ++j)
        for (std::size_t m = 0; m < Tn; ++m)
            arms[(P + m) * N + j] = make_float2(padded[j + m * N], dpadded[j + m * N]);

    GPUFILTER_CHECK(cudaStreamSynchronize(stream)); // queued work reads the old arms
    upload_growing(d_arms, arms, stream);
    d_state.resize_history(Tn - 1, stream);
    GPUFILTER_CHECK(cudaStreamSynchronize(stream)); // before `arms` goes
    d_taps_per_filter = static_cast<int>(Tn);
    d_taps = taps;
}

template <class T>
void pfb_arb_resampler_engine<T>::set_outputs_per_thread(int k)
{
    if (k != 0 && k != 1 && k != 2 && k != 4 && k != 8)
        throw std::invalid_argument("outputs per thread: must be 0, 1, 2, 4 or 8, got " +
                                    std::to_string(k));
    d_outputs_per_thread = k;
}

template <class T>
void pfb_arb_resampler_engine<T>::set_arm_group(int g, int outputs)
{
    if (g != -1 && g != 0 && g != 1 && g != 4 && g != 8)
        throw std::invalid_argument("arm group: must be -1, 0, 1, 4 or 8, got " +
                                    std::to_string(g));
    if (outputs < 0 || outputs > 2)
        throw std::invalid_argument("arm outputs: must be 0, 1 or 2, got " +
                                    std::to_string(outputs));
    d_arm_group = g;
    d_arm_outputs = outputs;
}

template <class T>
void pfb_arb_resampler_engine<T>::set_rate(float rate)
{
    d_sched.set_rate(rate);
    d_memo_valid = false;
}

template <class T>
void pfb_arb_resampler_engine<T>::set_filter(unsigned filter)
{
    d_sched.set_filter(filter);
    d_memo_valid = false;
}

template <class T>
void pfb_arb_resampler_engine<T>::clear_skip()
{
    d_sched.clear_skip();
    d_memo_valid = false;
}

template <class T>
std::size_t pfb_arb_resampler_engine<T>::output_count(std::size_t n) const
{
    if (!d_memo_valid || n < d_memo_lo || n > d_memo_hi) {
        d_memo_count = d_sched.count(n, &d_memo_hi);
        d_memo_lo = n;
        d_memo_valid = true;
    }
    return d_memo_count;
}

template <class T>
std::size_t pfb_arb_resampler_engine<T>::next_position(std::size_t n) const
{
    output_count(n);
    return d_memo_hi;
}

template <class T>
std::size_t pfb_arb_resampler_engine<T>::process(const void* const* in,
                                                 std::size_t n,
                                                 void* const* out,
                                                 cudaStream_t s)
{
    const T* d_in = static_cast<const T*>(in[0]);
    const arb_rate rate = d_sched.rate();
    // Room for the most outputs n samples can give: no counting pass before the
    // one that writes the checkpoints.
    const std::size_t need = d_sched.max_count(n) / arb_checkpoint_stride + 2;

    plan_slot& plan = d_plans[d_next_plan];
    d_next_plan = (d_next_plan + 1) % static_cast<int>(d_plans.size());
    if (plan.used)
        plan.uploaded.synchronize(); // its pinned buffer may still be copying
    if (plan.host.size() < need) {
        plan.host = pinned_buffer<arb_checkpoint>(need);
        plan.dev = device_buffer<arb_checkpoint>(need);
    }
    if (n > 0x7fffffffULL)
        throw std::logic_error("pfb_arb_resampler_engine: call too large");
    const bool exact = d_sched.exact(); // the checkpoints' kind, for the whole call
    const std::size_t count = d_sched.advance(n, plan.host.get(), plan.host.size());
    d_memo_valid = false;
    if (count > d_sched.max_count(n)) // the output buffers are sized by it
        throw std::logic_error("pfb_arb_resampler_engine: more outputs than the bound");

    bool history_kept = false; // by the filter kernel (the periodic one)
    if (count) {
        const std::size_t stride = exact ? arb_exact_stride : arb_checkpoint_stride;
        const std::size_t ncp = (count - 1) / stride + 1;
        GPUFILTER_CHECK(cudaMemcpyAsync(plan.dev.get(),
                                        plan.host.get(),
                                        ncp * sizeof(arb_checkpoint),
                                        cudaMemcpyHostToDevice,
                                        s));
        plan.uploaded.record(s);
        plan.used = true;

        const arb_kernels::step_rule rule{ rate.int_rate,
                                           rate.dec_rate / rate.int_rate,
                                           rate.dec_rate % rate.int_rate,
                                           rate.flt_rate,
                                           rate.dec_rate,
                                           exact ? static_cast<unsigned long long>(
                                                       rate.flt_rate *
                                                       float(1u << arb_fraction_bits))
                                                 : 0ULL };
        using S = device_t<T>;
        const launch_args<S> args{ rate,
                                   rule,
                                   exact,
                                   history_view(d_state, d_in, n),
                                   d_taps_per_filter,
                                   d_arms.get() + arm_padding * rate.int_rate,
                                   plan.dev.get(),
                                   static_cast<long long>(count),
                                   static_cast<S*>(out[0]),
                                   s };
        const int k =
            d_outputs_per_thread
                ? d_outputs_per_thread
                : arb_outputs_per_thread_for(d_tuning, rate.int_rate, rate.dec_rate);
        // The stationary kernel first where it applies: forced (set_arm_group), or the
        // engine's choice at rates above 1, where it was measured faster than the
        // window kernel; at lower rates the window kernel was faster. Groups of 4 for
        // complex samples and of 1 for real ones: on an H100, at rate 2.3421, the
        // faster way round in the builds since the kernel's rewrite (complex 4-7% but
        // for 1% slower in the first, real 1-6%; docs/benchmarks.md).
        const bool stationary =
            !d_outputs_per_thread &&
            (d_arm_group > 0 || (d_arm_group == 0 && rate.dec_rate < rate.int_rate));
        const int group = d_arm_group > 0 ? d_arm_group : (sizeof(S) == 8 ? 4 : 1);
        arb_stationary_shape want;
        want.N = rate.int_rate;
        want.dec = rule.dec;
        want.F = rule.F;
        want.taps = d_taps_per_filter;
        want.G = group;
        want.K = d_arm_outputs ? d_arm_outputs : 1;
        if (stationary && exact && !d_stationary.made_for(want))
            d_stationary = stationary_shape_for(rate, want);
        // The periodic kernel before both where it applies, unless a kernel is forced.
        const bool periodic = !d_outputs_per_thread && d_arm_group == 0;
        if (periodic && launch_periodic(args, history_keep_of(d_state, d_in, n))) {
            d_launched_per_thread = arb_kernels::periodic_outputs;
            d_launched_kernel = "periodic";
            history_kept = true;
        } else if (stationary && launch_stationary(args, d_stationary)) {
            d_launched_per_thread = 1;
            d_launched_kernel = "stationary";
        } else {
            const bool window = (k == 2 && launch_window<S, 2>(args)) ||
                                (k == 4 && launch_window<S, 4>(args)) ||
                                (k == 8 && launch_window<S, 8>(args));
            if (!window)
                launch_per_output(args);
            d_launched_per_thread = window ? k : 1;
            d_launched_kernel = window ? "window" : "per_output";
        }
    }
    if (history_kept)
        d_state.advance_kept(n);
    else
        d_state.advance(d_in, n, s);
    return count;
}

template class pfb_arb_resampler_engine<float>;
template class pfb_arb_resampler_engine<complex>;

} // namespace cuda
} // namespace gpufilter
} // namespace gr
