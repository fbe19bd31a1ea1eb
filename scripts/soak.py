#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Soak test: pushes many samples (10^10 on a GPU host: --samples 1e10) through GPU
chains while a control thread retunes and changes taps, and checks the output at
checkpoints against a reference, and the counts of samples in and out exactly.

Chains (--chains, comma-separated; all by default):
  xlating      freq_xlating_fir_filter_ccf, a retune every --retune-every input
               samples and new taps every --taps-every
  fir_chain    fir_filter_ccf -> fir_filter_ccf, new taps on both every --taps-every
  channelizer  pfb_channelizer_ccf (8 channels), new taps every --taps-every
  arb          pfb_arb_resampler_ccf at rate 2 (when this gpufilter has it)

How the reference stays exact although the control thread's calls land wherever
the block's thread happens to be:
  * The input is a repeating vector_source of a random vector of L samples, so input
    n is x[n mod L]; a head block counts exactly N samples in.
  * xlating: every retune and every set_taps makes the block emit a "freq" tag on the
    first output computed with the new settings (as gr-filter does). A probe after the
    block records every tag's offset and value, so the reference knows exactly where
    each change took effect: output k of the segment that starts at tag output k_s
    with centre frequency f_s is exp(j*2*pi*phi(k)) * sum_i c_i x[kD - i], with
    c_i = taps_i*exp(j*i*w_s) (gr-filter's float32 angle), and phi continuous across
    segments as gr-filter's rotator is: phi(k) = phi_s + (k - k_s)*(-f_s*D/fs),
    phi_s = phi_(s-1) + (k_s - k_(s-1))*(-f_(s-1)*D/fs) - (f_s - f_(s-1))/fs*(ntaps-1)/2
    (the first segment starts at output 0 from frequency 0), in exact rational
    arithmetic. Each retune uses a frequency never used before, so a tag's value names
    the retune. A tag does not say which taps came with it: taps changes are logged
    with the input range in which the block took them (its nitems_read() before and
    after the call, plus a margin), which leaves zero or one candidate beside the
    known version; the candidate that matches the outputs right after the tag is
    taken, and one must.
    Windows of outputs are compared at every tag (so right at every retune) and every
    --checkpoint-every outputs.
  * fir_chain and channelizer emit no tag on set_taps: checkpoints closer than the
    margin to a logged taps change are skipped (and counted); elsewhere the taps of
    each block are known. fir_chain's reference is the float64 convolution of both
    filters; the channelizer's and arb resampler's is gr-filter's own block run once
    per taps version over three periods of the repeating input (its output repeats
    with the input, after the first period's start-up).
Errors: phase (rad) over the samples whose reference magnitude is at least a tenth
of the window's RMS, amplitude error relative to the window's RMS.

Prints progress with throughput, one summary line per chain, and exits non-zero on
any failure. Not part of the test suite (minutes to hours); the host check's soak
mode runs it: scripts/gpu_host_check.sh soak --samples 1e10.
"""

import argparse
import math
import os
import sys
import threading
import time
from fractions import Fraction

import numpy as np
import pmt
from gnuradio import blocks, filter, gpufilter, gr

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                "python", "gpufilter"))
from xlating_reference import bandpass_taps  # noqa: E402

MAX_PHASE = 1e-3  # rad
MAX_AMPLITUDE = 1e-4  # relative to the window's RMS


class probe(gr.sync_block):
    """Sink that keeps windows of `window` items: at every multiple of `every` and at
    every tag with key `tag_key` (whose offsets and values it logs). Cheap per call,
    so that it keeps up with the GPU."""

    def __init__(self, nports, every, window, tag_key=None):
        gr.sync_block.__init__(self, "soak_probe", [np.complex64] * nports, None)
        self.every, self.window = every, window
        self.key = pmt.intern(tag_key) if tag_key else None
        self.tags = []  # (offset, value)
        self.next_cp = 0
        self.active = []  # [start, [per-port chunks]]
        self.windows = []  # (start, [per-port arrays])

    def work(self, input_items, output_items):
        n = len(input_items[0])
        base = self.nitems_read(0)
        end = base + n
        if self.key is not None:
            for t in self.get_tags_in_window(0, 0, n, self.key):
                self.tags.append((t.offset, pmt.to_double(t.value)))
                self.active.append([t.offset, [[] for _ in input_items]])
        while self.next_cp < end:
            self.active.append([self.next_cp, [[] for _ in input_items]])
            self.next_cp += self.every
        keep = []
        for w in self.active:
            start, chunks = w
            have = sum(len(c) for c in chunks[0])
            lo = max(start + have, base)
            hi = min(start + self.window, end)
            if hi > lo:
                for p, items in enumerate(input_items):
                    chunks[p].append(np.array(items[lo - base:hi - base]))
                have += hi - lo
            if have >= self.window:
                self.windows.append((start, [np.concatenate(c) for c in chunks]))
            else:
                keep.append(w)
        self.active = keep
        return n

    def flush(self):
        """Windows cut short by the end of the stream."""
        for start, chunks in self.active:
            if chunks[0]:
                self.windows.append((start, [np.concatenate(c) for c in chunks]))
        self.active = []


def errors(got, ref):
    """(phase error rad, amplitude error relative to RMS) of one window."""
    got = np.asarray(got, np.complex128)
    ref = np.asarray(ref, np.complex128)
    rms = max(np.sqrt(np.mean(np.abs(ref) ** 2)), 1e-30)
    strong = np.abs(ref) >= 0.1 * rms
    phase = np.abs(np.angle(got[strong] * np.conj(ref[strong]))).max(initial=0.0)
    amplitude = (np.abs(np.abs(got) - np.abs(ref)) / rms).max(initial=0.0)
    return phase, amplitude


class change_log:
    """Taps changes made by the control thread: version v took effect somewhere in
    input range [lo, hi] of the block (coordinates of its input)."""

    def __init__(self, margin):
        self.margin = margin
        self.ranges = []

    def record(self, lo, hi):
        self.ranges.append((lo, hi + self.margin))

    def known(self, lo, hi):
        """Taps version in force over inputs [lo, hi], or None when a change may lie
        inside (the first version is 0)."""
        v = 0
        for a, b in self.ranges:
            if b < lo:
                v += 1
            elif a <= hi:
                return None
        return v

    def candidates(self, pos):
        """Versions possible at input pos."""
        low = sum(1 for a, b in self.ranges if b < pos)
        high = sum(1 for a, b in self.ranges if a <= pos)
        return list(range(low, high + 1))


class controller(threading.Thread):
    """Polls a block's nitems_read and calls actions every so many input samples."""

    def __init__(self, blk, actions):
        threading.Thread.__init__(self, daemon=True)
        self.blk, self.actions = blk, actions  # [(every, next, fn(lo))]
        self.stop_event = threading.Event()

    def run(self):
        nxt = [every for every, _ in self.actions]
        while not self.stop_event.is_set():
            r = self.blk.nitems_read(0)
            for i, (every, fn) in enumerate(self.actions):
                if r >= nxt[i]:
                    fn(r)
                    nxt[i] = r + every
            time.sleep(0.001)


def run_chain(name, tb, head, first, sink, nsamples, ctl, progress):
    start = time.time()
    tb.start()
    ctl.start()
    done = threading.Event()
    threading.Thread(target=lambda: (tb.wait(), done.set()), daemon=True).start()
    last = start
    while not done.wait(0.5):
        now = time.time()
        if now - last >= progress:
            n = first.nitems_read(0)
            print(f"  {name}: {n:.3e} of {nsamples:.3e} samples, "
                  f"{n / (now - start) / 1e6:.0f} MS/s", flush=True)
            last = now
    ctl.stop_event.set()
    ctl.join()
    seconds = time.time() - start
    sink.flush()
    return seconds


def rng_taps(rng, n):
    return rng.uniform(-1, 1, n).astype(np.float32)


def xlating_chain(args, rng):
    fs, decim, ntaps = 3.2e6, 4, 63
    period = args.period
    x = (rng.uniform(-1, 1, period) + 1j * rng.uniform(-1, 1, period)).astype(np.complex64)
    versions = [rng_taps(rng, ntaps)]
    f0 = 0.1 * fs
    tb = gr.top_block()
    src = blocks.vector_source_c(x.tolist(), True)
    head = blocks.head(gr.sizeof_gr_complex, args.samples)
    blk = gpufilter.freq_xlating_fir_filter_ccf(decim, versions[0].tolist(), f0, fs,
                                                device=args.device,
                                                batch_size=args.batch_size)
    sink = probe(1, args.checkpoint_every, args.window, "freq")
    tb.connect(src, head, blk, sink)
    log = change_log(4 * args.batch_size + (1 << 16))
    freqs = {f0}

    def retune(r):
        while True:  # a frequency never used: a tag's value names its retune
            f = float(np.float32(rng.uniform(-0.45, 0.45) * fs))
            if f not in freqs:
                break
        freqs.add(f)
        blk.set_center_freq(f)

    def new_taps(r):
        versions.append(rng_taps(rng, ntaps))
        blk.set_taps(versions[-1].tolist())
        log.record(r, blk.nitems_read(0))

    ctl = controller(blk, [(args.retune_every, retune), (args.taps_every, new_taps)])
    seconds = run_chain("xlating", tb, head, blk, sink, args.samples, ctl, args.progress)

    # Segments from the tags: (first output, frequency, phase at it, step, taps).
    segments = []
    phase, prev_f, prev_k, step = Fraction(0), Fraction(0), 0, Fraction(0)
    version = 0
    windows = sorted(sink.windows, key=lambda w: w[0])

    def reference(k0, n, f, phi, stp, taps):
        ctaps = bandpass_taps(taps, f, fs)
        idx = np.arange(k0 * decim - (ntaps - 1), (k0 + n - 1) * decim + 1)
        xs = x[idx % period].astype(np.complex128)
        xs[idx < 0] = 0
        conv = np.convolve(xs, ctaps)[ntaps - 1:len(xs)][::decim]
        k = np.arange(n)
        cycles = np.array([float((phi + stp * int(kk)) % 1) for kk in k])
        return conv[:n] * np.exp(2j * np.pi * cycles)

    window_at = {w[0]: w[1][0] for w in windows}
    notes = []
    # In the order the block made them: several may share an output (changes applied
    # by consecutive work() calls that output nothing), and the last one holds.
    tags = [(0, f0)] + sorted(sink.tags, key=lambda t: t[0])
    for i, (k_s, f_tag) in enumerate(tags):
        f = Fraction(f_tag)
        phase = phase + (k_s - prev_k) * step - (f - prev_f) / Fraction(fs) * Fraction(
            ntaps - 1, 2)
        step = -f * decim / Fraction(fs)
        cands = [v for v in log.candidates(k_s * decim) if v >= version and
                 v < len(versions)]
        if len(cands) > 1 and k_s in window_at:
            got = window_at[k_s]
            best = min(cands, key=lambda v: np.linalg.norm(
                got - reference(k_s, len(got), f_tag, phase, step, versions[v])))
            version = best
        elif cands:
            version = cands[0]
        segments.append((k_s, f_tag, phase, step, version))
        notes.append(f"tag {i} at output {k_s}: f={f_tag} candidates {cands} -> {version}")
        prev_f, prev_k = f, k_s
    starts = [s[0] for s in segments]
    worst_p = worst_a = 0.0
    failures = 0
    for start, (got,) in windows:
        s = segments[np.searchsorted(starts, start, side="right") - 1]
        k_s, f_tag, phi_s, stp, v = s
        phi = phi_s + (start - k_s) * stp
        n = len(got)
        # A window may run over the next tag: check only up to it.
        nxt = [t for t in starts if start < t < start + n]
        if nxt:
            n = nxt[0] - start
        ref = reference(start, n, f_tag, phi, stp, versions[v])
        p, a = errors(got[:n], ref)
        worst_p, worst_a = max(worst_p, p), max(worst_a, a)
        if p > MAX_PHASE or a > MAX_AMPLITUDE:
            failures += 1
            if failures <= 5:
                print(f"  xlating: output {start}: phase error {p:.2e} rad, amplitude "
                      f"error {a:.2e} (f={f_tag}, taps version {v})")
                if failures == 1:  # what the reference knew, around the first failure
                    j = np.searchsorted(starts, start, side="right") - 1
                    print("    " + "\n    ".join(notes[max(0, j - 3):j + 2]))
                    print(f"    taps changes (input ranges): {log.ranges}")
    nout = sink.nitems_read(0)
    # A decimator consumes whole groups of D: the last N mod D samples stay unread.
    count_ok = (head.nitems_written(0) == args.samples and
                blk.nitems_read(0) == args.samples // decim * decim and
                nout == args.samples // decim)
    return dict(name="xlating", samples_in=head.nitems_written(0), samples_out=nout,
                expected_out=args.samples // decim, count_ok=count_ok,
                checkpoints=len(windows), skipped=0, retunes=len(sink.tags),
                taps_versions=len(versions), phase=worst_p, amplitude=worst_a,
                failures=failures, seconds=seconds, on_gpu=blk.on_gpu())


def fir_chain(args, rng):
    d1, d2, n1, n2 = 2, 3, 63, 47
    period = args.period
    x = (rng.uniform(-1, 1, period) + 1j * rng.uniform(-1, 1, period)).astype(np.complex64)
    v1, v2 = [rng_taps(rng, n1)], [rng_taps(rng, n2)]
    tb = gr.top_block()
    src = blocks.vector_source_c(x.tolist(), True)
    head = blocks.head(gr.sizeof_gr_complex, args.samples)
    opts = dict(device=args.device, batch_size=args.batch_size)
    b1 = gpufilter.fir_filter_ccf(d1, v1[0].tolist(), **opts)
    b2 = gpufilter.fir_filter_ccf(d2, v2[0].tolist(), **opts)
    sink = probe(1, args.checkpoint_every, args.window)
    tb.connect(src, head, b1, b2, sink)
    margin = 4 * args.batch_size + (1 << 16)
    log1, log2 = change_log(margin), change_log(margin)

    def new_taps(r):
        v1.append(rng_taps(rng, n1))
        b1.set_taps(v1[-1].tolist())
        log1.record(r, b1.nitems_read(0))
        v2.append(rng_taps(rng, n2))
        lo = b2.nitems_read(0)
        b2.set_taps(v2[-1].tolist())
        log2.record(lo, b2.nitems_read(0))

    ctl = controller(b1, [(args.taps_every, new_taps)])
    seconds = run_chain("fir_chain", tb, head, b1, sink, args.samples, ctl, args.progress)
    worst_p = worst_a = 0.0
    failures = skipped = checked = 0
    for start, (got,) in sink.windows:
        n = len(got)
        lo2, hi2 = start * d2 - (n2 - 1), (start + n - 1) * d2  # b2's inputs
        lo1, hi1 = lo2 * d1 - (n1 - 1), hi2 * d1  # b1's inputs
        ver1, ver2 = log1.known(lo1, hi1), log2.known(lo2, hi2)
        if ver1 is None or ver2 is None:
            skipped += 1
            continue
        idx = np.arange(lo1, hi1 + 1)
        xs = x[idx % period].astype(np.complex128)
        xs[idx < 0] = 0
        y1 = np.convolve(xs, v1[ver1].astype(np.float64))[n1 - 1:len(xs)][::d1]
        y1[np.arange(lo2, hi2 + 1) < 0] = 0  # before b2's first input: its zero history
        y2 = np.convolve(y1, v2[ver2].astype(np.float64))[n2 - 1:len(y1)][::d2]
        p, a = errors(got, y2[:n])
        checked += 1
        worst_p, worst_a = max(worst_p, p), max(worst_a, a)
        if p > MAX_PHASE or a > MAX_AMPLITUDE:
            failures += 1
            if failures <= 5:
                print(f"  fir_chain: output {start}: phase error {p:.2e} rad, amplitude "
                      f"error {a:.2e} (taps versions {ver1}, {ver2})")
    expected = args.samples // d1 // d2
    nout = sink.nitems_read(0)
    count_ok = (head.nitems_written(0) == args.samples and
                b1.nitems_read(0) == args.samples // d1 * d1 and
                b1.nitems_written(0) == args.samples // d1 and
                b2.nitems_read(0) == expected * d2 and nout == expected)
    return dict(name="fir_chain", samples_in=head.nitems_written(0), samples_out=nout,
                expected_out=expected, count_ok=count_ok, checkpoints=checked,
                skipped=skipped, retunes=0, taps_versions=len(v1), phase=worst_p,
                amplitude=worst_a, failures=failures, seconds=seconds,
                on_gpu=b1.on_gpu() and b2.on_gpu())


def periodic_reference(make_theirs, x, nports, nin_split=None):
    """gr-filter's block over three periods of x: per port, its output."""
    tb = gr.top_block()
    src = blocks.vector_source_c(np.tile(x, 3).tolist(), False)
    theirs = make_theirs()
    if nin_split:
        s2ss = blocks.stream_to_streams(gr.sizeof_gr_complex, nin_split)
        tb.connect(src, s2ss)
        for i in range(nin_split):
            tb.connect((s2ss, i), (theirs, i))
    else:
        tb.connect(src, theirs)
    sinks = [blocks.vector_sink_c() for _ in range(nports)]
    for q in range(nports):
        tb.connect((theirs, q), sinks[q])
    tb.run()
    return [np.array(s.data()) for s in sinks]


def periodic_chain(name, args, rng, make_ours, make_theirs, nports, out_period,
                   out_per_in, nin_split, ntaps, expected_out, count_slack=0,
                   unread_slack=0):
    """A chain checked against gr-filter's periodic output (see the module doc)."""
    period = args.period
    x = (rng.uniform(-1, 1, period) + 1j * rng.uniform(-1, 1, period)).astype(np.complex64)
    versions = [rng_taps(rng, ntaps)]
    tb = gr.top_block()
    src = blocks.vector_source_c(x.tolist(), True)
    head = blocks.head(gr.sizeof_gr_complex, args.samples)
    blk = make_ours(versions[0].tolist())
    sink = probe(nports, args.checkpoint_every, args.window)
    tb.connect(src, head, blk)
    for q in range(nports):
        tb.connect((blk, q), (sink, q))
    log = change_log(4 * args.batch_size + (1 << 16) + ntaps)

    def new_taps(r):
        versions.append(rng_taps(rng, ntaps))
        blk.set_taps(versions[-1].tolist())
        log.record(r, blk.nitems_read(0))

    ctl = controller(blk, [(args.taps_every, new_taps)])
    seconds = run_chain(name, tb, head, blk, sink, args.samples, ctl, args.progress)
    refs = {}
    worst_p = worst_a = 0.0
    failures = skipped = checked = 0
    for start, got in sink.windows:
        n = len(got[0])
        lo = int((start - ntaps) / out_per_in) - ntaps
        hi = int((start + n) / out_per_in) + ntaps
        v = log.known(lo, hi)
        if v is None:
            skipped += 1
            continue
        if v not in refs:
            refs[v] = periodic_reference(lambda: make_theirs(versions[v].tolist()), x,
                                         nports, nin_split)
        k = np.arange(start, start + n)
        k = np.where(k < out_period, k, out_period + (k % out_period))
        checked += 1
        for q in range(nports):
            p, a = errors(got[q], refs[v][q][k])
            worst_p, worst_a = max(worst_p, p), max(worst_a, a)
            if p > MAX_PHASE or a > MAX_AMPLITUDE:
                failures += 1
                if failures <= 5:
                    print(f"  {name}: port {q} output {start}: phase error {p:.2e} "
                          f"rad, amplitude error {a:.2e} (taps version {v})")
    nout = sink.nitems_read(0)
    count_ok = (head.nitems_written(0) == args.samples and
                blk.nitems_read(0) >= args.samples - max(int(1 / out_per_in), 1) -
                unread_slack and
                abs(nout - expected_out) <= count_slack)
    return dict(name=name, samples_in=head.nitems_written(0), samples_out=nout,
                expected_out=expected_out, count_ok=count_ok, checkpoints=checked,
                skipped=skipped, retunes=0, taps_versions=len(versions), phase=worst_p,
                amplitude=worst_a, failures=failures, seconds=seconds,
                on_gpu=blk.on_gpu())


def channelizer_chain(args, rng):
    m = 8
    if args.period % m:
        raise SystemExit(f"--period must be a multiple of {m} for the channelizer")
    opts = dict(device=args.device, batch_size=args.batch_size)
    return periodic_chain(
        "channelizer", args, rng,
        lambda t: gpufilter.pfb_channelizer_ccf(m, t, 1.0, **opts),
        lambda t: filter.pfb_channelizer_ccf(m, t, 1.0), m, args.period // m, 1 / m, m,
        m * 12, args.samples // m)


def arb_chain(args, rng):
    rate, nfilt = 2.0, 32  # a power of two: gr-filter's float phase stays exact
    opts = dict(device=args.device, batch_size=args.batch_size)
    ntaps = nfilt * 8
    # gr-filter's output multiple at rates >= 1 (max(rate, filter_size)): the stream's
    # last outputs that do not fill one are not produced, by either block.
    multiple = max(int(rate), nfilt)
    expected = int(args.samples * rate) // multiple * multiple
    return periodic_chain(
        "arb", args, rng,
        lambda t: gpufilter.pfb_arb_resampler_ccf(rate, t, nfilt, **opts),
        lambda t: filter.pfb_arb_resampler_ccf(rate, t, nfilt), 1,
        int(args.period * rate), rate, None, ntaps, expected,
        count_slack=0, unread_slack=multiple)


CHAINS = {"xlating": xlating_chain, "fir_chain": fir_chain,
          "channelizer": channelizer_chain, "arb": arb_chain}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    num = lambda s: int(float(s))  # noqa: E731 (1e10 on the command line)
    p.add_argument("--samples", type=num, default=int(3e7),
                   help="input samples per chain (default 3e7; 1e10 for the soak)")
    p.add_argument("--chains", default="xlating,fir_chain,channelizer,arb")
    p.add_argument("--retune-every", type=num, default=int(1e7))
    p.add_argument("--taps-every", type=num, default=int(1e8))
    p.add_argument("--checkpoint-every", type=num, default=int(1e6),
                   help="outputs between checkpoints (default 1e6)")
    p.add_argument("--window", type=int, default=64, help="outputs per checkpoint")
    p.add_argument("--period", type=num, default=(1 << 20) + 8 * 37,
                   help="length of the repeating random input")
    p.add_argument("--batch-size", type=num, default=gpufilter.default_batch_size)
    p.add_argument("--device", type=int, default=gpufilter.device_auto)
    p.add_argument("--progress", type=float, default=10.0, help="seconds between lines")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    status = 0
    for name in args.chains.split(","):
        if name not in CHAINS:
            p.error(f"unknown chain {name!r}")
        if name == "arb" and not hasattr(gpufilter, "pfb_arb_resampler_ccf"):
            print("arb: this gpufilter has no pfb_arb_resampler_ccf: skipped")
            continue
        print(f"== {name}: {args.samples:.3e} samples", flush=True)
        r = CHAINS[name](args, np.random.default_rng(args.seed))
        ok = (r["count_ok"] and r["failures"] == 0 and r["checkpoints"] > 0)
        status |= not ok
        print(f"{r['name']}: {'PASS' if ok else 'FAIL'} in {r['samples_in']} "
              f"out {r['samples_out']} (expected {r['expected_out']}, counts "
              f"{'exact' if r['count_ok'] else 'WRONG'}), {r['checkpoints']} checkpoints "
              f"({r['skipped']} skipped near taps changes), {r['retunes']} retunes, "
              f"{r['taps_versions']} taps versions, max phase error {r['phase']:.2e} rad, "
              f"max amplitude error {r['amplitude']:.2e}, {r['seconds']:.1f} s "
              f"({r['samples_in'] / max(r['seconds'], 1e-9) / 1e6:.0f} MS/s), "
              f"{'GPU' if r['on_gpu'] else 'CPU'}", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
