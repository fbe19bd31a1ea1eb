/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/parameter_checks.h"
#include "cuda/nlms/nlms_host.h"
#include "cuda/nlms/nlms_params.h"
#include "nlms/nlms_filter_ff_impl.h"
#include <gnuradio/io_signature.h>

namespace gr {
namespace gpufilter {

namespace {
//! The vector length of the ports, checked before GNU Radio sees it.
int item_bytes(int ntaps, int nfilters)
{
    cuda::checked_nlms_ntaps(ntaps, nlms_max_taps);
    return cuda::checked_nlms_nfilters(nfilters) * static_cast<int>(sizeof(float));
}

//! The GPU's nlms_engine, or the same algorithm on the CPU (nlms_cpu_kernel).
computation<cuda::nlms_controls>
nlms_computation(int ntaps, int nfilters, float mu, float eps)
{
    return { [=](int device, std::size_t max_chunk) {
                return cuda::make_nlms_path(
                    device, max_chunk, ntaps, nfilters, std::vector<float>{ mu }, eps);
            },
             [=] {
                 return std::make_unique<nlms_cpu_kernel>(ntaps, nfilters, mu, eps);
             } };
}
} // namespace

nlms_filter_ff::sptr nlms_filter_ff::make(int ntaps,
                                          double mu,
                                          int nfilters,
                                          double eps,
                                          int device,
                                          int batch_size,
                                          double max_latency)
{
    return gnuradio::make_block_sptr<nlms_filter_ff_impl>(
        ntaps, mu, nfilters, eps, device, batch_size, max_latency);
}

nlms_filter_ff_impl::nlms_filter_ff_impl(int ntaps,
                                         double mu,
                                         int nfilters,
                                         double eps,
                                         int device,
                                         int batch_size,
                                         double max_latency)
    : gr::sync_block("gpu_nlms_filter_ff",
                     gr::io_signature::make(2, 2, item_bytes(ntaps, nfilters)),
                     gr::io_signature::make(1, 1, item_bytes(ntaps, nfilters))),
      gpu_block<nlms_filter_ff, cuda::nlms_controls>(
          device,
          { 1, 1 },
          checked_batch_size(batch_size),
          max_latency,
          nlms_computation(
              ntaps, nfilters, cuda::checked_nlms_mu(mu), cuda::checked_nlms_eps(eps))),
      d_ntaps(ntaps),
      d_nfilters(nfilters),
      d_mu(mu),
      d_eps(eps)
{
}

void nlms_filter_ff_impl::set_mu(double mu)
{
    const float m = cuda::checked_nlms_mu(mu);
    gr::thread::scoped_lock lock(d_setlock);
    controls().set_mu({ m });
    d_mu = mu;
}

std::vector<float> nlms_filter_ff_impl::taps(int k)
{
    gr::thread::scoped_lock lock(d_setlock);
    return controls().taps(k);
}

void nlms_filter_ff_impl::set_taps(const std::vector<float>& taps, int k)
{
    checked_taps(taps);
    gr::thread::scoped_lock lock(d_setlock);
    controls().set_taps(k, taps);
}

void nlms_filter_ff_impl::reset()
{
    gr::thread::scoped_lock lock(d_setlock);
    controls().reset();
}

int nlms_filter_ff_impl::work(int noutput_items,
                              gr_vector_const_void_star& input_items,
                              gr_vector_void_star& output_items)
{
    gr::thread::scoped_lock lock(d_setlock);
    return d_core.process(
        input_items, static_cast<std::size_t>(noutput_items), output_items);
}

} // namespace gpufilter
} // namespace gr
