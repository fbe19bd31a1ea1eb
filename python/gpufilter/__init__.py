# SPDX-License-Identifier: GPL-3.0-or-later
"""
gr-gpufilter: GNU Radio's filtering on NVIDIA GPUs.

Each block takes gr-filter's arguments first, so replacing ``filter.`` with
``gpufilter.`` is the whole migration; GPU options (``device``, ``batch_size``)
follow with defaults. Without a CUDA device the blocks compute on the CPU.
"""

from .gpufilter_python import *  # noqa: F401,F403
