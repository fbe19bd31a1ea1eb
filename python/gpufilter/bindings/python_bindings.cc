/* SPDX-License-Identifier: GPL-3.0-or-later */

#include <pybind11/pybind11.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

namespace py = pybind11;

// Headers for binding functions
/**************************************/
// BINDING_FUNCTION_PROTOTYPES(
void bind_complex_to_real(py::module& m);
void bind_device(py::module& m);
void bind_filter_method(py::module& m);
void bind_transfer(py::module& m);
void bind_gpu_options(py::module& m);
void bind_fft_filter(py::module& m);
void bind_fir_filter(py::module& m);
void bind_freq_xlating_fir_filter(py::module& m);
void bind_hilbert_fc(py::module& m);
void bind_interp_fir_filter(py::module& m);
void bind_nlms(py::module& m);
void bind_nlms_filter_ff(py::module& m);
void bind_pfb_arb_resampler(py::module& m);
void bind_pfb_channelizer_ccf(py::module& m);
void bind_pfb_channelizer_vcf(py::module& m);
void bind_fm_demod_bank_vcf(py::module& m);
void bind_pfb_decimator_ccf(py::module& m);
void bind_quadrature_demod_cf(py::module& m);
void bind_rational_resampler(py::module& m);
void bind_fir_filter_2d(py::module& m);
void bind_convolve2d(py::module& m);
void bind_pfb_interpolator_ccf(py::module& m);
void bind_pfb_synthesizer_ccf(py::module& m);
// ) END BINDING_FUNCTION_PROTOTYPES

// import_array() returns NULL on newer Pythons; wrapped so the module init compiles.
void* init_numpy()
{
    import_array();
    return NULL;
}

PYBIND11_MODULE(gpufilter_python, m)
{
    init_numpy(); // numpy's C API, or pybind11's numpy conversions crash

    // Base classes (gr.sync_decimator ...) come from gnuradio.gr.
    py::module::import("gnuradio.gr");
    // fft.window.win_type (hilbert_fc's window argument) comes from gnuradio.fft.
    py::module::import("gnuradio.fft");

    /**************************************/
    // BINDING_FUNCTION_CALLS(
    bind_device(m);
    bind_filter_method(m); // before the FIR blocks: their method argument
    bind_transfer(m);
    bind_gpu_options(m); // before the blocks: it is their base
    bind_complex_to_real(m);
    bind_fft_filter(m);
    bind_fir_filter(m);
    bind_freq_xlating_fir_filter(m);
    bind_hilbert_fc(m);
    bind_interp_fir_filter(m);
    bind_nlms(m);
    bind_nlms_filter_ff(m);
    bind_pfb_arb_resampler(m);
    bind_pfb_channelizer_ccf(m);
    bind_pfb_channelizer_vcf(m);
    bind_fm_demod_bank_vcf(m);
    bind_pfb_decimator_ccf(m);
    bind_quadrature_demod_cf(m);
    bind_rational_resampler(m);
    bind_fir_filter_2d(m);
    bind_convolve2d(m);
    bind_pfb_interpolator_ccf(m);
    bind_pfb_synthesizer_ccf(m);
    // ) END BINDING_FUNCTION_CALLS
}
