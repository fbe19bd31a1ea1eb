#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Where the whole-band FM receiver's time goes: the same built-in band through
growing prefixes of the receiver's chain, each ending in null sinks, in MS/s of band
input (docs/fm_band_receiver.md, "Performance"). Each row with GPU blocks names the
buffers between them and sets the module's switch for it: device buffers (the
receiver's default) throughout, and the demodulator bank once with host buffers and
once with device buffers.

Usage: apps/bench_fm_band_stages.py [RATE [SAMPLES]]   (default 20e6 and 2e8)
"""

import sys
import time

from gnuradio import blocks, gr
from gnuradio.gpufilter import fm_band_receiver as br
from gnuradio.gpufilter import fm_wide_band as wb
from gnuradio.gpufilter.fm_receiver import device_buffers_while_made
from gnuradio.gpufilter import gpufilter_python as gpu


def main(argv):
    rate = float(argv[1]) if len(argv) > 1 else 20e6
    total = int(float(argv[2])) if len(argv) > 2 else int(2e8)
    p = br.band_plan(rate)
    src = wb.wide_band_source(rate, wb.make_stations(rate))
    found = br.find_stations(src.head_samples, p)[0]
    chans = [s.channel for s in found]   # the built-in band is on the grid: no shift
    print(f"{len(chans)} stations, {total} samples of a {rate / 1e6:g} MS/s band",
          flush=True)

    def chan():
        return gpu.pfb_channelizer_vcf(p.nchan, br.channel_taps(p), p.oversample,
                                       "complex", gpu.device_auto, gpu.default_batch_size)

    def bank():  # as band_receiver makes it
        return gpu.fm_demod_bank_vcf(
            p.nchan, chans, p.decim, br.audio_taps(p), p.channel_rate, br.DEVIATION,
            br.TAU, gpu.device_auto,
            max(256, gpu.default_batch_size * p.oversample // p.nchan))

    def source_only(tb, h):
        tb.connect(h, blocks.null_sink(gr.sizeof_gr_complex))

    def channelizer(tb, h):
        tb.connect(h, chan(), blocks.null_sink(gr.sizeof_gr_complex * p.nchan))

    def demod_bank(tb, h):
        tb.connect(h, chan(), bank(), blocks.null_sink(gr.sizeof_float * len(chans)))

    def to_streams(tb, h):
        v = blocks.vector_to_streams(gr.sizeof_float, len(chans))
        tb.connect(h, chan(), bank(), v)
        for i in range(len(chans)):
            tb.connect((v, i), blocks.null_sink(gr.sizeof_float))

    def whole(tb, h):
        rx = br.band_receiver(p, found)   # the module's switch, as run() sets it
        tb.connect(h, rx)
        for i in range(len(chans)):
            tb.connect((rx, i), blocks.null_sink(gr.sizeof_float))

    def run(name, build, device_buffers=None):
        """One row; device_buffers True or False for rows with GPU blocks (the
        module's switch while they are made), None for a row without any."""
        if device_buffers is not None:
            name += ", device buffers" if device_buffers else ", host buffers"
        with device_buffers_while_made(device_buffers):
            tb = gr.top_block()
            head = blocks.head(gr.sizeof_gr_complex, total)
            if device_buffers is not None:  # whole batches into GPU blocks, as offline
                gpu.feed_whole_batches(head)
            tb.connect(src, head)
            build(tb, head)
        start = time.perf_counter()
        tb.run()
        wall = time.perf_counter() - start
        tb.disconnect_all()
        print(f"{name:62s} {total / wall / 1e6:8.1f} MS/s ({wall:.2f} s)", flush=True)

    run("band source (looped file) -> head", source_only)
    run("+ channelizer", channelizer, True)
    run("+ FM demodulator bank", demod_bank, False)
    run("+ FM demodulator bank", demod_bank, True)
    run("+ vector_to_streams", to_streams, True)
    run("the whole receiver (+ resamplers to 48 kHz)", whole, True)


if __name__ == "__main__":
    main(sys.argv)
