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
//! nout) reads src[first + k*D, first + k*D + T) against the T reversed taps.
template <class In, class Tap, class Out>
struct fir_pass {
    history_then_input<In> src;
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
           p.stream>>>(p.src, p.first, p.D, p.taps, p.T, p.nout, p.out, epi);
    GPUFILTER_CHECK_LAUNCH();
}

// One output per thread, straight from device memory (through L1).
template <class In, class Tap, class Out, class Epilogue>
void launch_untiled(const fir_pass<In, Tap, Out>& p, Epilogue epi)
{
    constexpr int block = 128;
    fir_kernels::fir_untiled<<<blocks_for(p.nout, block), block, 0, p.stream>>>(
        p.src, p.first, p.D, p.taps, p.T, p.nout, p.out, epi);
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

// The tuning's block size for a blocked kernel, or the rule's (`automatic`).
int block_threads(const fir_tuning& t, int automatic)
{
    return t.block_threads ? t.block_threads : automatic;
}

template <class In, class Tap, class Out, class Epilogue>
void launch_blocked(const fir_pass<In, Tap, Out>& p, Epilogue epi)
{
    namespace fk = fir_kernels::blocked;
    constexpr int R = fk::outputs_per_thread<In, Tap>();
    // For D > 1 each phase pass reads every D-th sample of a tile*D span; smaller
    // tiles keep that span in L1 for the next phase instead of refetching from L2.
    const int threads = block_threads(*p.tuning, p.D <= 2 ? 256 : p.D <= 4 ? 128 : 64);
    const std::size_t smem = fk::smem_bytes<In, Tap, Out, R>(threads);
    static_assert(fk::smem_bytes<In, Tap, Out, R>(fk::max_threads) <= default_smem_limit,
                  "the blocked kernel's tile must fit without an opt-in");
    fk::fir_blocked<In, Tap, Out, R, Epilogue>
        <<<blocks_for(p.nout, static_cast<long long>(threads) * R),
           threads,
           smem,
           p.stream>>>(p.src, p.first, p.D, p.taps, p.T, p.nout, p.out, epi);
    GPUFILTER_CHECK_LAUNCH();
}

template <class In, class Tap, class Out, class Epilogue>
void launch_deinterleaved(const fir_pass<In, Tap, Out>& p, Epilogue epi)
{
    namespace fk = fir_kernels::deinterleaved;
    constexpr int R = fir_kernels::blocked::outputs_per_thread<In, Tap>();
    // The span of G phases is about G*tile samples: at D > 8 a 32-thread tile lets
    // 16 complex phases (runs of 128 bytes, whole sectors) fit in 48 KB.
    const int threads = block_threads(*p.tuning, p.D <= 8 ? 64 : 32);
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
            p.src, p.first, p.D, p.taps, p.T, p.nout, p.out, epi, sh);
    GPUFILTER_CHECK_LAUNCH();
}

// Fewer sub-taps per phase than this and the blocked kernel's per-phase staging and
// barriers cost more than its register reuse saves (D >= ntaps: one tap per phase).
constexpr int min_blocked_sub_taps = 4;

// Measured (bench_fir --kernel-variants; the figures are in docs/kernels.md): with few
// taps per phase at D >= 4 the blocked kernel's per-phase staging of strided samples
// costs more than it saves, and one output per thread, reading through L1, is faster.
bool untiled_is_faster(int T, int D) { return D >= 4 && T <= 2 * D; }

// At D >= 8 the per-phase strided staging caps fir_blocked (docs/kernels.md); the
// deinterleaved kernel reads the span once, coalesced.
constexpr int min_deinterleaved_decimation = 8;
// With more sub-taps per phase than this, the blocked kernel's larger tiles win again
// (measured: docs/kernels.md).
constexpr int max_deinterleaved_sub_taps = 64;

// One filter pass.
template <class In, class Tap, class Out, class Epilogue>
void launch_fir(const fir_pass<In, Tap, Out>& p, Epilogue epi)
{
    switch (p.tuning->kernel) { // forced by a test or the benchmark
    case fir_kernel::untiled:
        return launch_untiled(p, epi);
    case fir_kernel::tiled:
        return launch_tiled_or_untiled(p, epi);
    case fir_kernel::blocked:
        return launch_blocked(p, epi);
    case fir_kernel::deinterleaved:
        return launch_deinterleaved(p, epi);
    case fir_kernel::automatic:
        break;
    }
    if (untiled_is_faster(p.T, p.D))
        launch_untiled(p, epi);
    else if ((p.T + static_cast<long long>(p.D) - 1) / p.D < min_blocked_sub_taps)
        launch_tiled_or_untiled(p, epi);
    else if (p.D >= min_deinterleaved_decimation &&
             (p.T + static_cast<long long>(p.D) - 1) / p.D <= max_deinterleaved_sub_taps)
        launch_deinterleaved(p, epi);
    else
        launch_blocked(p, epi);
}

} // namespace

template <class In, class Tap>
fir_engine<In, Tap>::fir_engine(const std::vector<Tap>& taps, int decimation)
    : d_state(decimation), d_tuning(default_fir_tuning())
{
    if (d_tuning.block_threads != 0 && d_tuning.block_threads != 32 &&
        d_tuning.block_threads != 64 && d_tuning.block_threads != 128 &&
        d_tuning.block_threads != 256)
        throw std::invalid_argument("block_threads: must be 32, 64, 128 or 256, got " +
                                    std::to_string(d_tuning.block_threads));
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
    if (noutputs) {
        // Output k's window starts at virtual index phase + k*D: its newest sample,
        // phase + k*D + ntaps-1, is input sample phase + k*D. With a rotation, output
        // 0 of this launch is the state's next rotated output.
        const fir_pass<device_t<In>, tap_t, out_t> pass{
            history_view(d_state, d_in, n),
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
    }
    d_state.advance(d_in, n, stream);
    return noutputs;
}

#define GPUFILTER_INSTANTIATE_ENGINE(In, Tap) template class fir_engine<In, Tap>;
GPUFILTER_FOR_EACH_FIR_TYPE(GPUFILTER_INSTANTIATE_ENGINE)

} // namespace cuda
} // namespace gpufilter
} // namespace gr
