# SPDX-License-Identifier: GPL-3.0-or-later
"""What the tests of the resampling filters share (qa_rational_resampler*,
qa_interp_fir_filter, the fsf/scc rows of qa_fir_filter): gr-filter's six type
suffixes, random inputs and taps of each type, making our block and gr-filter's of
one family, and comparing their outputs and tags (int16 outputs within one count)."""

import numpy as np
import pmt
from gnuradio import blocks, filter, gpufilter, gr

from gpu_test_support import random_samples, relative_error, run_side_by_side

TOLERANCE = 1e-5
# Suffix -> (input, output, complex taps?); "f" float, "c" complex, "s" int16.
TYPES = {
    "ccc": ("c", "c", True),
    "ccf": ("c", "c", False),
    "fcc": ("f", "c", True),
    "fff": ("f", "f", False),
    "fsf": ("f", "s", False),
    "scc": ("s", "c", True),
}
SOURCES = {"c": blocks.vector_source_c, "f": blocks.vector_source_f,
           "s": blocks.vector_source_s}
SINKS = {"c": blocks.vector_sink_c, "f": blocks.vector_sink_f,
         "s": blocks.vector_sink_s}
INT16_FULL_SCALE = 30000  # fsf: inputs scaled so that no output leaves int16


def make_pair(family, suffix, *args, **gpu_options):
    """Ours and gr-filter's block of `family` ("rational_resampler",
    "interp_fir_filter", "fir_filter") with gr-filter's arguments `args`."""
    ours = getattr(gpufilter, f"{family}_{suffix}")(*args, **gpu_options)
    theirs = getattr(filter, f"{family}_{suffix}")(*args)
    return ours, theirs


def random_taps(rng, suffix, n):
    return random_samples(rng, n, TYPES[suffix][2]).tolist()


def arm_gain(taps, interpolation):
    """The largest sum of |tap| over one polyphase arm: the most an output can exceed
    the largest input by."""
    t = np.abs(np.asarray(taps))
    t = np.concatenate([t, np.zeros(-len(t) % interpolation)])
    return max(float(t.reshape(-1, interpolation).sum(axis=0).max()), 1e-30)


def random_input(rng, suffix, n, gain=1.0):
    """n random items for the block's input type: floats and complex in [-1, 1],
    int16 in [-2000, 2000]; for fsf floats scaled so that no output of taps whose
    arm_gain() is at most `gain` leaves int16."""
    kind = TYPES[suffix][0]
    if kind == "s":
        return rng.integers(-2000, 2001, n).astype(np.int16)
    x = random_samples(rng, n, kind == "c")
    if TYPES[suffix][1] == "s":
        x = (x * (INT16_FULL_SCALE / gain)).astype(np.float32)
    return x


def offset_tags(offsets):
    return [gr.tag_utils.python_to_tag((off, pmt.intern("k"), pmt.from_long(off),
                                        pmt.intern("src"))) for off in offsets]


def tag_list(sink):
    return sorted((t.offset, pmt.to_long(t.value)) for t in sink.tags())


def run_pair(testcase, suffix, ours, theirs, x, tags=(), cpu=False):
    """x through ours and theirs side by side; returns (got, want, got tags, want
    tags). Under GPUFILTER_REQUIRE_GPU=1 ours must run on the GPU unless cpu."""
    kind_in, kind_out, _ = TYPES[suffix]
    got, want = run_side_by_side(
        testcase, SOURCES[kind_in](x.tolist(), False, 1, list(tags)), ours, theirs,
        SINKS[kind_out], not cpu)
    return (np.array(got.data()), np.array(want.data()), tag_list(got),
            tag_list(want))


def end_slack(interpolation, decimation):
    """How many outputs the stream's end may differ by. gr-filter's last calls stop
    where its forecast (one output more than it is given, counted from the window's
    start) fails, which depends on the scheduler's call sizes; where the interpolation
    exceeds the decimation its last outputs may even read a sample past the input. Ours
    computes an output when gr-filter's forecast for that one output holds, and never
    past the input: the two ends may differ by the outputs of two input samples."""
    return 2 * -(-interpolation // decimation)


def assert_same_output(testcase, suffix, got, want, msg="", slack=0):
    """Lengths within `slack` (end_slack()), the outputs both have alike: within
    TOLERANCE relative error, or one count for int16 outputs (gr-filter's kernel
    converts its float sum to int16, and a sum in another order can fall on the
    other side of an integer)."""
    got, want = np.asarray(got), np.asarray(want)
    testcase.assertLessEqual(abs(len(got) - len(want)), slack,
                             f"{msg}: {len(got)} outputs, gr-filter's {len(want)}")
    m = min(len(got), len(want))
    got, want = got[:m], want[:m]
    if m == 0:
        return
    if TYPES[suffix][1] == "s":
        diff = np.abs(got.astype(np.int64) - want.astype(np.int64))
        testcase.assertLessEqual(int(diff.max()), 1,
                                 f"{msg}: first at {int(np.argmax(diff > 1))}")
    else:
        testcase.assertLessEqual(relative_error(got, want), TOLERANCE, msg)


def reference_rational(x, taps, interpolation, decimation, count):
    """The first `count` outputs of gr-filter's rational resampler in float64, from
    its definition: output k's newest sample is x[floor(k*D/I) + T - 1] (T taps an
    arm), its arm (k*D) mod I, arm p's tap j taps[j*I + p]. For where gr-filter's own
    block may read past its input (and then differs from run to run)."""
    interp, decim = interpolation, decimation
    arms = -(-len(taps) // interp)
    h = np.zeros(arms * interp, dtype=complex)
    h[:len(taps)] = taps
    k = np.arange(count)
    newest = k * decim // interp + arms - 1
    arm = k * decim % interp
    x = np.asarray(x, dtype=complex)
    return sum(h[j * interp + arm] * x[newest - j] for j in range(arms))
