/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/parameter_checks.h"
#include "core/port_batch.h"
#include "cuda/common/sample_types.h"
#include "cuda/pfb/pfb_types.h"
#include "pfb/pfb_channelizer_vcf_impl.h"
#include <gnuradio/io_signature.h>
#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gpufilter {

namespace {

template <class In>
std::string format_name();
template <>
std::string format_name<gr_complex>()
{
    return "complex";
}
template <>
std::string format_name<cuda::iq_s8>()
{
    return "int8";
}
template <>
std::string format_name<cuda::iq_u8>()
{
    return "uint8";
}
template <>
std::string format_name<cuda::iq_s16>()
{
    return "int16";
}

} // namespace

pfb_channelizer_vcf::sptr pfb_channelizer_vcf::make(unsigned int numchans,
                                                    const std::vector<float>& taps,
                                                    float oversample_rate,
                                                    const std::string& input_format,
                                                    int device,
                                                    int batch_size,
                                                    double max_latency)
{
    // One block class per input sample type; the same arguments for each.
    const auto make_for = [&](auto sample) -> sptr {
        using In = decltype(sample);
        return gnuradio::make_block_sptr<pfb_channelizer_vcf_impl<In>>(numchans,
                                                                       taps,
                                                                       oversample_rate,
                                                                       input_format,
                                                                       device,
                                                                       batch_size,
                                                                       max_latency);
    };
    if (input_format == "complex")
        return make_for(gr_complex{});
    if (input_format == "int8")
        return make_for(cuda::iq_s8{});
    if (input_format == "uint8")
        return make_for(cuda::iq_u8{});
    if (input_format == "int16")
        return make_for(cuda::iq_s16{});
    throw std::invalid_argument("input_format: must be \"complex\", \"int8\", "
                                "\"uint8\" or \"int16\", got \"" +
                                input_format + "\"");
}

template <class In>
pfb_channelizer_vcf_impl<In>::pfb_channelizer_vcf_impl(unsigned numchans,
                                                       const std::vector<float>& taps,
                                                       float oversample_rate,
                                                       const std::string& input_format,
                                                       int device,
                                                       int batch_size,
                                                       double max_latency)
    : gr::sync_decimator(
          "gpu_pfb_channelizer_vcf",
          gr::io_signature::make(1, 1, sizeof(In)),
          gr::io_signature::make(1, 1, checked_numchans(numchans) * sizeof(gr_complex)),
          channelizer_rate(numchans, oversample_rate)),
      gpu_block<pfb_channelizer_vcf, cuda::pfb_channelizer_controls>(
          device,
          { 1, channelizer_rate(numchans, oversample_rate) },
          checked_batch_size(batch_size),
          max_latency,
          pfb_channelizer_computation<In>(
              numchans, checked_taps(taps), oversample_rate, true, {})),
      d_numchans(numchans),
      d_taps(taps),
      d_format(format_name<In>())
{
    (void)input_format;
    this->set_history(numchans * taps_per_filter(numchans, taps));
    this->d_core.set_output_multiple(
        channelizer_output_multiple(numchans, this->decimation()));
}

template <class In>
void pfb_channelizer_vcf_impl<In>::set_taps(const std::vector<float>& taps)
{
    checked_taps(taps);
    gr::thread::scoped_lock lock(this->d_setlock);
    d_taps = taps;
    this->controls().set_taps(taps);
    d_updated = true;
}

template <class In>
std::vector<std::vector<float>> pfb_channelizer_vcf_impl<In>::taps() const
{
    return polyphase_split(d_numchans, d_taps);
}

template <class In>
int pfb_channelizer_vcf_impl<In>::work(int noutput_items,
                                       gr_vector_const_void_star& input_items,
                                       gr_vector_void_star& output_items)
{
    gr::thread::scoped_lock lock(this->d_setlock);
    if (d_updated) {
        this->set_history(d_numchans * taps_per_filter(d_numchans, d_taps));
        d_updated = false;
        this->d_core.history_changed();
        return 0;
    }
    return this->d_core.process(input_items,
                                static_cast<std::size_t>(noutput_items) *
                                    this->decimation(),
                                output_items);
}

#define GPUFILTER_INSTANTIATE_PFB_CHANNELIZER_VCF_IMPL(In) \
    template class pfb_channelizer_vcf_impl<In>;
GPUFILTER_FOR_EACH_PFB_INPUT(GPUFILTER_INSTANTIATE_PFB_CHANNELIZER_VCF_IMPL)

} // namespace gpufilter
} // namespace gr
