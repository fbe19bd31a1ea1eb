# SPDX-License-Identifier: GPL-3.0-or-later
"""The FM receiver benchmark: time to produce a fixed amount of audio against the FIR
tap count, in one run: gr-filter's CPU chain, our GPU chain with host buffers between
its blocks, and our GPU chain with device buffers (the figure of the GPU FM experiment
of Smirnov and Chiueh, with the device chain beside it). A reference: blocks.copy of
the same input with large buffers, timed in the same run.

The band is generated once, before any timing, into a temporary cf32 file that a
file source plays on repeat: the generator is out of the timing, and the source costs
the same for every chain. Each timed run is a whole flowgraph run (start to end of
stream) of file source -> head -> receiver -> null sink.
"""

import collections
import csv
import os
import tempfile
import time

from gnuradio import blocks, gr

from gnuradio.gpufilter import fm_band
from gnuradio.gpufilter.fm_receiver import AUDIO_RATE, fm_receiver, run_flowgraph

RATE = 2.4e6   # the band the benchmark generates, S/s
DEFAULT_TAPS = (16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192)
COPY_BUFFER_ITEMS = 1 << 20   # the reference's buffers, items ("large buffers")
COPY_RUNS = 3                 # the reference is the fastest of these
# Older CSVs have only the first eight columns; plot() draws what a CSV has.
FIELDS = ("chain", "taps", "audio_s", "gpu_s", "on_gpu", "cpu_s", "cpu_measured_audio_s",
          "speedup", "gpu_dev_s", "speedup_dev", "copy_s", "dev_vs_copy",
          "mb_to_device", "mb_from_device", "mb_to_device_dev", "mb_from_device_dev")

Timing = collections.namedtuple("Timing", "seconds audio_samples on_gpu to_device "
                                          "from_device")


def time_chain(path, rate, offset, chain, taps, backend, audio_seconds,
               device_buffers=None):
    """Wall seconds for the receiver to turn audio_seconds' worth of input into audio,
    the audio samples made, whether our blocks ran on a GPU and the bytes they moved
    to and from the device. Our backends ("gpu", "fallback") need device_buffers
    True or False: each series says which buffers it times, whatever the module's
    default."""
    if backend != "cpu" and device_buffers is None:
        raise ValueError("time_chain: give device_buffers=True or False for our blocks")
    tb = gr.top_block()
    src = blocks.file_source(gr.sizeof_gr_complex, path, True)
    head = blocks.head(gr.sizeof_gr_complex, int(round(audio_seconds * rate)))
    # The input side as in time_copy, so that both read the input alike: with GNU
    # Radio's default buffers the file source and head move 4096 samples per call,
    # which would limit every chain to their rate, not to the receiver's.
    for b in (src, head):
        b.set_min_output_buffer(COPY_BUFFER_ITEMS)
    rx = fm_receiver(rate, offset, chain, taps, backend,
                     device_buffers=device_buffers if backend != "cpu" else None)
    sink = blocks.null_sink(gr.sizeof_float)
    tb.connect(src, head, rx, sink)
    start = time.perf_counter()
    run_flowgraph(tb)
    seconds = time.perf_counter() - start
    return Timing(seconds, sink.nitems_read(0), rx.on_gpu(), *rx.pcie_bytes())


def time_copy(path, rate, audio_seconds, buffer_items=COPY_BUFFER_ITEMS):
    """Wall seconds of file source -> head -> blocks.copy -> null sink over the same
    input as one timed receiver run, every buffer at least buffer_items: the rate at
    which GNU Radio moves this input through one block, the device chain's target."""
    tb = gr.top_block()
    src = blocks.file_source(gr.sizeof_gr_complex, path, True)
    head = blocks.head(gr.sizeof_gr_complex, int(round(audio_seconds * rate)))
    copy = blocks.copy(gr.sizeof_gr_complex)
    for b in (src, head, copy):
        b.set_min_output_buffer(buffer_items)
    tb.connect(src, head, copy, blocks.null_sink(gr.sizeof_gr_complex))
    start = time.perf_counter()
    run_flowgraph(tb)
    return time.perf_counter() - start


def run(chain="classic", taps_list=DEFAULT_TAPS, audio_seconds=10.0, cpu_budget=15.0,
        rate=RATE, offset=300e3, gpu_backend="gpu", log=print):
    """One row per tap count: the GPU chain with host buffers, with device buffers,
    then the CPU chain; every row also carries the blocks.copy reference (the fastest
    of COPY_RUNS runs before the first tap count). The CPU chain at large tap counts is
    bounded: a 0.5 s probe predicts its time; when the full run would take more than
    cpu_budget seconds, it runs on as much audio as fits in the budget (at least the
    probe's) and its time is scaled to audio_seconds. Throughput is steady after
    start-up, so the scaling is linear; the CSV says how much audio was measured."""
    band, _ = fm_band.band_samples(1.0, rate, seed=7)
    fd, path = tempfile.mkstemp(prefix="gpufilter_fm_band_", suffix=".cf32")
    rows = []
    try:
        with os.fdopen(fd, "wb") as f:
            band.tofile(f)
        # Untimed warm-up: CUDA context, module loading, page cache; both buffer kinds.
        for dev in (False, True):
            time_chain(path, rate, offset, chain, taps_list[0], gpu_backend, 0.2,
                       device_buffers=dev)
        copy_s = min(time_copy(path, rate, audio_seconds) for _ in range(COPY_RUNS))
        log(f"reference: blocks.copy of the input ({COPY_BUFFER_ITEMS}-item buffers) "
            f"{copy_s:.3f} s, {audio_seconds * rate / copy_s / 1e6:.0f} MS/s")
        for taps in taps_list:
            host = time_chain(path, rate, offset, chain, taps, gpu_backend, audio_seconds,
                              device_buffers=False)
            dev = time_chain(path, rate, offset, chain, taps, gpu_backend, audio_seconds,
                             device_buffers=True)
            probe_s = min(0.5, audio_seconds)
            probe = time_chain(path, rate, offset, chain, taps, "cpu", probe_s)
            predicted = probe.seconds * audio_seconds / probe_s
            cpu_audio = audio_seconds
            if predicted > cpu_budget:
                cpu_audio = max(probe_s, audio_seconds * cpu_budget / predicted)
            cpu = time_chain(path, rate, offset, chain, taps, "cpu", cpu_audio)
            cpu_s = cpu.seconds * audio_seconds / cpu_audio
            row = dict(chain=chain, taps=taps,
                       audio_s=round(host.audio_samples / AUDIO_RATE, 3),
                       gpu_s=round(host.seconds, 4), on_gpu=host.on_gpu and dev.on_gpu,
                       cpu_s=round(cpu_s, 4), cpu_measured_audio_s=round(cpu_audio, 3),
                       speedup=round(cpu_s / host.seconds, 2),
                       gpu_dev_s=round(dev.seconds, 4),
                       speedup_dev=round(cpu_s / dev.seconds, 2),
                       copy_s=round(copy_s, 4), dev_vs_copy=round(copy_s / dev.seconds, 3),
                       mb_to_device=round(host.to_device / 1e6, 3),
                       mb_from_device=round(host.from_device / 1e6, 3),
                       mb_to_device_dev=round(dev.to_device / 1e6, 3),
                       mb_from_device_dev=round(dev.from_device / 1e6, 3))
            rows.append(row)
            log(format_row(row))
    finally:
        os.unlink(path)
    return rows


def value(r, key):
    """A row's number, or None where the row (an older CSV's) has no such column."""
    v = r.get(key)
    return None if v is None or v == "" else float(v)


def header():
    return (f"{'taps':>6} {'audio s':>8} {'CPU chain s':>12} {'GPU host-buf s':>15} "
            f"{'GPU dev-buf s':>14} {'speed-up':>9} {'dev-buf':>8} {'x copy':>7} "
            f"{'PCIe MB up/down, dev-buf':>25} {'CPU measured on':>16}  on GPU")


def format_row(r):
    scaled = "" if float(r["cpu_measured_audio_s"]) >= float(r["audio_s"]) - 1e-3 else \
        f"{float(r['cpu_measured_audio_s']):.2f} s audio"

    def num(key, fmt, suffix=""):
        v = value(r, key)
        return "-" if v is None else f"{v:{fmt}}{suffix}"

    pcie = "-" if value(r, "mb_to_device_dev") is None else \
        f"{num('mb_to_device_dev', '.1f')}/{num('mb_from_device_dev', '.2f')}"
    return (f"{int(r['taps']):>6} {float(r['audio_s']):>8.2f} {float(r['cpu_s']):>12.3f} "
            f"{float(r['gpu_s']):>15.3f} {num('gpu_dev_s', '.3f'):>14} "
            f"{num('speedup', '.1f', 'x'):>9} {num('speedup_dev', '.1f', 'x'):>8} "
            f"{num('dev_vs_copy', '.2f', 'x'):>7} {pcie:>25} {scaled:>16}  {r['on_gpu']}")


def write_csv(rows, path):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        w.writeheader()
        w.writerows(rows)


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def series(rows, key):
    """A column as floats, or None when any row lacks it (an older CSV): not drawn."""
    values = [value(r, key) for r in rows]
    return None if any(v is None for v in values) else values


def plot(rows, png, title=None):
    """Log-log plot of the chains' times against the tap count, the blocks.copy
    reference as a horizontal line with the device chain's target (0.8x its rate), and
    the speed-ups below; returns False when matplotlib is missing (a GPU machine need
    not have it: plot later from the CSV). A series the CSV lacks is not drawn."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    taps = [int(r["taps"]) for r in rows]
    cpu_s = series(rows, "cpu_s")
    gpu_s = series(rows, "gpu_s")
    dev_s = series(rows, "gpu_dev_s")
    copy_s = series(rows, "copy_s")
    on_gpu = all(str(r["on_gpu"]) == "True" for r in rows)
    where = "" if on_gpu else ", CPU fallback (no GPU)"
    # Times above; the speed-up in a panel of its own below, its labels over the
    # points, so that no label meets a tick label.
    fig, (ax, sx) = plt.subplots(2, 1, figsize=(7, 7), sharex=True,
                                 gridspec_kw=dict(height_ratios=[3, 2]))
    ax.loglog(taps, cpu_s, "o-", color="tab:red", label="CPU chain (gr-filter)")
    ax.loglog(taps, gpu_s, "s-", color="tab:blue",
              label=("GPU chain (gr-gpufilter)" if dev_s is None else
                     "GPU chain, host buffers") + where)
    if dev_s:
        ax.loglog(taps, dev_s, "^-", color="tab:purple",
                  label="GPU chain, device buffers" + where)
    if copy_s:
        ref = min(copy_s)
        ax.axhline(ref, color="0.35", ls="--", lw=1,
                   label="blocks.copy of the input (large buffers)")
        ax.axhline(ref / 0.8, color="0.35", ls=":", lw=1,
                   label="target: 0.8x blocks.copy's rate")
    ax.set_ylabel(f"seconds to produce {float(rows[0]['audio_s']):g} s of audio")
    ax.set_title(title or f"FM receiver, {rows[0]['chain']} chain")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    panels = [(gpu_s, "s-", "tab:blue", "host buffers")]
    if dev_s:
        panels.append((dev_s, "^-", "tab:purple", "device buffers"))
    speedups = [[c / g for g, c in zip(times, cpu_s)] for times, *_ in panels]
    every = [x for sp in speedups for x in sp]
    for i, (times, style, color, what) in enumerate(panels):
        speedup = speedups[i]
        sx.loglog(taps, speedup, style, color=color, label=what if dev_s else None)
        other = speedups[1 - i] if len(panels) == 2 else speedup
        for t, x, y in zip(taps, speedup, other):
            # Each label on its own series' side of the other, so they never overlap.
            above = x > y or (x == y and i == 0)
            sx.annotate(f"{x:.1f}x", (t, x), textcoords="offset points",
                        xytext=(0, 7 if above else -12), ha="center", fontsize=7,
                        color=color)
    if dev_s:
        sx.legend(fontsize=8, loc="upper left")
    sx.set_ylim(min(every) / 2.0, max(every) * 2.5)
    sx.set_ylabel("speed-up (CPU time / GPU time)")
    sx.grid(True, which="both", alpha=0.3)
    sx.set_xscale("log", base=2)
    sx.set_xticks(taps)
    sx.set_xticklabels([str(t) for t in taps], fontsize=8)
    sx.minorticks_off()
    sx.set_xlabel("FIR taps")
    fig.tight_layout()
    if os.path.dirname(png):
        os.makedirs(os.path.dirname(png), exist_ok=True)
    fig.savefig(png, dpi=120)
    plt.close(fig)
    return True
