/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "fir_engine.h"
#include "fir_stream.h"
#include "resources.h"
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace gr {
namespace gpufilter {
namespace cuda {

template <class In, class Tap>
struct fir_stream<In, Tap>::impl {
    impl(int dev, const std::vector<Tap>& taps, int decimation, std::size_t chunk)
        : device((use_device(dev), dev)),
          engine(taps, decimation),
          max_chunk(chunk),
          host_in(chunk),
          host_out(chunk),
          dev_in(chunk),
          dev_out(chunk)
    {
    }

    int device;
    // Test hook: GPUFILTER_TEST_FAIL_AFTER=N makes call N+1 of process() issue an
    // invalid copy, a real CUDA error, so tests can check that a failing GPU stops a
    // flowgraph with CUDA's message instead of hanging it. Read once, here.
    long fail_after = std::getenv("GPUFILTER_TEST_FAIL_AFTER")
                          ? std::atol(std::getenv("GPUFILTER_TEST_FAIL_AFTER"))
                          : -1;
    long calls = 0;
    fir_engine<In, Tap> engine;
    std::size_t max_chunk;
    pinned_buffer<In> host_in;
    pinned_buffer<out_type> host_out; // decimation only shrinks: chunk outputs at most
    device_buffer<In> dev_in;
    device_buffer<out_type> dev_out;
    cuda::stream stream;
};

template <class In, class Tap>
fir_stream<In, Tap>::fir_stream(int device,
                                const std::vector<Tap>& taps,
                                int decimation,
                                std::size_t max_chunk)
{
    if (max_chunk == 0)
        throw std::invalid_argument("max_chunk: must be > 0");
    d_impl = std::make_unique<impl>(device, taps, decimation, max_chunk);
}

template <class In, class Tap>
fir_stream<In, Tap>::~fir_stream() = default;
template <class In, class Tap>
fir_stream<In, Tap>::fir_stream(fir_stream&&) noexcept = default;
template <class In, class Tap>
fir_stream<In, Tap>& fir_stream<In, Tap>::operator=(fir_stream&&) noexcept = default;

template <class In, class Tap>
void fir_stream<In, Tap>::set_taps(const std::vector<Tap>& taps)
{
    use_device(d_impl->device);
    d_impl->engine.set_taps(taps, d_impl->stream);
    d_impl->stream.synchronize();
}

template <class In, class Tap>
void fir_stream<In, Tap>::set_history(const In* samples)
{
    use_device(d_impl->device);
    d_impl->engine.set_history(samples, d_impl->stream);
}

template <class In, class Tap>
void fir_stream<In, Tap>::set_rotation(const rotation& r)
{
    d_impl->engine.set_rotation(r);
}

template <class In, class Tap>
rotation fir_stream<In, Tap>::next_rotation() const
{
    return d_impl->engine.next_rotation();
}

template <class In, class Tap>
std::size_t fir_stream<In, Tap>::output_count(std::size_t n) const
{
    return d_impl->engine.output_count(n);
}

template <class In, class Tap>
std::size_t fir_stream<In, Tap>::process(const In* in, std::size_t n, out_type* out)
{
    impl& s = *d_impl;
    use_device(s.device);
    if (s.fail_after >= 0 && s.calls++ >= s.fail_after)
        GPUFILTER_CHECK(cudaMemcpyAsync(
            nullptr, s.host_in.get(), 1, cudaMemcpyHostToDevice, s.stream));
    std::size_t written = 0;
    for (std::size_t done = 0; done < n;) {
        const std::size_t count = std::min(s.max_chunk, n - done);
        std::memcpy(s.host_in.get(), in + done, count * sizeof(In));
        GPUFILTER_CHECK(cudaMemcpyAsync(s.dev_in.get(),
                                        s.host_in.get(),
                                        count * sizeof(In),
                                        cudaMemcpyHostToDevice,
                                        s.stream));
        const std::size_t nout =
            s.engine.process(s.dev_in.get(), count, s.dev_out.get(), s.stream);
        GPUFILTER_CHECK(cudaMemcpyAsync(s.host_out.get(),
                                        s.dev_out.get(),
                                        nout * sizeof(out_type),
                                        cudaMemcpyDeviceToHost,
                                        s.stream));
        s.stream.synchronize();
        std::memcpy(out + written, s.host_out.get(), nout * sizeof(out_type));
        written += nout;
        done += count;
    }
    return written;
}

template <class In, class Tap>
int fir_stream<In, Tap>::ntaps() const
{
    return d_impl->engine.ntaps();
}

template <class In, class Tap>
int fir_stream<In, Tap>::device() const
{
    return d_impl->device;
}

template class fir_stream<float, float>;
template class fir_stream<complex, float>;
template class fir_stream<complex, complex>;
template class fir_stream<float, complex>;
template class fir_stream<std::int16_t, complex>;

} // namespace cuda
} // namespace gpufilter
} // namespace gr
