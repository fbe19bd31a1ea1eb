# SPDX-License-Identifier: GPL-3.0-or-later
"""
gr-gpufilter: GNU Radio's filtering on NVIDIA GPUs.

Each block takes gr-filter's arguments first, so replacing ``filter.`` with
``gpufilter.`` is the whole migration; GPU options (``device``, ``batch_size``,
``max_latency``) follow with defaults. A block holds input for at most ``max_latency``
seconds (10 ms by default), so it follows a live stream as gr-filter's does. Without a
CUDA device the blocks compute on the CPU.
"""

from .gpufilter_python import *  # noqa: F401,F403

# gr-filter's design tools, the same objects as gnuradio.filter's, so that replacing
# ``filter.`` with ``gpufilter.`` also covers ``filter.firdes.low_pass(...)``; and the
# submodule gr-filter exposes as an attribute (``filter.pfb``).
from gnuradio.filter import file_taps_loader, firdes, optfir, pm_remez  # noqa: E402,F401
from gnuradio.fft import window  # noqa: E402,F401

from . import pfb  # noqa: E402,F401
from .filterbank import analysis_filterbank, synthesis_filterbank  # noqa: E402,F401
from .convenience_filters import (band_pass_filter, band_reject_filter,  # noqa: E402,F401
                                  high_pass_filter, low_pass_filter,
                                  root_raised_cosine_filter)
from .freq_xlating_fft_filter import freq_xlating_fft_filter_ccc  # noqa: E402,F401
from .convolve2d import convolve2d, correlate2d  # noqa: E402,F401
from .batching import feed_whole_batches  # noqa: E402,F401
