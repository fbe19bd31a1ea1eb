/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "fir_blocked_kernels.cuh"
#include "fir_deinterleaved_kernels.cuh"
#include "fir_engine.h"
#include "fir_kernels.cuh"
#include "fir_types.h"
#include "history_kernels.cuh"
#include <algorithm>
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

//! The arguments of one filter pass, as every FIR kernel takes them: output k (of
//! nout) reads src[first + k*D, first + k*D + T) against the T reversed taps; the
//! kernel also keeps the next call's history (`keep`).
template <class In, class Tap, class Out>
struct fir_pass {
    history_then_input<In> src;
    history_keep<In> keep;
    long long first;
    int D;
    const Tap* taps;
    int T;
    long long nout;
    Out* out;
    cudaStream_t stream;
    const fir_tuning* tuning;
};

template <int R, class In, class Tap, class Out, class Epilogue>
void launch_tiled(const fir_pass<In, Tap, Out>& p, Epilogue epi)
{
    const std::size_t smem = fir_kernels::tile_smem_bytes<In, Tap>(R, p.D);
    fir_kernels::fir_tiled<In, Tap, Out, R, Epilogue>
        <<<blocks_for(p.nout, fir_kernels::threads * R),
           fir_kernels::threads,
           smem,
           p.stream>>>(p.src, p.first, p.D, p.taps, p.T, p.nout, p.out, epi, p.keep);
    GPUFILTER_CHECK_LAUNCH();
}

// One output per thread, straight from device memory (through L1).
template <class In, class Tap, class Out, class Epilogue>
void launch_untiled(const fir_pass<In, Tap, Out>& p, Epilogue epi)
{
    constexpr int block = 128;
    fir_kernels::fir_untiled<<<blocks_for(p.nout, block), block, 0, p.stream>>>(
        p.src, p.first, p.D, p.taps, p.T, p.nout, p.out, epi, p.keep);
    GPUFILTER_CHECK_LAUNCH();
}

// The pre-blocked kernels: the widest fir_tiled tile that fits the default shared
// memory, else fir_untiled.
template <class In, class Tap, class Out, class Epilogue>
void launch_tiled_or_untiled(const fir_pass<In, Tap, Out>& p, Epilogue epi)
{
    using fir_kernels::tile_smem_bytes;
    if (tile_smem_bytes<In, Tap>(4, p.D) <= default_smem_limit)
        launch_tiled<4>(p, epi);
    else if (tile_smem_bytes<In, Tap>(2, p.D) <= default_smem_limit)
        launch_tiled<2>(p, epi);
    else if (tile_smem_bytes<In, Tap>(1, p.D) <= default_smem_limit)
        launch_tiled<1>(p, epi);
    else
        launch_untiled(p, epi);
}

template <class In, class Tap, class Out, class Epilogue>
void launch_blocked(const fir_pass<In, Tap, Out>& p, Epilogue epi)
{
    namespace fk = fir_kernels::blocked;
    constexpr int R = fk::outputs_per_thread<In, Tap>();
    const int threads = fir_block_threads_for(*p.tuning, fir_kernel::blocked, p.D);
    const std::size_t smem = fk::smem_bytes<In, Tap, Out, R>(threads);
    static_assert(fk::smem_bytes<In, Tap, Out, R>(fk::max_threads) <= default_smem_limit,
                  "the blocked kernel's tile must fit without an opt-in");
    fk::fir_blocked<In, Tap, Out, R, Epilogue>
        <<<blocks_for(p.nout, static_cast<long long>(threads) * R),
           threads,
           smem,
           p.stream>>>(p.src, p.first, p.D, p.taps, p.T, p.nout, p.out, epi, p.keep);
    GPUFILTER_CHECK_LAUNCH();
}

template <class In, class Tap, class Out, class Epilogue>
void launch_deinterleaved(const fir_pass<In, Tap, Out>& p, Epilogue epi)
{
    namespace fk = fir_kernels::deinterleaved;
    constexpr int R = fk::outputs_per_thread<In, Tap>();
    const int threads = fir_block_threads_for(*p.tuning, fir_kernel::deinterleaved, p.D);
    const int tile = threads * R;
    const int phases = std::min(p.D, p.T);
    const int sub_taps = (p.T + p.D - 1) / p.D; // phase 0's, the most
    fk::shape sh{};
    sh.chunk = std::min(fk::sub_tap_chunk, (sub_taps + R - 1) / R * R);
    sh.pitch = fk::row_pitch<R>(tile, sh.chunk);
    // The most phases that fit, then spread evenly over the groups that takes.
    int most = 1;
    while (most < phases &&
           fk::smem_bytes<In, Tap, Out, R>(threads, { sh.chunk, most + 1, sh.pitch }) <=
               default_smem_limit)
        ++most;
    const int groups = (phases + most - 1) / most;
    sh.group = (phases + groups - 1) / groups;
    const std::size_t smem = fk::smem_bytes<In, Tap, Out, R>(threads, sh);
    static_assert(fk::smem_bytes<In, Tap, Out, R>(
                      fk::max_threads,
                      { fk::sub_tap_chunk,
                        1,
                        fk::row_pitch<R>(fk::max_threads * R, fk::sub_tap_chunk) }) <=
                      default_smem_limit,
                  "one phase of the deinterleaved kernel's tile must fit without an "
                  "opt-in");
    fk::fir_deinterleaved<In, Tap, Out, R, Epilogue>
        <<<blocks_for(p.nout, static_cast<long long>(tile)), threads, smem, p.stream>>>(
            p.src, p.first, p.D, p.taps, p.T, p.nout, p.out, epi, sh, p.keep);
    GPUFILTER_CHECK_LAUNCH();
}

// One filter pass, with the kernel the tuning picks for its shape (fir_tuning.h).
template <class In, class Tap, class Out, class Epilogue>
void launch_fir(const fir_pass<In, Tap, Out>& p, Epilogue epi)
{
    switch (fir_kernel_for(*p.tuning, p.T, p.D)) {
    case fir_kernel::untiled:
        return launch_untiled(p, epi);
    case fir_kernel::tiled:
        return launch_tiled_or_untiled(p, epi);
    case fir_kernel::deinterleaved:
        return launch_deinterleaved(p, epi);
    case fir_kernel::blocked:
    case fir_kernel::automatic: // never returned
        return launch_blocked(p, epi);
    }
}

} // namespace

template <class In, class Tap>
fir_engine<In, Tap>::fir_engine(const std::vector<Tap>& taps,
                                int decimation,
                                const fir_tuning& tuning)
    : d_state(decimation), d_tuning(tuning)
{
    check_fir_tuning(d_tuning);
    check_parameters(taps, decimation);
    stream s;
    set_taps(taps, s); // with no old history, this zero-fills the new one
    s.synchronize();
}

template <class In, class Tap>
void fir_engine<In, Tap>::upload_taps(cudaStream_t stream)
{
    std::vector<Tap> reversed(d_taps.rbegin(), d_taps.rend());
    upload_growing(d_taps_reversed, reversed, stream);
    GPUFILTER_CHECK(cudaStreamSynchronize(stream)); // before `reversed` goes
}

template <class In, class Tap>
void fir_engine<In, Tap>::set_taps(const std::vector<Tap>& taps, cudaStream_t stream)
{
    check_parameters(taps, d_state.decimation());
    d_taps = taps;
    upload_taps(stream);
    d_state.resize_history(taps.size() - 1, stream);
}

template <class In, class Tap>
std::size_t fir_engine<In, Tap>::process(const In* d_in,
                                         std::size_t n,
                                         out_type* d_out,
                                         cudaStream_t stream)
{
    using tap_t = device_t<Tap>;
    using out_t = device_t<out_type>;

    const std::size_t noutputs = d_state.output_count(n);
    if (!noutputs) {
        d_state.advance(d_in, n, stream);
        return 0;
    }
    // Output k's window starts at virtual index phase + k*D: its newest sample,
    // phase + k*D + ntaps-1, is input sample phase + k*D. With a rotation, output 0
    // of this launch is the state's next rotated output. The kernel keeps the next
    // call's history too.
    const fir_pass<device_t<In>, tap_t, out_t> pass{
        history_view(d_state, d_in, n),
        history_keep_of(d_state, d_in, n),
        static_cast<long long>(d_state.phase()),
        d_state.decimation(),
        reinterpret_cast<const tap_t*>(d_taps_reversed.get()),
        ntaps(),
        static_cast<long long>(noutputs),
        reinterpret_cast<out_t*>(d_out),
        stream,
        &d_tuning
    };
    with_epilogue(d_state, [&](auto epilogue) { launch_fir(pass, epilogue); });
    d_state.advance_kept(n);
    return noutputs;
}

#define GPUFILTER_INSTANTIATE_ENGINE(In, Tap) template class fir_engine<In, Tap>;
GPUFILTER_FOR_EACH_FIR_TYPE(GPUFILTER_INSTANTIATE_ENGINE)

} // namespace cuda
} // namespace gpufilter
} // namespace gr
