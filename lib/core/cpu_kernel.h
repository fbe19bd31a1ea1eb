/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CPU_KERNEL_H
#define INCLUDED_GPUFILTER_CPU_KERNEL_H

#include <cstddef>

namespace gr {
namespace gpufilter {

/*!
 * \brief What a block computes on the CPU fallback: gr-filter's own kernel, run on
 * GNU Radio's windows as gr-filter's work() runs it, so the results are gr-filter's.
 */
class cpu_kernel
{
public:
    virtual ~cpu_kernel() = default;
    //! windows[p]: input port p's window (history()-1 old items, then nnew new ones);
    //! out[q]: room for the outputs. Returns the outputs written per output port.
    virtual std::size_t
    process(const void* const* windows, std::size_t nnew, void* const* out) = 0;
    //! The flowgraph (re)starts, with fresh zeroed buffers: a kernel that keeps state
    //! of its own where gr's blocks keep it in those buffers resets it here.
    virtual void restart() {}
};

/*!
 * \brief A CPU kernel that is also its family's controls (Controls: the interface the
 * block holds, which the family's GPU engine implements too).
 */
template <class Controls>
class controlled_cpu_kernel : public cpu_kernel, public Controls
{
};

} // namespace gpufilter
} // namespace gr

#endif
