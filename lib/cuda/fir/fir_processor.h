/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_FIR_PROCESSOR_H
#define INCLUDED_GPUFILTER_CUDA_FIR_PROCESSOR_H

// One interface over the FIR engines (direct form, FFT overlap-save), so the host
// path and the blocks do not care which algorithm runs, and the choice between them
// lives in one place (choose_fir_method, from the crossover in docs/kernels.md).

#include "../common/rotation.h"
#include "../common/sample_types.h"
#include <cuda_runtime.h>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

enum class fir_method { automatic, direct, fft };

//! "auto", "direct" or "fft"; throws std::invalid_argument naming `method` otherwise.
fir_method parse_fir_method(const std::string& name);
const char* fir_method_name(fir_method m);

//! The faster algorithm for this filter on the GPU, from the measured crossover.
//! GPUFILTER_FIR_METHOD=direct|fft in the environment overrides `automatic`.
template <class In, class Tap>
fir_method choose_fir_method(std::size_t ntaps, int decimation, fir_method requested);

/*!
 * \brief A decimating FIR on device-resident samples with state across calls: the
 * API and semantics of fir_engine (see fir_engine.h), whatever the algorithm.
 */
template <class In, class Tap>
class fir_processor
{
public:
    using out_type = filter_output_t<In, Tap>;
    virtual ~fir_processor() = default;

    virtual void set_taps(const std::vector<Tap>& taps, cudaStream_t stream) = 0;
    virtual void set_history(const In* host_samples, cudaStream_t stream) = 0;
    virtual void reset(cudaStream_t stream) = 0;
    virtual void set_rotation(const rotation& r) = 0;
    virtual rotation next_rotation() const = 0;
    virtual std::size_t output_count(std::size_t n) const = 0;
    virtual std::size_t
    process(const In* d_in, std::size_t n, out_type* d_out, cudaStream_t stream) = 0;
    virtual int ntaps() const = 0;
    virtual fir_method method() const = 0; //!< direct or fft, never automatic
};

//! The engine for `method` (automatic: choose_fir_method). Uses the current device.
template <class In, class Tap>
std::unique_ptr<fir_processor<In, Tap>>
make_fir_processor(const std::vector<Tap>& taps, int decimation, fir_method method);

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
