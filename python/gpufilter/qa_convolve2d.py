#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gpufilter.convolve2d / correlate2d against scipy.signal.convolve2d / correlate2d in
float64 on random data: every mode, real and complex inputs in all four pairings, odd
and even kernel sizes, kernels larger than the image, 1xN and Nx1, 3D stacks of
images, each method forced and automatic, on the CPU and on a GPU; the result's dtype;
bad arguments. Also holds the comparison the 2D FIR block tests share."""

import numpy as np
from gnuradio import gpufilter, gr_unittest
try:
    from scipy import signal
except ImportError:  # the same semantics in NumPy (a GNU Radio runtime without SciPy)
    import fir2d_reference as signal

from gpu_test_support import gpu_count, skip_without_gpu

DEVICES = (gpufilter.device_auto, gpufilter.device_cpu)
METHODS = ("auto", "direct", "separable", "fft")
MODES = ("full", "same", "valid")
FUNCTIONS = {"convolve2d": signal.convolve2d, "correlate2d": signal.correlate2d}
KERNEL_SIZES = ((1, 1), (3, 3), (4, 6), (7, 2), (9, 9))
# Float32 arithmetic against a float64 reference, per output, relative to S = the sum of
# |k||x| over the terms of that output. A direct sum rounds within a few float32
# epsilons of S; an FFT and a low-rank (separable) sum round through larger
# intermediate terms (a float32 FFT and a float32 sum of rank-one passes stay below
# 2e-6 * S for the kernels here), so all are held to 2e-5 * S (about 170 epsilons).
# S is taken as at least 5 % of its largest value over the output, so that edge
# outputs, where few terms meet, are not held below the rounding of the whole. One
# missing or misplaced term of a 25x25 kernel moves an output by about S/625.
RTOL = 2e-5
EDGE_FLOOR = 0.05


def item_type(complex_valued):
    return np.complex64 if complex_valued else np.float32


def random_array(rng, shape, complex_valued, dtype=None):
    assert dtype is None or complex_valued == (np.dtype(dtype).kind == "c")
    x = rng.uniform(-1, 1, shape)
    if complex_valued:
        x = x + 1j * rng.uniform(-1, 1, shape)
    return x if dtype is None else x.astype(dtype)


def rank_one(rng, kh, kw, complex_valued):
    """A separable kernel: the outer product of a column and a row."""
    column = random_array(rng, kh, complex_valued)
    return np.outer(column, random_array(rng, kw, complex_valued))


def assert_within(testcase, got, want, scale, msg, rtol=RTOL):
    """|got - want| <= rtol * max(scale, EDGE_FLOOR * max(scale)) at every output, where
    scale is sum |k||x| of that output; NaN and inf fail."""
    got = np.asarray(got, dtype=np.complex128)
    want = np.asarray(want, dtype=np.complex128)
    testcase.assertEqual(got.shape, want.shape, msg)
    if want.size == 0:
        return
    limit = rtol * np.maximum(scale, EDGE_FLOOR * np.max(scale))
    err = np.abs(got - want)
    bad = ~(err <= limit)  # NaN compares false
    if bad.any():
        at = np.unravel_index(np.argmax(bad), bad.shape)
        testcase.fail(f"{msg}: {int(bad.sum())} of {bad.size} outputs off, first at "
                      f"{at}: got {got[at]}, want {want[at]}, error {err[at]:.3g} > "
                      f"limit {limit[at]:.3g}")


def scipy_reference(name, in1, in2, mode):
    """SciPy's result in float64 (complex128 where an input is complex) and the scale
    sum |k||x| of each output; image by image for a 3D stack."""
    f = FUNCTIONS[name]
    if in1.ndim == 3:
        pairs = [scipy_reference(name, img, in2, mode) for img in in1]
        return np.stack([p[0] for p in pairs]), np.stack([p[1] for p in pairs])
    want = f(in1.astype(np.result_type(in1, np.float64)),
             in2.astype(np.result_type(in2, np.float64)), mode)
    return want, f(np.abs(in1).astype(np.float64), np.abs(in2).astype(np.float64), mode)


def expected_dtype(in1, in2):
    both_real = not (np.iscomplexobj(in1) or np.iscomplexobj(in2))
    return np.float32 if both_real else np.complex64


class qa_convolve2d(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(2061)
        gpu_count()  # fails here under GPUFILTER_REQUIRE_GPU=1 without a GPU

    def check(self, name, in1, in2, mode, msg, **options):
        got = getattr(gpufilter, name)(in1, in2, mode, **options)
        want, scale = scipy_reference(name, in1, in2, mode)
        msg = f"{name} {mode} in1 {in1.shape} {in1.dtype} in2 {in2.shape} {in2.dtype} " \
              f"{options} {msg}"
        self.assertIsInstance(got, np.ndarray, msg)
        self.assertEqual(got.dtype, expected_dtype(in1, in2), msg)
        assert_within(self, got, want, scale, msg)

    def test_numpy_reference_is_scipys(self):
        """The NumPy stand-in that replaces SciPy where it is missing gives SciPy's
        results (checked where SciPy is installed)."""
        try:
            from scipy import signal as scipy_signal
        except ImportError:
            self.skipTest("SciPy is not installed")
        import fir2d_reference
        rng = np.random.default_rng(3)
        for xs, ks in (((9, 11), (4, 6)), ((3, 4), (5, 6)), ((12, 1), (3, 1))):
            x = rng.standard_normal(xs) + 1j * rng.standard_normal(xs)
            k = rng.standard_normal(ks) - 1j * rng.standard_normal(ks)
            for mode in ("full", "same", "valid"):
                for name in ("convolve2d", "correlate2d"):
                    want = getattr(scipy_signal, name)(x, k, mode)
                    got = getattr(fir2d_reference, name)(x, k, mode)
                    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)

    def test_every_mode_type_pairing_and_kernel_size(self):
        for device in DEVICES:
            for c1 in (False, True):
                for c2 in (False, True):
                    in1 = random_array(self.rng, (23, 37), c1, item_type(c1))
                    for kh, kw in KERNEL_SIZES:
                        in2 = random_array(self.rng, (kh, kw), c2, item_type(c2))
                        for name in FUNCTIONS:
                            for mode in MODES:
                                self.check(name, in1, in2, mode, "", device=device)

    def test_each_method_rank_one_and_full_rank(self):
        """Every method gives SciPy's result, also "separable" for a full-rank kernel
        (computed as the exact sum of its rank-one parts). On the CPU the method is
        only a preference, and the result the same."""
        for device in DEVICES:
            for method in METHODS:
                for c in (False, True):
                    in1 = random_array(self.rng, (31, 26), c, item_type(c))
                    for kh, kw in ((3, 3), (4, 7), (10, 1)):
                        kernels = {"rank 1": rank_one(self.rng, kh, kw, c),
                                   "full rank": random_array(self.rng, (kh, kw), c)}
                        for what, in2 in kernels.items():
                            for name in FUNCTIONS:
                                for mode in MODES:
                                    self.check(name, in1, in2.astype(in1.dtype), mode,
                                               what, method=method, device=device)

    def test_kernel_larger_than_the_image(self):
        """full and same as SciPy; valid swaps the inputs where SciPy does (in2 at
        least as large in every dimension) and raises ValueError where SciPy does."""
        for device in DEVICES:
            for c in (False, True):
                for name in FUNCTIONS:
                    in1 = random_array(self.rng, (5, 7), c, item_type(c))
                    for shape in ((9, 12), (5, 7), (6, 7), (2, 30), (30, 2)):
                        in2 = random_array(self.rng, shape, c, in1.dtype)
                        for mode in ("full", "same"):
                            self.check(name, in1, in2, mode, "", device=device)
                    for shape in ((9, 12), (5, 7), (6, 7)):
                        in2 = random_array(self.rng, shape, c, in1.dtype)
                        self.check(name, in1, in2, "valid", "swapped", device=device)
                    for shape in ((2, 30), (30, 2), (9, 4)):
                        in2 = random_array(self.rng, shape, c, in1.dtype)
                        with self.assertRaises(ValueError):
                            FUNCTIONS[name](in1, in2, "valid")
                        with self.assertRaises(ValueError, msg=f"{name} {shape}"):
                            getattr(gpufilter, name)(in1, in2, "valid", device=device)

    def test_rows_and_columns(self):
        """1xN and Nx1 images with 1xK, Kx1 and square kernels; a 1x1 image."""
        cases = [((1, 50), (1, 5)), ((1, 50), (3, 1)), ((1, 50), (2, 2)),
                 ((40, 1), (7, 1)), ((40, 1), (1, 4)), ((40, 1), (3, 3)),
                 ((1, 1), (1, 1)), ((1, 1), (4, 3)), ((1, 64), (1, 64))]
        for device in DEVICES:
            for method in METHODS:
                for shape1, shape2 in cases:
                    in1 = random_array(self.rng, shape1, True, np.complex64)
                    in2 = random_array(self.rng, shape2, False, np.float32)
                    for name in FUNCTIONS:
                        for mode in MODES:
                            if mode == "valid" and not (
                                    all(a >= b for a, b in zip(shape1, shape2))
                                    or all(a <= b for a, b in zip(shape1, shape2))):
                                continue
                            self.check(name, in1, in2, mode, "", method=method,
                                       device=device)

    def test_stacks_of_images(self):
        """A 3D in1 (images, rows, columns) with a 2D kernel: each image as SciPy
        gives it, valid's swap included."""
        for device in DEVICES:
            for method in ("auto", "fft"):
                for c1, c2 in ((False, False), (True, False), (False, True),
                               (True, True)):
                    for images, shape2 in ((1, (3, 3)), (4, (5, 4)), (16, (2, 7))):
                        in1 = random_array(self.rng, (images, 17, 23), c1)
                        in2 = random_array(self.rng, shape2, c2)
                        for name in FUNCTIONS:
                            for mode in MODES:
                                self.check(name, in1, in2, mode, "", method=method,
                                           device=device)
                small = random_array(self.rng, (3, 4, 5), False, np.float32)
                big = random_array(self.rng, (6, 8), False, np.float32)
                for name in FUNCTIONS:
                    self.check(name, small, big, "valid", "swapped", device=device)
                    with self.assertRaises(ValueError):
                        gpufilter.convolve2d(small, big[:3], "valid", device=device)

    def test_result_dtype_and_float64_inputs(self):
        """float32 when both inputs are real, complex64 otherwise; float64 inputs are
        computed in float32 (held to the same tolerance against float64)."""
        pairs = [(np.float32, np.float32), (np.float64, np.float64),
                 (np.float32, np.float64), (np.complex64, np.float32),
                 (np.float32, np.complex64), (np.complex128, np.float64),
                 (np.float64, np.complex128), (np.complex128, np.complex128)]
        for device in DEVICES:
            for t1, t2 in pairs:
                in1 = random_array(self.rng, (12, 19), np.dtype(t1).kind == "c", t1)
                in2 = random_array(self.rng, (4, 3), np.dtype(t2).kind == "c", t2)
                for name in FUNCTIONS:
                    self.check(name, in1, in2, "same", "", device=device)
                    stack = getattr(gpufilter, name)(np.stack([in1, in1]), in2,
                                                     device=device)
                    self.assertEqual(stack.dtype, expected_dtype(in1, in2))

    def test_views_and_default_mode(self):
        """Strided, transposed and Fortran-ordered inputs are read as the arrays they
        are; mode defaults to 'full' as in SciPy."""
        base = random_array(self.rng, (40, 60), True, np.complex64)
        kernel = random_array(self.rng, (9, 5), False, np.float32)
        views = {"strided": base[::2, 1::3], "transposed": base.T,
                 "fortran": np.asfortranarray(base), "negative step": base[::-1, ::-2]}
        for device in DEVICES:
            for what, in1 in views.items():
                for name in FUNCTIONS:
                    self.check(name, in1, kernel.T[::-1], "same", what, device=device)
                    default = getattr(gpufilter, name)(in1, kernel, device=device)
                    want, scale = scipy_reference(name, in1, kernel, "full")
                    assert_within(self, default, want, scale,
                                  f"{name} {what} default mode")

    def test_bad_arguments_name_themselves(self):
        img, k = np.ones((8, 8), np.float32), np.ones((3, 3), np.float32)
        cases = [
            ("mode", lambda f: f(img, k, "bogus")),
            ("mode", lambda f: f(img, k, mode="FULL!")),
            ("in1", lambda f: f(np.ones(8, np.float32), k)),
            ("in1", lambda f: f(np.ones((2, 2, 8, 8), np.float32), k)),
            ("in2", lambda f: f(img, np.ones((2, 3, 3), np.float32))),
            ("in2", lambda f: f(img, np.ones(3, np.float32))),
            ("method", lambda f: f(img, k, method="winograd")),
        ]
        for name in FUNCTIONS:
            f = getattr(gpufilter, name)
            for word, call in cases:
                with self.subTest(function=name, parameter=word):
                    with self.assertRaises(ValueError) as ctx:
                        call(f)
                    self.assertIn(word, str(ctx.exception))
            with self.assertRaises(IndexError) as ctx:
                f(img, k, device=99)
            self.assertIn("device", str(ctx.exception))

    def test_large_images_on_a_gpu(self):
        """Sizes at which the GPU algorithms tile: every method on a 300x517 image with
        kernels up to 25x25, and a stack, against SciPy."""
        skip_without_gpu(self)
        img = random_array(self.rng, (300, 517), True, np.complex64)
        stack = random_array(self.rng, (6, 64, 200), False, np.float32)
        for method in METHODS:
            for shape in ((25, 25), (16, 3), (1, 40)):
                for what, k in (("full rank", random_array(self.rng, shape, False)),
                                ("rank 1", rank_one(self.rng, *shape, False))):
                    k = k.astype(np.float32)
                    for mode in MODES:
                        self.check("convolve2d", img, k, mode, what, method=method)
                    self.check("correlate2d", stack, k, "same", what, method=method)


if __name__ == "__main__":
    gr_unittest.run(qa_convolve2d)
