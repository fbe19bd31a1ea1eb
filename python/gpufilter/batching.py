# SPDX-License-Identifier: GPL-3.0-or-later
"""Whole batches from a host block, for offline processing."""

from .gpufilter_python import default_batch_size


def feed_whole_batches(upstream, batch_size=default_batch_size, port=0):
    """Lets the host block `upstream` (a source, a head, any non-GPU block) hand the GPU
    block after it whole batches of `batch_size` input items: sets GNU Radio's min
    output buffer of its output `port` to two batches, before the flowgraph starts.

    A GPU block takes what the buffer in front of it holds, as gr-filter's blocks do:
    GNU Radio's default, 64 KiB. A larger buffer by default would let a throttle in
    front release larger chunks, so a live stream would reach the block later than it
    reaches gr-filter's. Where nothing is live (a file or a generated signal read as
    fast as it goes) larger calls are faster: the default ran at 0.24-0.76 of the
    rate with whole batches in the flowgraphs measured on an H100 (docs/benchmarks.md,
    "Latency on a live stream"). A GPU block's own outputs and
    the buffers between GPU blocks already hold whole batches. `max_latency=inf` on
    the GPU block gives the same without touching `upstream`. Returns `upstream`."""
    if batch_size < 1:
        raise ValueError(f"batch_size: must be >= 1, not {batch_size}")
    upstream.set_min_output_buffer(port, 2 * int(batch_size))
    return upstream
