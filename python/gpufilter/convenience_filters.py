# SPDX-License-Identifier: GPL-3.0-or-later
"""gr-filter's GRC convenience filters (Low Pass Filter, High Pass Filter, Band Pass
Filter, Band Reject Filter, Root Raised Cosine Filter and their FFT variants) for
Python: a filter block of gr-gpufilter whose taps come from firdes.

``gpufilter.low_pass_filter("fir_filter_ccf", 4, 1.0, samp_rate, 5e3, 1e3)`` is GRC's
Low Pass Filter with FIR Type Complex->Complex (Decimating), Decimation 4: the taps are
``firdes.low_pass(1.0, samp_rate, 5e3, 1e3, window.WIN_HAMMING, 6.76)``, exactly as
gr-filter's GRC block designs them, on ``gpufilter.fir_filter_ccf(4, taps)``. Each
design parameter has a setter (``set_cutoff_freq``, ...) that redesigns the taps and
calls the block's ``set_taps``, as GRC's callbacks do, and a getter of the same name.
The first argument, ``kind``, is the block the taps go to, spelled as GRC's FIR Type
options are (``fir_filter_ccf``, ``interp_fir_filter_fff``, ...) or as the FFT variants'
(``fft_filter_ccc``, ``fft_filter_ccf``, ``fft_filter_fff``); the second, ``factor``,
is its decimation, or its interpolation for the ``interp_fir_filter_*`` kinds.
The GPU options (``device``, ``batch_size``, ``max_latency``) are keyword arguments.
"""

import math

from gnuradio import gr
from gnuradio.fft import window
from gnuradio.filter import firdes

from . import gpufilter_python as _blocks

__all__ = ["low_pass_filter", "high_pass_filter", "band_pass_filter",
           "band_reject_filter", "root_raised_cosine_filter", "KINDS"]

# The blocks a design can feed: GRC's FIR Type options (the band filters add the
# complex-taps ones) and the FFT variants' types.
_REAL_FIR_KINDS = ("fir_filter_ccf", "interp_fir_filter_ccf",
                   "fir_filter_fff", "interp_fir_filter_fff")
_COMPLEX_FIR_KINDS = ("fir_filter_ccc", "interp_fir_filter_ccc",
                      "fir_filter_fcc", "interp_fir_filter_fcc")
_FFT_KINDS = ("fft_filter_ccc", "fft_filter_ccf", "fft_filter_fff")
KINDS = _REAL_FIR_KINDS + _COMPLEX_FIR_KINDS + _FFT_KINDS

_ITEM_SIZE = {"c": gr.sizeof_gr_complex, "f": gr.sizeof_float, "s": gr.sizeof_short}
_ONE_CUTOFF = ("samp_rate", "cutoff_freq", "transition_width", "window", "beta")
_TWO_CUTOFFS = ("samp_rate", "low_cutoff_freq", "high_cutoff_freq", "transition_width",
                "window", "beta")


def _check_samp_rate(p):
    if not p["samp_rate"] > 0:
        raise ValueError(f"samp_rate: must be > 0, got {p['samp_rate']}")


def _check_width(p):
    if not p["transition_width"] > 0:
        raise ValueError(f"transition_width: must be > 0, got {p['transition_width']}")


def _check_cutoff(name, value, low, samp_rate):
    """low: the lowest cutoff firdes allows, as an exclusive (0) or inclusive bound."""
    nyquist = samp_rate / 2
    ok = (value > 0 if low == 0 else value >= low) and value <= nyquist
    if not ok:
        bound = "0 < " if low == 0 else f"{low} <= "
        raise ValueError(f"{name}: must be {bound}{name} <= samp_rate / 2 = {nyquist}, "
                         f"got {value}")


def _check_one_cutoff(p, complex_taps):
    _check_samp_rate(p)
    _check_cutoff("cutoff_freq", p["cutoff_freq"], 0, p["samp_rate"])
    _check_width(p)


def _check_two_cutoffs(p, complex_taps):
    # firdes: 0 < f <= fs/2 for real taps; -fs/2 <= f <= fs/2 for complex taps
    _check_samp_rate(p)
    low = -p["samp_rate"] / 2 if complex_taps else 0
    for name in ("low_cutoff_freq", "high_cutoff_freq"):
        _check_cutoff(name, p[name], low, p["samp_rate"])
    if p["low_cutoff_freq"] > p["high_cutoff_freq"]:
        raise ValueError(f"low_cutoff_freq: must be <= high_cutoff_freq "
                         f"({p['high_cutoff_freq']}), got {p['low_cutoff_freq']}")
    _check_width(p)


def _check_rrc(p, complex_taps):
    _check_samp_rate(p)
    for name in ("symbol_rate", "alpha"):  # firdes divides by both
        if not p[name] > 0:
            raise ValueError(f"{name}: must be > 0, got {p[name]}")
    if int(p["ntaps"]) != p["ntaps"] or p["ntaps"] < 1:
        raise ValueError(f"ntaps: must be an integer >= 1, got {p['ntaps']}")


# name: (firdes function for real-taps kinds, for complex-taps kinds, the parameters
# after gain in firdes' order, their check, the kinds)
_DESIGNS = {
    "low_pass": ("low_pass", "low_pass", _ONE_CUTOFF, _check_one_cutoff,
                 _REAL_FIR_KINDS + _FFT_KINDS),
    "high_pass": ("high_pass", "high_pass", _ONE_CUTOFF, _check_one_cutoff,
                  _REAL_FIR_KINDS + _FFT_KINDS),
    "band_pass": ("band_pass", "complex_band_pass", _TWO_CUTOFFS, _check_two_cutoffs,
                  KINDS),
    "band_reject": ("band_reject", "complex_band_reject", _TWO_CUTOFFS,
                    _check_two_cutoffs, KINDS),
    "root_raised_cosine": ("root_raised_cosine", "root_raised_cosine",
                           ("samp_rate", "symbol_rate", "alpha", "ntaps"), _check_rrc,
                           _REAL_FIR_KINDS + _FFT_KINDS),
}


def design_taps(design, kind, gain, *args):
    """The taps gr-filter's GRC block for `design` ("low_pass", "band_pass", ...) and
    FIR Type `kind` computes from gain and the design parameters (firdes' order)."""
    real_fcn, complex_fcn, params, check, _ = _DESIGNS[design]
    complex_taps = kind[-1] == "c"
    names = ("gain",) + params
    values = dict(zip(names, (gain,) + tuple(args)))
    check(values, complex_taps)
    if "ntaps" in values:
        values["ntaps"] = int(values["ntaps"])
    fcn = getattr(firdes, complex_fcn if complex_taps else real_fcn)
    taps = list(fcn(*[values[n] for n in names]))
    if not all(math.isfinite(abs(t)) for t in taps):
        raise ValueError(f"{design} design: firdes gave non-finite taps for "
                         f"{', '.join(f'{n}={values[n]}' for n in names)}")
    return taps


class _designed_filter(gr.hier_block2):
    """A gr-gpufilter block whose taps a firdes design computes; see the module."""

    _design = None  # a key of _DESIGNS

    def __init__(self, kind, factor, values, device, batch_size, max_latency):
        _, _, _, _, kinds = _DESIGNS[self._design]
        if kind not in kinds:
            raise ValueError(f"kind: must be one of {', '.join(kinds)}; got {kind!r}")
        what = "interpolation" if kind.startswith("interp") else "decimation"
        if int(factor) != factor or factor < 1:
            raise ValueError(f"factor: the {what} of {kind} must be an integer >= 1, "
                             f"got {factor}")
        self._kind, self._values = kind, dict(values)
        taps = self._taps_for(self._values)
        suffix = kind[-3:]
        gr.hier_block2.__init__(
            self, self._design + "_filter",
            gr.io_signature(1, 1, _ITEM_SIZE[suffix[0]]),
            gr.io_signature(1, 1, _ITEM_SIZE[suffix[1]]))
        make = getattr(_blocks, kind)
        options = dict(device=device, batch_size=batch_size, max_latency=max_latency)
        if kind.startswith("fft_filter"):
            self.block = make(int(factor), taps, 1, **options)
        else:
            self.block = make(int(factor), taps, **options)
        self.connect(self, self.block, self)

    def _taps_for(self, values):
        _, _, params, _, _ = _DESIGNS[self._design]
        return design_taps(self._design, self._kind, values["gain"],
                           *[values[p] for p in params])

    def _set(self, name, value):
        values = dict(self._values, **{name: value})
        taps = self._taps_for(values)  # raises before anything changes
        self._values = values
        self.block.set_taps(taps)

    def kind(self):
        return self._kind


def _forward(name):
    return lambda self, *args: getattr(self.block, name)(*args)


for _name in ("taps", "on_gpu", "device", "batch_size", "max_latency",
              "set_max_latency", "declare_sample_delay"):
    setattr(_designed_filter, _name, _forward(_name))


def _with_parameters(cls):
    """Adds set_<p>(value) (redesign, then set_taps) and <p>() for gain and each design
    parameter of cls._design."""
    for name in ("gain",) + _DESIGNS[cls._design][2]:
        setattr(cls, "set_" + name,
                lambda self, value, name=name: self._set(name, value))
        setattr(cls, name, lambda self, name=name: self._values[name])
    return cls


_GPU_DEFAULTS = dict(device=_blocks.device_auto, batch_size=_blocks.default_batch_size,
                     max_latency=_blocks.default_max_latency)


@_with_parameters
class low_pass_filter(_designed_filter):
    """GRC's Low Pass Filter: taps firdes.low_pass(gain, samp_rate, cutoff_freq,
    transition_width, window, beta) on gpufilter.<kind>(factor, taps). kind: one of
    fir_filter_ccf, interp_fir_filter_ccf, fir_filter_fff, interp_fir_filter_fff and
    (FFT Low Pass Filter) fft_filter_ccc, fft_filter_ccf, fft_filter_fff. Frequencies in
    Hz; beta applies to the Kaiser window only."""

    _design = "low_pass"

    def __init__(self, kind, factor, gain, samp_rate, cutoff_freq, transition_width,
                 window=window.WIN_HAMMING, beta=6.76, **gpu_options):
        _designed_filter.__init__(self, kind, factor, dict(
            gain=gain, samp_rate=samp_rate, cutoff_freq=cutoff_freq,
            transition_width=transition_width, window=window, beta=beta),
            **dict(_GPU_DEFAULTS, **gpu_options))


@_with_parameters
class high_pass_filter(low_pass_filter):
    """GRC's High Pass Filter: taps firdes.high_pass(gain, samp_rate, cutoff_freq,
    transition_width, window, beta) on gpufilter.<kind>(factor, taps); the arguments
    and kinds of low_pass_filter."""

    _design = "high_pass"


@_with_parameters
class band_pass_filter(_designed_filter):
    """GRC's Band Pass Filter: taps firdes.band_pass(gain, samp_rate, low_cutoff_freq,
    high_cutoff_freq, transition_width, window, beta), or firdes.complex_band_pass for
    the complex-taps kinds (fir_filter_ccc, interp_fir_filter_ccc, fir_filter_fcc,
    interp_fir_filter_fcc, fft_filter_ccc), whose cutoffs may be negative."""

    _design = "band_pass"

    def __init__(self, kind, factor, gain, samp_rate, low_cutoff_freq, high_cutoff_freq,
                 transition_width, window=window.WIN_HAMMING, beta=6.76, **gpu_options):
        _designed_filter.__init__(self, kind, factor, dict(
            gain=gain, samp_rate=samp_rate, low_cutoff_freq=low_cutoff_freq,
            high_cutoff_freq=high_cutoff_freq, transition_width=transition_width,
            window=window, beta=beta), **dict(_GPU_DEFAULTS, **gpu_options))


@_with_parameters
class band_reject_filter(_designed_filter):
    """GRC's Band Reject Filter: taps firdes.band_reject(...), or
    firdes.complex_band_reject for the complex-taps kinds; arguments as
    band_pass_filter's."""

    _design = "band_reject"

    def __init__(self, kind, factor, gain, samp_rate, low_cutoff_freq, high_cutoff_freq,
                 transition_width, window=window.WIN_HAMMING, beta=6.76, **gpu_options):
        _designed_filter.__init__(self, kind, factor, dict(
            gain=gain, samp_rate=samp_rate, low_cutoff_freq=low_cutoff_freq,
            high_cutoff_freq=high_cutoff_freq, transition_width=transition_width,
            window=window, beta=beta), **dict(_GPU_DEFAULTS, **gpu_options))


@_with_parameters
class root_raised_cosine_filter(_designed_filter):
    """GRC's Root Raised Cosine Filter: taps firdes.root_raised_cosine(gain, samp_rate,
    symbol_rate, alpha, ntaps) (ntaps is made odd, as firdes does) on
    gpufilter.<kind>(factor, taps); the kinds of low_pass_filter."""

    _design = "root_raised_cosine"

    def __init__(self, kind, factor, gain, samp_rate, symbol_rate, alpha, ntaps,
                 **gpu_options):
        _designed_filter.__init__(self, kind, factor, dict(
            gain=gain, samp_rate=samp_rate, symbol_rate=symbol_rate, alpha=alpha,
            ntaps=ntaps), **dict(_GPU_DEFAULTS, **gpu_options))
