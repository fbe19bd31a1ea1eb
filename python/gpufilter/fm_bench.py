# SPDX-License-Identifier: GPL-3.0-or-later
"""The FM receiver benchmark: time to produce a fixed amount of audio against the FIR
tap count, the GPU chain against gr-filter's CPU chain, in one run (the figure of the
GPU FM experiment of Smirnov and Chiueh).

The band is generated once, before any timing, into a temporary cf32 file that a
file source plays on repeat: the generator is out of the timing, and the source costs
the same for both chains. Each timed run is a whole flowgraph run (start to end of
stream) of file source -> head -> receiver -> null sink.
"""

import csv
import os
import tempfile
import time

from gnuradio import blocks, gr

from . import fm_band
from .fm_receiver import AUDIO_RATE, fm_receiver, run_flowgraph

RATE = 2.4e6   # the band the benchmark generates, S/s
DEFAULT_TAPS = (16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192)
FIELDS = ("chain", "taps", "audio_s", "gpu_s", "on_gpu", "cpu_s", "cpu_measured_audio_s",
          "speedup")


def time_chain(path, rate, offset, chain, taps, backend, audio_seconds):
    """Wall seconds for the receiver to turn audio_seconds' worth of input into audio;
    also the audio samples made and whether our blocks ran on a GPU."""
    tb = gr.top_block()
    src = blocks.file_source(gr.sizeof_gr_complex, path, True)
    head = blocks.head(gr.sizeof_gr_complex, int(round(audio_seconds * rate)))
    rx = fm_receiver(rate, offset, chain, taps, backend)
    sink = blocks.null_sink(gr.sizeof_float)
    tb.connect(src, head, rx, sink)
    start = time.perf_counter()
    run_flowgraph(tb)
    return time.perf_counter() - start, sink.nitems_read(0), rx.on_gpu()


def run(chain="classic", taps_list=DEFAULT_TAPS, audio_seconds=10.0, cpu_budget=15.0,
        rate=RATE, offset=300e3, gpu_backend="gpu", log=print):
    """One row per tap count. The CPU chain at large tap counts is bounded: a 0.5 s
    probe predicts its time; when the full run would take more than cpu_budget
    seconds, it runs on as much audio as fits in the budget (at least the probe's)
    and its time is scaled to audio_seconds. Throughput is steady after start-up, so
    the scaling is linear; the CSV says how much audio was measured."""
    band, _ = fm_band.band_samples(1.0, rate, seed=7)
    fd, path = tempfile.mkstemp(prefix="gpufilter_fm_band_", suffix=".cf32")
    rows = []
    try:
        with os.fdopen(fd, "wb") as f:
            band.tofile(f)
        # Untimed warm-up: CUDA context, module loading, page cache.
        time_chain(path, rate, offset, chain, taps_list[0], gpu_backend, 0.2)
        for taps in taps_list:
            gpu_s, n_audio, on_gpu = time_chain(path, rate, offset, chain, taps,
                                                gpu_backend, audio_seconds)
            probe_s = min(0.5, audio_seconds)
            probe_t, _, _ = time_chain(path, rate, offset, chain, taps, "cpu", probe_s)
            predicted = probe_t * audio_seconds / probe_s
            cpu_audio = audio_seconds
            if predicted > cpu_budget:
                cpu_audio = max(probe_s, audio_seconds * cpu_budget / predicted)
            cpu_t, _, _ = time_chain(path, rate, offset, chain, taps, "cpu", cpu_audio)
            cpu_s = cpu_t * audio_seconds / cpu_audio
            row = dict(chain=chain, taps=taps, audio_s=round(n_audio / AUDIO_RATE, 3),
                       gpu_s=round(gpu_s, 4), on_gpu=on_gpu, cpu_s=round(cpu_s, 4),
                       cpu_measured_audio_s=round(cpu_audio, 3),
                       speedup=round(cpu_s / gpu_s, 2))
            rows.append(row)
            log(format_row(row))
    finally:
        os.unlink(path)
    return rows


def header():
    return (f"{'taps':>6} {'audio s':>8} {'GPU chain s':>12} {'CPU chain s':>12} "
            f"{'speed-up':>9} {'CPU measured on':>16}  on GPU")


def format_row(r):
    scaled = "" if float(r["cpu_measured_audio_s"]) >= float(r["audio_s"]) - 1e-3 else \
        f"{float(r['cpu_measured_audio_s']):.2f} s audio"
    return (f"{int(r['taps']):>6} {float(r['audio_s']):>8.2f} {float(r['gpu_s']):>12.3f} "
            f"{float(r['cpu_s']):>12.3f} {float(r['speedup']):>8.1f}x {scaled:>16}  "
            f"{r['on_gpu']}")


def write_csv(rows, path):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        w.writeheader()
        w.writerows(rows)


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def plot(rows, png, title=None):
    """Log-log plot of both chains' times against the tap count; returns False when
    matplotlib is missing (a GPU machine need not have it: plot later from the CSV)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    taps = [int(r["taps"]) for r in rows]
    gpu_s = [float(r["gpu_s"]) for r in rows]
    cpu_s = [float(r["cpu_s"]) for r in rows]
    on_gpu = all(str(r["on_gpu"]) == "True" for r in rows)
    speedup = [c / g for g, c in zip(gpu_s, cpu_s)]
    # Times above; the speed-up in a panel of its own below, its labels over the
    # points, so that no label meets a tick label.
    fig, (ax, sx) = plt.subplots(2, 1, figsize=(7, 7), sharex=True,
                                 gridspec_kw=dict(height_ratios=[3, 2]))
    ax.loglog(taps, cpu_s, "o-", color="tab:red", label="CPU chain (gr-filter)")
    ax.loglog(taps, gpu_s, "s-", color="tab:blue", label="GPU chain (gr-gpufilter)"
              if on_gpu else "gr-gpufilter chain, CPU fallback (no GPU)")
    ax.set_ylabel(f"seconds to produce {float(rows[0]['audio_s']):g} s of audio")
    ax.set_title(title or f"FM receiver, {rows[0]['chain']} chain")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    sx.loglog(taps, speedup, "D-", color="tab:green")
    for t, x in zip(taps, speedup):
        sx.annotate(f"{x:.1f}x", (t, x), textcoords="offset points", xytext=(0, 7),
                    ha="center", fontsize=8)
    sx.set_ylim(min(speedup) / 1.6, max(speedup) * 2.5)
    sx.set_ylabel("speed-up (CPU time / GPU time)")
    sx.grid(True, which="both", alpha=0.3)
    sx.set_xscale("log", base=2)
    sx.set_xticks(taps)
    sx.set_xticklabels([str(t) for t in taps], fontsize=8)
    sx.minorticks_off()
    sx.set_xlabel("FIR taps")
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    plt.close(fig)
    return True
