# SPDX-License-Identifier: GPL-3.0-or-later
"""What the property-based tests share (qa_properties, qa_argument_limits): Hypothesis'
settings, the strategies of random arguments, and the comparison of a block's output
with gr-filter's on a short random input."""


import math
import re

import numpy as np
from gnuradio import gr_unittest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import block_table
from gpu_test_support import gpu_count

SETTINGS = settings(max_examples=25, deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck))
ALLOWED = (ValueError, IndexError, TypeError, OverflowError)
# A number or a list of numbers: an error for one of these is never a TypeError.
NUMBER = (bool, int, float, np.floating, np.integer)
WRONG = st.sampled_from(["abc", None, [1, "x"], object(), 1.5j])
INTS = st.one_of(st.integers(-3, 9), st.sampled_from([0, -1, -2**31, 2**31 - 1, 2**31,
                                                      2**63, 10**6]), WRONG)
FLOATS = st.one_of(st.floats(-1e6, 1e6), st.sampled_from([math.nan, math.inf, -math.inf,
                                                          0.0, -0.0, 1e300]), WRONG)
TAP = st.one_of(st.floats(-2, 2), st.sampled_from([math.nan, math.inf]))
TAPS = st.one_of(st.lists(TAP, max_size=80),
                 st.integers(10000, 70000).map(lambda n: [0.001] * n),  # enormous
                 WRONG)
N = 300
VALID = settings(max_examples=12, deadline=None, derandomize=True, database=None,
                 suppress_health_check=list(HealthCheck))
FINITE_TAPS = st.lists(st.floats(-2, 2), min_size=1, max_size=80)


def outputs(e, args, x):
    """Runs ours (made by e.ours) and gr-filter's (e.theirs) made with the same args."""
    return block_table.run(e, x, args, timeout=60)


def well_typed(v):
    return isinstance(v, NUMBER) or (
        isinstance(v, list) and all(isinstance(t, NUMBER) for t in v))


# What we refuse on purpose where gr-filter's block takes it (see the module's
# docstring), as the start of our message: a refusal that gr-filter would take must
# be one of these.
DELIBERATE = (
    r"taps: tap \d+ is",            # NaN or infinite taps: NaN outputs in gr-filter
    r"ntaps: must be >= 2",          # hilbert_fc(1): firdes.hilbert(1) is [nan]
    r"rate: must be in",             # the arbitrary resampler's buffers
    r"center_freq: must be finite",  # NaN outputs for ever after in gr-filter
    r"sampling_freq: must be",       # 0 or NaN: NaN taps in gr-filter
    r"gain: must be a finite number",  # quadrature_demod_cf: NaN outputs
)


def sane(v):
    """An argument gr-filter's make() can be tried with: no huge allocation, and no
    integer division by zero (its pfb_arb_resampler dies of SIGFPE on filter_size 0
    or empty taps), so counts in [1, 64] and taps lists of 1 to 80."""
    if isinstance(v, list):
        return 1 <= len(v) <= 80 and all(sane(t) for t in v)
    if isinstance(v, (bool, np.bool_)):
        return True
    return isinstance(v, NUMBER) and not (isinstance(v, (int, np.integer))
                                          and not 1 <= v <= 64)


def check(testcase, names, make, args, theirs=None):
    """make() either works, or raises an allowed error naming one of `names`; for
    `args` of the right types (numbers, lists of numbers) not a TypeError. theirs():
    gr-filter's block with the same arguments: where it is made, ours may refuse
    only on purpose (DELIBERATE)."""
    try:
        blk = make()
    except ALLOWED as err:
        msg = f"{type(err).__name__}: {err}"
        testcase.assertTrue(any(n in msg for n in names), msg)
        if all(well_typed(a) for a in args):
            testcase.assertNotIsInstance(err, TypeError, msg)
            testcase.assertNotIn("incompatible", msg)  # pybind11's signature list
            if theirs is not None and all(sane(a) for a in args):
                try:
                    theirs()
                except Exception:  # gr-filter refuses it too (any exception)
                    return None
                testcase.assertTrue(any(re.search(d, str(err)) for d in DELIBERATE),
                                    f"gr-filter takes {args}; ours: {msg}")
        return None
    return blk



class property_case(gr_unittest.TestCase):
    """The base of the property tests: a seeded generator, and compare()."""

    def setUp(self):
        gpu_count()
        self.rng = np.random.default_rng(1)

    def compare(self, e, args):
        x = e.inputs(self.rng, N)
        try:
            ours, got, want = block_table.run(e, x, args, timeout=60)
        except ALLOWED:
            raise
        for g, w in zip(got, want):
            # The arbitrary resamplers: where gr-filter's stream ends moves with its
            # call sizes (block_table.entry.length_slack); the rest must match.
            self.assertLessEqual(abs(len(g) - len(w)), e.length_slack, e.name)
            m = min(len(g), len(w))
            g, w = g[:m], w[:m]
            # Finite wherever gr-filter's is (NaN taps, which gr-filter would take,
            # are refused before this).
            np.testing.assert_array_equal(np.isfinite(g), np.isfinite(w), e.name)
            ok = np.isfinite(w)
            self.assertLessEqual(block_table.relative_error(g[ok], w[ok]), 1e-3, e.name)
