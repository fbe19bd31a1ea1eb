#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""One small flowgraph per GPU block family, for NVIDIA's compute-sanitizer
(scripts/gpu_host_check.sh sanitize): every GPU block runs on random data, with tap
changes and a restart, and its output is checked against gr-filter's loosely (the
exact comparisons are the qa_*.py tests; here the point is the GPU's memory accesses).
Exits non-zero on a mismatch."""

import os
import sys

import numpy as np
from gnuradio import blocks, filter, gpufilter, gr

N = int(os.environ.get("GPUFILTER_SANITIZE_SAMPLES", "40000"))
rng = np.random.default_rng(3)
xc = (rng.uniform(-1, 1, N) + 1j * rng.uniform(-1, 1, N)).astype(np.complex64).tolist()
xf = rng.uniform(-1, 1, N).astype(np.float32).tolist()
taps = rng.uniform(-1, 1, 301).astype(np.float32).tolist()


def compare(name, ours, theirs, x, source, sink, restart=False):
    tb = gr.top_block()
    got, want = sink(), sink()
    src = source(x)
    tb.connect(src, ours, got)
    tb.connect(src, theirs, want)
    tb.run()
    if restart:  # a second run of the same flowgraph: start() and stop() again
        src.rewind()
        tb.run()
    g, w = np.array(got.data()), np.array(want.data())
    err = np.linalg.norm(g[:len(w)] - w) / max(np.linalg.norm(w), 1e-30)
    ok = len(g) == len(w) and err < 1e-3 and ours.on_gpu()
    print(f"{name}: {len(g)} outputs, relative error {err:.2e}, on GPU {ours.on_gpu()}")
    return ok


checks = []
for method in ("direct", "fft"):
    for decim in (1, 4):
        checks.append(compare(f"fir_filter_ccf {method} D={decim}",
                              gpufilter.fir_filter_ccf(decim, taps, method=method,
                                                       batch_size=8192),
                              filter.fir_filter_ccf(decim, taps), xc,
                              blocks.vector_source_c, blocks.vector_sink_c,
                              restart=decim == 1))
checks.append(compare("fir_filter_fff", gpufilter.fir_filter_fff(3, taps),
                      filter.fir_filter_fff(3, taps), xf,
                      blocks.vector_source_f, blocks.vector_sink_f))
checks.append(compare("freq_xlating_fir_filter_ccf",
                      gpufilter.freq_xlating_fir_filter_ccf(5, taps, 1e3, 48e3),
                      filter.freq_xlating_fir_filter_ccf(5, taps, 1e3, 48e3), xc,
                      blocks.vector_source_c, blocks.vector_sink_c))
checks.append(compare("hilbert_fc", gpufilter.hilbert_fc(65), filter.hilbert_fc(65), xf,
                      blocks.vector_source_f, blocks.vector_sink_c))
checks.append(compare("fft_filter_ccc", gpufilter.fft_filter_ccc(2, taps),
                      filter.fir_filter_ccc(2, taps), xc,
                      blocks.vector_source_c, blocks.vector_sink_c))
# Every other family, from the tests' block table (fused-kernel channelizer, vector
# channelizer, polyphase decimator, NLMS, the other FIR and FFT types, and blocks
# added since: each entry whose block this build has).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                "python", "gpufilter"))
import block_table  # noqa: E402

done = {"fir_filter_ccf", "fir_filter_fff", "freq_xlating_fir_filter_ccf", "hilbert_fc",
        "fft_filter_ccc"}
for e in block_table.available():
    if e.name in done:
        continue
    n = min(N, 4000) if e.reference is not None else N  # the NLMS model is Python
    ours, got, want = block_table.run(e, e.inputs(rng, n), e.taps(rng), timeout=600,
                                      batch_size=8192)
    # The arbitrary resamplers' stream ends may differ from gr-filter's by up to
    # length_slack outputs (block_table); the outputs both have must match.
    m = [min(len(g), len(w)) for g, w in zip(got, want)]
    err = max(block_table.relative_error(g[:k], w[:k]) for g, w, k in zip(got, want, m))
    same = all(abs(len(g) - len(w)) <= e.length_slack for g, w in zip(got, want))
    print(f"{e.name}: {len(got[0])} outputs ({len(want[0])} from gr-filter), relative "
          f"error {err:.2e}, on GPU {ours.on_gpu()}")
    checks.append(same and err <= max(e.tolerance, 1e-3) and ours.on_gpu())
sys.exit(0 if all(checks) else 1)
