#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""What we ship speaks to its users: the README and docs name no internal process or
particular machine, and the README's measured ratios are numbers of the measured
tables (docs/benchmarks.md, docs/fm_receiver.md, docs/fm_band_receiver.md), not numbers
of their own."""

import glob
import os
import re

from gnuradio import gr_unittest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
# The pages and scripts a user reads.
SHIPPED = (["README.md"]
           + [os.path.join("docs", n) for n in ("architecture.md", "benchmarks.md", "fm_receiver.md",
                                                "fm_band_receiver.md", "resamplers.md", "convenience_filters.md", "fir_2d.md",
                                                "kernels.md", "xlating_hilbert.md", "nlms.md", "pfb.md",
                                                "developing.md")]
           + sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "scripts", "*")))
           + sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "apps", "*"))
                    if os.path.isfile(p)))
INSIDER = [r"\bissue \d", r"\bfirst session\b", r"\bdevice tool\b", r"\$OUT\b",
           r"/opt/torch", r"\.venv/", r"/work/", r"\bthe GPU host\b"]
RATIO = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)x\b")


def read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


class qa_docs(gr_unittest.TestCase):
    def test_001_no_insider_words(self):
        for rel in SHIPPED:
            text = read(rel)
            for pattern in INSIDER:
                with self.subTest(file=rel, pattern=pattern):
                    found = re.search(pattern, text)
                    self.assertIsNone(found, f"{rel}: '{found and found.group(0)}'")

    def test_002_readme_ratios_come_from_the_tables(self):
        tables = (read("docs/benchmarks.md") + read("docs/fm_receiver.md")
                  + read("docs/fm_band_receiver.md"))
        ratios = RATIO.findall(read("README.md"))
        self.assertGreater(len(ratios), 0)
        for r in ratios:
            with self.subTest(ratio=r):
                found = re.search(r"(?<![\d.])" + re.escape(r) + r"x\b", tables)
                self.assertTrue(found, f"README quotes {r}x, which no measured table holds")


if __name__ == "__main__":
    gr_unittest.run(qa_docs)
