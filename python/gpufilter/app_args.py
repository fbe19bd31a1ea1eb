# SPDX-License-Identifier: GPL-3.0-or-later
"""Command-line checking shared by the apps: every number must be finite and in its
range, and a bad argument is one line on stderr ("prog: error: ..."), exit status 2."""

import argparse
import math
import os

USAGE_ERROR = 2


class parser(argparse.ArgumentParser):
    """argparse, with errors on one line instead of the usage text and the error."""

    def error(self, message):
        self.exit(USAGE_ERROR, f"{self.prog}: error: {message} (--help for usage)\n")


def _number_text(x):
    return str(x) if isinstance(x, int) else f"{x:g}"


def _range_text(lo, hi, lo_open):
    lo_text, hi_text = (None if x is None else _number_text(x) for x in (lo, hi))
    if hi is None:
        return f"{'>' if lo_open else '>='} {lo_text}"
    if lo is None:
        return f"<= {hi_text}"
    return f"in {'(' if lo_open else '['}{lo_text}, {hi_text}]"


def real(lo=None, hi=None, lo_open=False):
    """argparse type: a finite float in [lo, hi] ((lo, hi] when lo_open)."""

    def convert(text):
        try:
            x = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: '{text}'") from None
        if not math.isfinite(x):
            raise argparse.ArgumentTypeError(f"must be a finite number, not '{text}'")
        if (lo is not None and (x < lo or (lo_open and x == lo))) or \
                (hi is not None and x > hi):
            raise argparse.ArgumentTypeError(
                f"{text} is out of range: must be {_range_text(lo, hi, lo_open)}")
        return x

    convert.__name__ = "number"
    return convert


def _int(text, lo, hi):
    try:
        x = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: '{text}'") from None
    if x < lo or (hi is not None and x > hi):
        raise argparse.ArgumentTypeError(
            f"{text} is out of range: must be {_range_text(lo, hi, False)}")
    return x


def integer(lo, hi=None):
    """argparse type: an integer in [lo, hi]."""

    def convert(text):
        return _int(text.strip(), lo, hi)

    convert.__name__ = "integer"
    return convert


def integer_list(lo, hi=None):
    """argparse type: a comma-separated, non-empty list of integers in [lo, hi]."""

    def convert(text):
        items = [t.strip() for t in text.split(",") if t.strip()]
        if not items:
            raise argparse.ArgumentTypeError(f"not a list of integers: '{text}'")
        return [_int(t, lo, hi) for t in items]

    convert.__name__ = "integer list"
    return convert


def real_list(lo=None, hi=None):
    """argparse type: a comma-separated, non-empty list of finite floats in [lo, hi]."""
    one = real(lo, hi)

    def convert(text):
        items = [t.strip() for t in text.split(",") if t.strip()]
        if not items:
            raise argparse.ArgumentTypeError(f"not a list of numbers: '{text}'")
        return [one(t) for t in items]

    convert.__name__ = "number list"
    return convert


def _nearest_folder(path):
    """The deepest existing ancestor of `path` (os.makedirs' starting point)."""
    here = os.path.abspath(path)
    while not os.path.exists(here):
        here = os.path.dirname(here)
    return here


def input_file(kind=None):
    """argparse type: a file that exists and can be read; kind="wav": a WAV file."""

    def convert(text):
        if not os.path.exists(text):
            raise argparse.ArgumentTypeError(f"'{text}' does not exist")
        if os.path.isdir(text):
            raise argparse.ArgumentTypeError(f"'{text}' is a folder, not a file")
        try:
            with open(text, "rb") as f:
                if kind == "wav":
                    import wave
                    try:
                        with wave.open(f) as w:
                            width, frames = w.getsampwidth(), w.getnframes()
                    except (wave.Error, EOFError) as e:
                        raise argparse.ArgumentTypeError(
                            f"'{text}' is not a PCM WAV file ({e})") from None
                    if width not in (1, 2, 4):
                        raise argparse.ArgumentTypeError(
                            f"'{text}': {8 * width}-bit WAV is not supported "
                            "(8, 16 or 32-bit PCM)")
                    if frames == 0:
                        raise argparse.ArgumentTypeError(f"'{text}' holds no audio")
        except OSError as e:
            raise argparse.ArgumentTypeError(
                f"cannot read '{text}': {e.strerror}") from None
        return text

    convert.__name__ = "WAV file" if kind == "wav" else "file"
    return convert


def output_file(text):
    """argparse type: a file to write: not a folder, in a folder that exists and can
    be written (an existing file there is replaced)."""
    if os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"'{text}' is a folder, not a file")
    folder = os.path.dirname(os.path.abspath(text))
    if not os.path.isdir(folder):
        raise argparse.ArgumentTypeError(
            f"folder '{os.path.dirname(text)}' does not exist")
    if not os.access(folder, os.W_OK):
        raise argparse.ArgumentTypeError(f"folder '{folder}' is not writable")
    if os.path.exists(text) and not os.access(text, os.W_OK):
        raise argparse.ArgumentTypeError(f"'{text}' is not writable")
    return text


output_file.__name__ = "output file"


def output_file_made_folders(text):
    """argparse type: output_file, for an app that makes the missing folders on its
    path: the nearest existing one must be a writable folder."""
    if os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"'{text}' is a folder, not a file")
    output_folder(os.path.dirname(os.path.abspath(text)))
    if os.path.exists(text) and not os.access(text, os.W_OK):
        raise argparse.ArgumentTypeError(f"'{text}' is not writable")
    return text


output_file_made_folders.__name__ = "output file"


def output_folder(text):
    """argparse type: a folder to write into, made if missing: not an existing file,
    and its nearest existing ancestor a writable folder."""
    if os.path.exists(text) and not os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"'{text}' exists and is not a folder")
    base = _nearest_folder(text)
    if not os.path.isdir(base):
        raise argparse.ArgumentTypeError(
            f"'{base}' is a file, so '{text}' cannot be made")
    if not os.access(base, os.W_OK):
        raise argparse.ArgumentTypeError(f"folder '{base}' is not writable")
    return text


output_folder.__name__ = "output folder"
