/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_HISTORY_KERNELS_CUH
#define INCLUDED_GPUFILTER_CUDA_HISTORY_KERNELS_CUH

// What the engines share around fir_state: the view kernels read the kept history
// through ([history | input] as one sequence), the kernel that keeps it, and the
// epilogue a state's rotation asks for.

#include "../common/device_math.cuh"
#include "../common/history_keep.cuh"
#include "fir_state.h"
#include <cstddef>

namespace gr {
namespace gpufilter {
namespace cuda {

//! The device view of [history (history_len) | input (input_len)], in device types.
template <class T>
history_then_input<device_t<T>> history_view(const T* history,
                                             std::size_t history_len,
                                             const T* input,
                                             std::size_t input_len)
{
    return { reinterpret_cast<const device_t<T>*>(history),
             static_cast<long long>(history_len),
             reinterpret_cast<const device_t<T>*>(input),
             static_cast<long long>(input_len) };
}

//! The view of [state's history | input (n device samples)].
template <class In, class Out>
history_then_input<device_t<In>>
history_view(const fir_state<In, Out>& state, const In* input, std::size_t n)
{
    return history_view(state.history(), state.history_len(), input, n);
}

//! The copy advance() would queue, for the call's filter kernel to run instead; the
//! engine then calls advance_kept().
template <class In, class Out>
history_keep<device_t<In>>
history_keep_of(fir_state<In, Out>& state, const In* input, std::size_t n)
{
    using T = device_t<In>;
    return history_keep_for(reinterpret_cast<const T*>(state.history()),
                            state.history_len(),
                            reinterpret_cast<const T*>(input),
                            n,
                            reinterpret_cast<T*>(state.next_history()));
}

//! Calls launch(epilogue): a rotate_epilogue whose output 0 is the state's next
//! output when the state rotates (complex output only), else no_epilogue.
template <class In, class Out, class Launch>
void with_epilogue(const fir_state<In, Out>& state, Launch&& launch)
{
    if constexpr (is_complex_v<Out>) {
        if (state.rotating()) {
            const rotation r = state.next_rotation();
            launch(rotate_epilogue{ r.start_cycles, r.step_cycles });
            return;
        }
    }
    launch(no_epilogue{});
}

namespace history_kernels {

//! dst[i] = src[from + i] for i < n: the history kept for the next call.
template <class T>
__global__ void gather(history_then_input<T> src, long long from, T* dst, long long n)
{
    const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] = src[from + i];
}

} // namespace history_kernels
} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
