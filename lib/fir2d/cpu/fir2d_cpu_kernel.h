/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_FIR2D_CPU_KERNEL_H
#define INCLUDED_GPUFILTER_FIR2D_CPU_KERNEL_H

#include "core/cpu_kernel.h"
#include "cuda/fir2d/fir2d_controls.h"
#include "fir2d/cpu/fir2d_cpu.h"

namespace gr {
namespace gpufilter {

/*!
 * \brief The 2D FIR blocks' CPU fallback: the same sum as the GPU on GNU Radio's
 * window (kernel-rows - 1 rows of history, then the new rows). gr-filter has no 2D
 * filter, so there is no kernel of its to reuse.
 */
template <class T, class Tap>
class fir2d_cpu_kernel : public controlled_cpu_kernel<cuda::fir2d_controls<Tap>>
{
public:
    fir2d_cpu_kernel(int vlen, const cuda::kernel2d<Tap>& k) : d_vlen(vlen), d_kernel(k)
    {
    }

    std::size_t
    process(const void* const* windows, std::size_t nnew, void* const* out) override
    {
        const T* window = static_cast<const T*>(windows[0]);
        const long h = d_kernel.rows - 1;
        cuda::row_source<T> src;
        src.history = window;
        src.history_rows = h;
        src.input = window + h * d_vlen;
        src.rows = static_cast<long>(nnew);
        src.width = d_vlen;
        cuda::output_window win;
        win.rows = static_cast<long>(nnew);
        win.width = d_vlen;
        win.col_offset = (d_kernel.cols - 1) / 2;
        fir2d_cpu(d_kernel, src, win, static_cast<T*>(out[0]));
        return nnew;
    }

    void set_taps(const cuda::kernel2d<Tap>& k) override { d_kernel = k; }

private:
    int d_vlen;
    cuda::kernel2d<Tap> d_kernel;
};

} // namespace gpufilter
} // namespace gr

#endif
