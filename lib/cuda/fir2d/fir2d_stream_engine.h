/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR2D_STREAM_ENGINE_H
#define INCLUDED_GPUFILTER_CUDA_FIR2D_STREAM_ENGINE_H

#include "../common/resources.h"
#include "../stream/processor.h"
#include "fir2d_algorithm.h"
#include "fir2d_controls.h"
#include <memory>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief The 2D FIR on a stream of rows, as the blocks run it: one vector port in and
 * out (vlen items a row), the last kernel-rows - 1 rows of history on the device, and
 * the algorithm (fir2d_algorithm) its method or the measured rule picks. Output row n
 * is the full 2D convolution's row n, columns cropped as SciPy's mode 'same'.
 */
template <class T, class Tap>
class fir2d_stream_engine final : public controlled_processor<fir2d_controls<Tap>>
{
public:
    //! max_rows: the most rows one process() call gets.
    fir2d_stream_engine(int vlen,
                        const kernel2d<Tap>& k,
                        fir2d_method method,
                        std::size_t max_rows);

    const port_layout& ports() const override { return d_ports; }
    std::size_t output_count(std::size_t n) const override { return n; }
    std::size_t max_output_count(std::size_t n) const override { return n; }
    std::size_t process(const void* const* in,
                        std::size_t n,
                        void* const* out,
                        cudaStream_t s) override;
    std::size_t history_items() const override { return d_kernel_rows - 1; }
    void set_history(const void* const* host, cudaStream_t s) override;
    const char* method() const override;

    void set_taps(const kernel2d<Tap>& k) override;
    //! For tests: the same, on a stream of the caller's.
    void set_taps(const kernel2d<Tap>& k, cudaStream_t s);

private:
    int d_vlen;
    fir2d_method d_method; // as asked: automatic chooses again for new taps
    std::size_t d_max_rows;
    port_layout d_ports;
    int d_kernel_rows = 1;
    int d_kernel_cols = 1;
    std::unique_ptr<fir2d_algorithm<T, Tap>> d_algorithm;
    // The last kernel-rows - 1 input rows, ping-pong: a call reads one, writes the other.
    device_buffer<T> d_history[2];
    int d_current = 0;
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
