/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_PFB_ARB_RESAMPLER_ENGINE_H
#define INCLUDED_GPUFILTER_CUDA_PFB_ARB_RESAMPLER_ENGINE_H

#include "../common/resources.h"
#include "../common/sample_types.h"
#include "../fir/fir_state.h"
#include "../stream/processor.h"
#include "arb_schedule.h"
#include "pfb_controls.h"
#include "pfb_tuning.h"
#include <array>
#include <cstddef>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * The stationary kernel's round shape for one rate, taps and group (the engine's
 * .cu chooses it): L outputs a round in blocks of `block` threads, a walk of `steps`
 * taps, and the shared memory the device lets a block opt in to. It does not depend
 * on the call, so an engine keeps it until what it was made for changes. L = 0: the
 * kernel does not apply.
 */
struct arb_stationary_shape {
    // What it was made for.
    unsigned long long N = 0, dec = 0, F = 0;
    int taps = 0, G = 0, K = 0;
    // The shape.
    long long L = 0;
    unsigned block = 0;
    int steps = 0;
    unsigned long long smem_limit = 0;

    bool made_for(const arb_stationary_shape& o) const
    {
        return N == o.N && dec == o.dec && F == o.F && taps == o.taps && G == o.G &&
               K == o.K;
    }
};

/*!
 * \brief Polyphase arbitrary resampler on device-resident samples: gr-filter 3.10's
 * gr::filter::kernel::pfb_arb_resampler_ccf (T = complex) or _fff (T = float).
 *
 * N = filter_size arms of the filter bank and of its derivative bank: the prototype
 * taps h and dh[i] = h[i+1] - h[i] (dh's last tap 0), each zero-padded to N*T taps,
 * T = ceil(ntaps / N), arm j holding taps[j + m*N], m < T (the split of
 * polyphase_bank and gr-filter's create_taps). Output k is at input sample p_k through
 * arm j_k with fraction a_k (arb_schedule: gr-filter's float recurrence, on the host):
 *   y_k = sum_m h_j[m] x[p - m] + a_k * sum_m dh_j[m] x[p - m],   m < T,
 * x[m] = 0 before the first sample. A call of n input samples gives the outputs at
 * positions < n (output_count(n), which depends on the state); any split of the
 * stream into calls gives the output of one call. The last T - 1 samples are kept on
 * the device (fir_state).
 */
template <class T>
class pfb_arb_resampler_engine final
    : public controlled_processor<pfb_arb_resampler_controls>
{
public:
    //! Uses the current device. `tuning`: the outputs per thread that
    //! set_outputs_per_thread(0) picks (pfb_tuning.h), by default the current
    //! device's measured rule. Throws std::invalid_argument for a rate that is not a
    //! finite number > 0, empty taps, filter_size 0 or a tuning it cannot use.
    pfb_arb_resampler_engine(float rate,
                             const std::vector<float>& taps,
                             unsigned filter_size,
                             const pfb_tuning& tuning = pfb_tuning_for_device());

    //! New taps from the next output on; the history is trimmed or zero-padded to
    //! T' - 1 samples (the block then sets it from GNU Radio's window). Synchronizes.
    void set_taps(const std::vector<float>& taps, cudaStream_t stream);
    //! gr-filter's set_rate: the stride and fraction from the next output on (a host
    //! path fits its output slots before its next call).
    void set_rate(float rate) override;
    //! The next output's arm (gr-filter's d_last_filter, set by set_phase).
    void set_filter(unsigned filter);
    //! Forgets the input position past the consumed samples (a restarted stream).
    void clear_skip() override;

    // The rest of pfb_arb_resampler_controls.
    void set_taps(const std::vector<float>& taps) override
    {
        set_taps(taps, control_stream());
    }
    void set_phase(float phase) override
    {
        set_filter(arb_filter_of_phase(phase, filter_size()));
    }
    unsigned filter() const override { return d_sched.filter(); }
    std::size_t skip() const override { return d_sched.skip(); }
    std::size_t inputs_for(std::size_t k) const override
    {
        return d_sched.position_of(k);
    }

    const arb_schedule& schedule() const { return d_sched; }
    unsigned filter_size() const { return d_sched.rate().int_rate; }
    int taps_per_filter() const { return d_taps_per_filter; }
    const std::vector<float>& taps() const { return d_taps; }

    const port_layout& ports() const override { return d_ports; }
    std::size_t output_count(std::size_t n) const override;
    //! The position of the output after those output_count(n) counts (>= n): a call
    //! of up to that many samples gives the same outputs and leaves no skip.
    std::size_t next_position(std::size_t n) const override;
    std::size_t max_output_count(std::size_t n) const override
    {
        return d_sched.max_count(n);
    }
    std::size_t process(const void* const* in,
                        std::size_t n,
                        void* const* out,
                        cudaStream_t s) override;
    std::size_t history_items() const override { return d_state.history_len(); }
    //! Takes the history; the resampler's arm, fraction and position stay, as in
    //! gr-filter, whose state survives new taps and restarts.
    void set_history(const void* const* host, cudaStream_t s) override
    {
        d_state.set_history(static_cast<const T*>(host[0]), s);
    }
    const char* method() const override { return "pfb"; }

    /*!
     * Kernels. While outputs_per_thread() and arm_group() are both 0 (the defaults),
     * rates with a short period (L <= 8 outputs on 1 to 4 whole inputs, nearly the
     * same arms: 3/4, 1/2, 2, 3/2, ...) with at most 32 taps an arm take the periodic
     * kernel (pfb_arb_periodic_kernels.cuh); the others, and a call with a kernel
     * forced below, take the stationary, window or one-output kernels.
     *
     * Outputs each GPU thread computes: 0 (the default) picks by the rate
     * (arb_outputs_per_thread_for: on sm_90 4 at rates below about 1, 2 from there on,
     * the fastest measured); 1 one
     * output per thread (resample); 2, 4 or 8 consecutive outputs per thread that load
     * each input sample once for all of them (pfb_arb_kernels.cuh, resample_window),
     * where its shared memory fits (else one per thread). Other values throw
     * std::invalid_argument.
     */
    void set_outputs_per_thread(int k);
    int outputs_per_thread() const { return d_outputs_per_thread; }
    /*!
     * The stationary-arm kernel (pfb_arb_stationary_kernels.cuh), which the engine
     * tries first while outputs_per_thread() is 0. `g`: the threads that read one
     * sample together; 0 (the default) the engine's choice: at rates above 1, groups
     * of 4 for complex samples and 1 for real ones, at lower rates none (the window
     * kernel); 1, 4 or 8 to force one at any rate, where the kernel applies (the
     * closed form, a round of outputs that keep their arms, the taps in registers, at
     * most 256 arms),
     * -1 never. `outputs` each thread computes a round: 0 (one, the default), 1 or 2.
     * Other values throw std::invalid_argument.
     */
    void set_arm_group(int g, int outputs = 0);
    int arm_group() const { return d_arm_group; }
    int arm_outputs() const { return d_arm_outputs; }
    //! The outputs per thread of the last launch (0 before any; 1 for the stationary
    //! kernel: one a thread a round; arb_periodic_outputs for the periodic kernel).
    int launched_outputs_per_thread() const { return d_launched_per_thread; }
    //! The kernel of the last launch: "periodic", "stationary", "window",
    //! "per_output", or "" before any.
    const char* launched_kernel() const { return d_launched_kernel; }

private:
    //! Runs a call on zeros and puts the stream's state back, so that loading this
    //! rate's kernels does not delay the first call.
    void load_kernels(cudaStream_t stream);

    //! The pinned and device checkpoint buffers of one call, reused round a ring.
    struct plan_slot {
        pinned_buffer<arb_checkpoint> host;
        device_buffer<arb_checkpoint> dev;
        event uploaded;
        bool used = false;
    };

    arb_schedule d_sched;
    pfb_tuning d_tuning;
    fir_state<T, T> d_state;
    int d_taps_per_filter = 0;
    std::vector<float> d_taps;
    // [(arm_padding + m)*N + j] = (h_j[m], dh_j[m]), zero rows before and after.
    device_buffer<float2> d_arms;
    port_layout d_ports;
    std::array<plan_slot, 4> d_plans;
    int d_next_plan = 0;
    int d_outputs_per_thread = 0;
    int d_launched_per_thread = 0;
    int d_arm_group = 0;
    int d_arm_outputs = 0;
    const char* d_launched_kernel = "";
    arb_stationary_shape d_stationary; // the last rate's, reused while it holds
    // output_count(n) memo: the block and the host_stream ask for it before process()
    // runs; every n in [d_memo_lo, d_memo_hi] gives d_memo_count.
    mutable std::size_t d_memo_lo = 0, d_memo_hi = 0, d_memo_count = 0;
    mutable bool d_memo_valid = false;
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
