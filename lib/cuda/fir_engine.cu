/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "fir_blocked_kernels.cuh"
#include "fir_engine.h"
#include "fir_kernels.cuh"
#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {
namespace cuda {

namespace {

constexpr std::size_t default_smem_limit = 48 * 1024; // no opt-in attribute needed

template <class T>
void check_parameters(const std::vector<T>& taps, int decimation)
{
    if (taps.empty())
        throw std::invalid_argument("taps: must not be empty");
    if (decimation < 1)
        throw std::invalid_argument("decimation: must be >= 1, got " +
                                    std::to_string(decimation));
}

unsigned blocks_for(long long n, long long per_block)
{
    return static_cast<unsigned>((n + per_block - 1) / per_block);
}

template <class T>
history_then_input<device_t<T>> view(const device_buffer<T>& history,
                                     std::size_t history_len,
                                     const T* input,
                                     std::size_t input_len)
{
    return { reinterpret_cast<const device_t<T>*>(history.get()),
             static_cast<long long>(history_len),
             reinterpret_cast<const device_t<T>*>(input),
             static_cast<long long>(input_len) };
}

// dst[0, n) = src[from, from + n) on the device.
template <class T>
void launch_gather(history_then_input<device_t<T>> src,
                   long long from,
                   T* dst,
                   std::size_t n,
                   cudaStream_t stream)
{
    if (n == 0)
        return;
    constexpr int block = 256;
    fir_kernels::gather<<<blocks_for(n, block), block, 0, stream>>>(
        src, from, reinterpret_cast<device_t<T>*>(dst), static_cast<long long>(n));
    GPUFILTER_CHECK_LAUNCH();
}

template <class In, class Tap, class Out, int R, class Epilogue>
void launch_tiled(history_then_input<In> src,
                  long long first,
                  int decimation,
                  const Tap* taps,
                  int ntaps,
                  long long noutputs,
                  Out* out,
                  Epilogue epilogue,
                  cudaStream_t stream)
{
    const std::size_t smem = fir_kernels::tile_smem_bytes<In, Tap>(R, decimation);
    fir_kernels::fir_tiled<In, Tap, Out, R, Epilogue>
        <<<blocks_for(noutputs, fir_kernels::threads * R),
           fir_kernels::threads,
           smem,
           stream>>>(src, first, decimation, taps, ntaps, noutputs, out, epilogue);
    GPUFILTER_CHECK_LAUNCH();
}

// The pre-blocked kernels: the widest fir_tiled tile that fits the default shared
// memory, else fir_untiled.
template <class In, class Tap, class Out, class Epilogue>
void launch_tiled_or_untiled(history_then_input<In> src,
                             long long first,
                             int D,
                             const Tap* taps,
                             int T,
                             long long nout,
                             Out* out,
                             Epilogue epi,
                             cudaStream_t stream)
{
    using fir_kernels::tile_smem_bytes;
    if (tile_smem_bytes<In, Tap>(4, D) <= default_smem_limit)
        launch_tiled<In, Tap, Out, 4>(src, first, D, taps, T, nout, out, epi, stream);
    else if (tile_smem_bytes<In, Tap>(2, D) <= default_smem_limit)
        launch_tiled<In, Tap, Out, 2>(src, first, D, taps, T, nout, out, epi, stream);
    else if (tile_smem_bytes<In, Tap>(1, D) <= default_smem_limit)
        launch_tiled<In, Tap, Out, 1>(src, first, D, taps, T, nout, out, epi, stream);
    else {
        constexpr int block = 128;
        fir_kernels::fir_untiled<<<blocks_for(nout, block), block, 0, stream>>>(
            src, first, D, taps, T, nout, out, epi);
        GPUFILTER_CHECK_LAUNCH();
    }
}

template <class In, class Tap, class Out, class Epilogue>
void launch_blocked(history_then_input<In> src,
                    long long first,
                    int D,
                    const Tap* taps,
                    int T,
                    long long nout,
                    Out* out,
                    Epilogue epi,
                    cudaStream_t stream)
{
    namespace fk = fir_kernels::blocked;
    constexpr int R = fk::outputs_per_thread<In, Tap>();
    // For D > 1 each phase pass reads every D-th sample of a tile*D span; smaller
    // tiles keep that span in L1 for the next phase instead of refetching from L2.
    const int threads = D <= 2 ? 256 : D <= 4 ? 128 : 64;
    const std::size_t smem = fk::smem_bytes<In, Tap, Out, R>(threads);
    static_assert(fk::smem_bytes<In, Tap, Out, R>(fk::max_threads) <= default_smem_limit,
                  "the blocked kernel's tile must fit without an opt-in");
    fk::fir_blocked<In, Tap, Out, R, Epilogue>
        <<<blocks_for(nout, static_cast<long long>(threads) * R),
           threads,
           smem,
           stream>>>(src, first, D, taps, T, nout, out, epi);
    GPUFILTER_CHECK_LAUNCH();
}

// GPUFILTER_FIR_KERNEL=tiled selects the pre-blocked kernels, so both can be timed on
// the same build (the benchmark harness switches it between rows, so it is read at
// every launch: a getenv is far cheaper than the launch); unset or "blocked" is the
// default.
bool use_tiled_kernels()
{
    const char* v = std::getenv("GPUFILTER_FIR_KERNEL");
    const std::string s = v ? v : "";
    if (s.empty() || s == "blocked")
        return false;
    if (s == "tiled")
        return true;
    throw std::invalid_argument(
        "GPUFILTER_FIR_KERNEL: must be \"blocked\" or \"tiled\", got \"" + s + "\"");
}

// Fewer sub-taps per phase than this and the blocked kernel's per-phase staging and
// barriers cost more than its register reuse saves (D >= ntaps: one tap per phase).
constexpr int min_blocked_sub_taps = 4;

// One filter pass.
template <class In, class Tap, class Out, class Epilogue>
void launch_fir(history_then_input<In> src,
                long long first,
                int D,
                const Tap* taps,
                int T,
                long long nout,
                Out* out,
                Epilogue epi,
                cudaStream_t stream)
{
    if (!use_tiled_kernels() &&
        (T + static_cast<long long>(D) - 1) / D >= min_blocked_sub_taps)
        launch_blocked(src, first, D, taps, T, nout, out, epi, stream);
    else
        launch_tiled_or_untiled(src, first, D, taps, T, nout, out, epi, stream);
}

} // namespace

template <class In, class Tap>
fir_engine<In, Tap>::fir_engine(const std::vector<Tap>& taps, int decimation)
    : d_decimation(decimation)
{
    check_parameters(taps, decimation);
    stream s;
    set_taps(taps, s); // with no old history, this zero-fills the new one
    s.synchronize();
}

template <class In, class Tap>
void fir_engine<In, Tap>::upload_taps(cudaStream_t stream)
{
    std::vector<Tap> reversed(d_taps.rbegin(), d_taps.rend());
    if (d_taps_reversed.size() < reversed.size())
        d_taps_reversed = device_buffer<Tap>(reversed.size());
    // Synchronous with respect to the host vector, which dies on return.
    GPUFILTER_CHECK(cudaMemcpyAsync(d_taps_reversed.get(),
                                    reversed.data(),
                                    reversed.size() * sizeof(Tap),
                                    cudaMemcpyHostToDevice,
                                    stream));
    GPUFILTER_CHECK(cudaStreamSynchronize(stream));
}

template <class In, class Tap>
void fir_engine<In, Tap>::set_taps(const std::vector<Tap>& taps, cudaStream_t stream)
{
    check_parameters(taps, d_decimation);
    const std::size_t old_len = d_taps.empty() ? 0 : history_len();
    const std::size_t new_len = taps.size() - 1;
    d_taps = taps;
    upload_taps(stream);

    // Keep the newest new_len samples of the old history, zeros before them.
    const std::size_t capacity = std::max<std::size_t>(new_len, 1);
    device_buffer<In>& next = d_history[d_current ^ 1];
    if (next.size() < capacity)
        next = device_buffer<In>(capacity);
    const auto old_history =
        view(d_history[d_current], old_len, static_cast<const In*>(nullptr), 0);
    launch_gather(old_history,
                  static_cast<long long>(old_len) - static_cast<long long>(new_len),
                  next.get(),
                  new_len,
                  stream);
    d_current ^= 1;
    if (d_history[d_current ^ 1].size() < capacity) {
        // Wait for the gather before the old buffer may be freed.
        GPUFILTER_CHECK(cudaStreamSynchronize(stream));
        d_history[d_current ^ 1] = device_buffer<In>(capacity);
    }
}

template <class In, class Tap>
void fir_engine<In, Tap>::set_history(const In* host_samples, cudaStream_t stream)
{
    if (history_len())
        GPUFILTER_CHECK(cudaMemcpyAsync(d_history[d_current].get(),
                                        host_samples,
                                        history_len() * sizeof(In),
                                        cudaMemcpyHostToDevice,
                                        stream));
    GPUFILTER_CHECK(cudaStreamSynchronize(stream)); // host_samples may go away after this
    d_phase = 0;
}

template <class In, class Tap>
void fir_engine<In, Tap>::reset(cudaStream_t stream)
{
    if (history_len())
        GPUFILTER_CHECK(cudaMemsetAsync(
            d_history[d_current].get(), 0, history_len() * sizeof(In), stream));
    d_phase = 0;
}

template <class In, class Tap>
void fir_engine<In, Tap>::set_rotation(const rotation& r)
{
    if (!is_complex_v<out_type>)
        throw std::logic_error("set_rotation: this engine's output is real");
    d_rotation = r;
    d_rotated_outputs = 0;
    d_rotating = true;
}

template <class In, class Tap>
rotation fir_engine<In, Tap>::next_rotation() const
{
    if (!d_rotating)
        return {};
    return { phase_cycles(d_rotation, d_rotated_outputs),
             wrap_cycles(d_rotation.step_cycles) };
}

template <class In, class Tap>
std::size_t fir_engine<In, Tap>::output_count(std::size_t n) const
{
    // Outputs fall on input samples d_phase, d_phase + D, ... of this call.
    return n > d_phase ? (n - 1 - d_phase) / d_decimation + 1 : 0;
}

template <class In, class Tap>
std::size_t fir_engine<In, Tap>::process(const In* d_in,
                                         std::size_t n,
                                         out_type* d_out,
                                         cudaStream_t stream)
{
    using in_t = device_t<In>;
    using tap_t = device_t<Tap>;
    using out_t = device_t<out_type>;

    const std::size_t noutputs = output_count(n);
    const std::size_t hlen = history_len();
    const auto src = view(d_history[d_current], hlen, d_in, n);

    if (noutputs) {
        // Output k's window starts at virtual index d_phase + k*D: its newest sample,
        // d_phase + k*D + hlen, is input sample d_phase + k*D.
        const auto first = static_cast<long long>(d_phase);
        const auto taps = reinterpret_cast<const tap_t*>(d_taps_reversed.get());
        const auto out = reinterpret_cast<out_t*>(d_out);
        const int T = ntaps();
        const int D = d_decimation;
        const auto nout = static_cast<long long>(noutputs);
        bool rotated = false;
        if constexpr (is_complex_v<out_type>) {
            if (d_rotating) {
                // This launch's output 0 is output d_rotated_outputs of the rotation.
                const rotate_epilogue rot{ phase_cycles(d_rotation, d_rotated_outputs),
                                           wrap_cycles(d_rotation.step_cycles) };
                launch_fir(src, first, D, taps, T, nout, out, rot, stream);
                rotated = true;
            }
        }
        if (!rotated)
            launch_fir(src, first, D, taps, T, nout, out, no_epilogue{}, stream);
    }
    d_rotated_outputs += noutputs;

    // The next call's history: the last hlen samples of [history | input].
    if (hlen) {
        launch_gather(
            src, static_cast<long long>(n), d_history[d_current ^ 1].get(), hlen, stream);
        d_current ^= 1;
    }
    d_phase = d_phase + noutputs * d_decimation - n;
    return noutputs;
}

template class fir_engine<float, float>;
template class fir_engine<complex, float>;
template class fir_engine<complex, complex>;
template class fir_engine<float, complex>;
template class fir_engine<std::int16_t, complex>;

} // namespace cuda
} // namespace gpufilter
} // namespace gr
