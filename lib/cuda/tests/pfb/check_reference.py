"""Writes inputs and GNU Radio's own outputs (stream_to_streams -> pfb_channelizer_ccf,
and -> pfb_decimator_ccf) into a directory, for check_reference_against_gnuradio.cc,
which compares them with pfb_reference.h's float64 references. Run with the Python
that has GNU Radio: check_reference.py OUTDIR"""
import os
import sys

import numpy as np
from gnuradio import gr, blocks, filter
out_dir = sys.argv[1]
os.makedirs(out_dir, exist_ok=True)
rng = np.random.default_rng(5)


def path(name):
    return os.path.join(out_dir, name)


cases = [(8,1.0,43),(8,2.0,43),(36,36/25,36*5+2),(4,4/3,41),(5,1.0,23),(36,36/7,109),(3,1.5,10)]
for idx, (N, osr, ntaps) in enumerate(cases):
    R = int(round(N / osr))
    L = R*N*40 + 7
    x = (rng.uniform(-1,1,L) + 1j*rng.uniform(-1,1,L)).astype(np.complex64)
    taps = rng.uniform(-1,1,ntaps).astype(np.float32)
    tb = gr.top_block()
    src = blocks.vector_source_c(x.tolist())
    s2s = blocks.stream_to_streams(gr.sizeof_gr_complex, N)
    pfb = filter.pfb_channelizer_ccf(N, taps.tolist(), osr)
    tb.connect(src, s2s)
    sinks = []
    for i in range(N):
        tb.connect((s2s,i),(pfb,i))
        k = blocks.vector_sink_c(); sinks.append(k); tb.connect((pfb,i),k)
    tb.run()
    out = np.array([np.array(k.data(), dtype=np.complex64) for k in sinks])
    x.tofile(path(f"x{idx}.bin")); taps.tofile(path(f"t{idx}.bin")); out.tofile(path(f"y{idx}.bin"))
# decimator
dcases = [(8,43,3,True),(8,43,3,False),(5,23,4,True),(5,23,2,False),(16,100,15,False),(16,100,7,True)]
for idx,(M,ntaps,ch,rot) in enumerate(dcases):
    L = M*500+3
    x = (rng.uniform(-1,1,L) + 1j*rng.uniform(-1,1,L)).astype(np.complex64)
    taps = rng.uniform(-1,1,ntaps).astype(np.float32)
    for ff in (True, False):
        tb = gr.top_block()
        src = blocks.vector_source_c(x.tolist())
        s2s = blocks.stream_to_streams(gr.sizeof_gr_complex, M)
        d = filter.pfb_decimator_ccf(M, taps.tolist(), ch, rot, ff)
        k = blocks.vector_sink_c()
        tb.connect(src, s2s)
        for i in range(M): tb.connect((s2s,i),(d,i))
        tb.connect(d,k); tb.run()
        np.array(k.data(),dtype=np.complex64).tofile(path(f"d{idx}_{int(ff)}.bin"))
    x.tofile(path(f"dx{idx}.bin")); taps.tofile(path(f"dt{idx}.bin"))
