/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_TESTS_ENGINE_TEST_SUPPORT_H
#define INCLUDED_GPUFILTER_TESTS_ENGINE_TEST_SUPPORT_H

// What the engine tests share: the type lists, a typed fixture, and the loops that
// run an engine (fir_engine, fft_fir_engine) or the blocks' host path over an input
// in calls.

#include "../gpu_test_env.h"
#include "../reference.h"
#include "common/resources.h"
#include "fir/fir_controls.h"
#include "fir/fir_types.h"
#include "stream/host_stream.h"
#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace gr {
namespace gpufilter {
namespace test {

//! The method a block reports as `name` ("auto", "direct", "fft").
inline cuda::fir_method method_named(const std::string& name)
{
    for (auto m : { cuda::fir_method::automatic, cuda::fir_method::direct })
        if (name == cuda::fir_method_name(m))
            return m;
    return cuda::fir_method::fft;
}

/*!
 * The FIR's host path as the blocks run it (cuda::make_fir_path: fir_auto_engine
 * behind a host_stream), with one-port conveniences for the tests.
 */
template <class In, class Tap>
class fir_host_path
{
public:
    using out_type = cuda::filter_output_t<In, Tap>;

    fir_host_path(int device,
                  const std::vector<Tap>& taps,
                  int decimation,
                  std::size_t max_chunk,
                  cuda::fir_method method = cuda::fir_method::automatic)
        : d_path(
              cuda::make_fir_path<In, Tap>(device, max_chunk, taps, decimation, method))
    {
    }
    fir_host_path(int device,
                  const std::vector<Tap>& taps,
                  int decimation,
                  std::size_t max_chunk,
                  const std::string& method)
        : fir_host_path(device, taps, decimation, max_chunk, method_named(method))
    {
    }

    std::size_t process(const In* in, std::size_t n, out_type* out)
    {
        const void* ins[] = { in };
        void* outs[] = { out };
        return d_path.stream->process(ins, n, outs);
    }
    void set_history(const In* samples)
    {
        const void* ports[] = { samples };
        d_path.stream->set_history(ports);
    }
    void set_taps(const std::vector<Tap>& taps) { d_path.controls->set_taps(taps); }
    void set_rotation(const cuda::rotation& r) { d_path.controls->set_rotation(r); }
    cuda::rotation next_rotation() const { return d_path.controls->next_rotation(); }
    int ntaps() const { return static_cast<int>(d_path.stream->history_items()) + 1; }
    const char* method() const { return d_path.stream->method(); }
    bool register_host_memory(const void* base, std::size_t bytes)
    {
        return d_path.stream->register_host_memory(base, bytes);
    }
    void unregister_host_memory() { d_path.stream->unregister_host_memory(); }
    const std::string& registration_note() const
    {
        return d_path.stream->registration_note();
    }

private:
    cuda::gpu_path<cuda::fir_controls<Tap>> d_path;
};

template <class In_, class Tap_>
struct types {
    using In = In_;
    using Tap = Tap_;
    using Out = cuda::filter_output_t<In_, Tap_>;
};
//! The engines' instantiations.
using all_types = ::testing::Types<types<float, float>,
                                   types<cuda::complex, float>,
                                   types<cuda::complex, cuda::complex>,
                                   types<float, cuda::complex>,
                                   types<std::int16_t, cuda::complex>>;
//! Those with complex output (the ones that can rotate).
using complex_out_types = ::testing::Types<types<cuda::complex, float>,
                                           types<cuda::complex, cuda::complex>,
                                           types<float, cuda::complex>,
                                           types<std::int16_t, cuda::complex>>;

//! A typed engine test (T: a types<In, Tap>) that needs a GPU, with its own seed.
template <class T, unsigned Seed>
class engine_test : public ::testing::Test
{
protected:
    using In = typename T::In;
    using Tap = typename T::Tap;
    using Out = typename T::Out;

    void SetUp() override { GPUFILTER_REQUIRE_DEVICE_OR_SKIP(); }

    std::mt19937 rng{ Seed };
};

//! run_engine's default hook: every call as the call sizes say.
struct every_call {
    std::size_t operator()(std::size_t /*produced*/, std::size_t n) const { return n; }
};

/*!
 * Runs x through an engine in calls of the given sizes (cycled), into a device output
 * poisoned with NaN and 64 samples longer than x; checks each call's count against
 * output_count() and that nothing past the outputs is written. Returns the outputs.
 * before_call(produced, n) runs before each call (it may change the engine's
 * rotation) and returns the size that call gets, at most n.
 */
template <class Engine, class In, class BeforeCall = every_call>
std::vector<typename Engine::out_type>
run_engine(Engine& engine,
           const std::vector<In>& x,
           const std::vector<std::size_t>& call_sizes,
           BeforeCall before_call = {})
{
    using Out = typename Engine::out_type;
    cuda::stream s;
    const std::size_t cap = x.size() + 64;
    cuda::device_buffer<In> d_in(std::max<std::size_t>(x.size(), 1));
    cuda::device_buffer<Out> d_out(cap);
    const std::vector<Out> poisoned(cap, poison<Out>());
    GPUFILTER_CHECK(
        cudaMemcpy(d_in.get(), x.data(), x.size() * sizeof(In), cudaMemcpyHostToDevice));
    GPUFILTER_CHECK(cudaMemcpy(
        d_out.get(), poisoned.data(), cap * sizeof(Out), cudaMemcpyHostToDevice));
    // A pageable cudaMemcpy may return before its DMA lands; the calls run on a
    // non-blocking stream.
    GPUFILTER_CHECK(cudaDeviceSynchronize());
    std::size_t consumed = 0, produced = 0;
    for (std::size_t call = 0; consumed < x.size(); ++call) {
        const std::size_t n = before_call(
            produced,
            std::min(call_sizes[call % call_sizes.size()], x.size() - consumed));
        const std::size_t expected = engine.output_count(n);
        const std::size_t got =
            engine.process(d_in.get() + consumed, n, d_out.get() + produced, s);
        EXPECT_EQ(got, expected) << "call " << call << " n=" << n;
        consumed += n;
        produced += got;
    }
    s.synchronize();
    std::vector<Out> y(cap);
    GPUFILTER_CHECK(
        cudaMemcpy(y.data(), d_out.get(), cap * sizeof(Out), cudaMemcpyDeviceToHost));
    for (std::size_t i = produced; i < cap; ++i)
        EXPECT_TRUE(std::isnan(std::abs(widen(y[i]))))
            << "output " << i << " written past the " << produced << " outputs";
    y.resize(produced);
    return y;
}

//! Runs x through fs in calls of the given sizes (cycled) into y, poisoned first.
//! Returns the outputs written.
template <class In, class Tap>
std::vector<typename fir_host_path<In, Tap>::out_type>
run_stream(fir_host_path<In, Tap>& fs,
           const std::vector<In>& x,
           std::vector<typename fir_host_path<In, Tap>::out_type>& y,
           const std::vector<std::size_t>& sizes)
{
    using Out = typename fir_host_path<In, Tap>::out_type;
    std::fill(y.begin(), y.end(), poison<Out>());
    std::size_t consumed = 0, produced = 0;
    for (std::size_t call = 0; consumed < x.size(); ++call) {
        const std::size_t n = std::min(sizes[call % sizes.size()], x.size() - consumed);
        produced += fs.process(x.data() + consumed, n, y.data() + produced);
        consumed += n;
    }
    return { y.begin(), y.begin() + produced };
}

} // namespace test
} // namespace gpufilter
} // namespace gr

#endif
