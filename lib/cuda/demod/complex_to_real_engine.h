/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_COMPLEX_TO_REAL_ENGINE_H
#define INCLUDED_GPUFILTER_CUDA_COMPLEX_TO_REAL_ENGINE_H

#include "../common/sample_types.h"
#include "../stream/processor.h"
#include <cstddef>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief The real part of complex samples on the device: gr::blocks::complex_to_real
 * (vlen), items of vlen samples in and vlen floats out. Exact (a copy of the real
 * parts). No state, so no history.
 */
class complex_to_real_engine final : public processor
{
public:
    //! Throws std::invalid_argument for vlen == 0.
    explicit complex_to_real_engine(unsigned vlen = 1);

    unsigned vlen() const { return d_vlen; }

    const port_layout& ports() const override { return d_ports; }
    std::size_t output_count(std::size_t n) const override { return n; }
    std::size_t max_output_count(std::size_t n) const override { return n; }
    std::size_t process(const void* const* in,
                        std::size_t n,
                        void* const* out,
                        cudaStream_t s) override;
    const char* method() const override { return "complex_to_real"; }

private:
    unsigned d_vlen;
    port_layout d_ports;
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
