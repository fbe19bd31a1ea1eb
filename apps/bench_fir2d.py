#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""2D convolution on the GPU: direct, separable and FFT against kernel size.

Goorts et al.'s experiment on today's hardware: real fp32 images (default 2048x2048
and 4096x4096, values in [0, 1)) convolved with square kernels of 3 to 751 pixels,
random (full rank) and Gaussian (rank 1, sigma = size/6), SciPy's mode 'same'. Rows:
  gpufilter direct / separable / fft / auto   gpufilter.convolve2d with that method
                                   (separable only for the Gaussian kernels)
  cupy ndimage.convolve            mode 'constant', origin chosen to match 'same'
  cupy ndimage.convolve1d x2       the Gaussian's two 1D factors, one pass per axis
  cupy signal.convolve2d           mode 'same'
  cupy signal.fftconvolve          mode 'same'
  scipy signal.convolve2d (CPU)    on a smaller image (--scipy-image), small kernels
Direct methods run up to --direct-max; an implementation whose call takes more than
--budget seconds skips the larger kernels of that panel.

Timing, median of --reps calls after one warm-up (fewer when a call is slow):
  data=device  the image already in GPU memory. CuPy rows: CUDA events around the
               call. gpufilter on CuPy arrays: the same, with a device synchronize
               before the stop event (its own stream); without CuPy (a GNU Radio
               runtime): buffers from the CUDA runtime (ctypes), wall time of the call
               between two device synchronizes
  data=host    gpufilter on NumPy arrays ("host arrays": copies to the GPU and back
               included) and SciPy: wall time of the call
Each result is compared with a float64 FFT convolution of the same data (on the GPU
with CuPy, else NumPy): max |out - ref| / max |ref| must stay under --rtol (scaled
up for kernels over 256: fp32 rounding grows with the k*k products summed). Before
timing, every implementation must match that reference on a small non-square case
with odd and even kernels. A failure prints FAIL and makes the exit status 1.

gpufilter and CuPy may live in different Pythons (a GNU Radio runtime without CuPy,
a CuPy Python without GNU Radio): each run gives the rows it can; draw them together
with plot_fir2d.py A.csv B.csv --out FILE.png (or --plot-from A.csv B.csv --plot F).

    bench_fir2d.py [--images 2048,4096] [--kernels 3,5,...] [--csv FILE] [--plot FILE]
    bench_fir2d.py --cpu-smoke          tiny sizes on the CPU (SciPy, gpufilter -2)
"""

import argparse
import csv
import datetime
import math
import statistics
import sys
import time

import numpy as np

FIELDS = ["image", "kernel", "kind", "implementation", "data", "processor", "ms",
          "gpix_s", "max_rel_err", "ok", "reps", "note"]
KERNELS = [3, 5, 9, 15, 25, 51, 101, 201, 401, 751]
CHECK_IMAGE = (37, 45)            # the small alignment case: odd, non-square
CHECK_KERNELS = ((3, 3), (4, 4), (5, 2), (2, 6))


def int_list(lo, hi):
    def convert(text):
        try:
            v = [int(t) for t in text.split(",") if t.strip()]
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"not a list of integers: '{text}'") from None
        if not v or min(v) < lo or max(v) > hi:
            raise argparse.ArgumentTypeError(f"'{text}': each must be in [{lo}, {hi}]")
        return v
    convert.__name__ = "integer list"
    return convert


def shape_list(text):
    """'2048,1024x4096' -> [(2048, 2048), (1024, 4096)] (rows x columns)."""
    out = []
    for item in (t.strip() for t in text.split(",") if t.strip()):
        try:
            dims = [int(d) for d in item.lower().split("x")]
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a size: '{item}'") from None
        if len(dims) == 1:
            dims *= 2
        if len(dims) != 2 or min(dims) < 1 or max(dims) > 65536:
            raise argparse.ArgumentTypeError(f"'{item}': N or RxC, each in [1, 65536]")
        out.append(tuple(dims))
    if not out:
        raise argparse.ArgumentTypeError(f"no size in '{text}'")
    return out


def integer(lo, hi):
    """argparse type: one integer in [lo, hi]."""
    def convert(text):
        v = int(text)
        if not lo <= v <= hi:
            raise argparse.ArgumentTypeError(f"'{text}': must be in [{lo}, {hi}]")
        return v
    convert.__name__ = "integer"
    return convert


def positive(text):
    x = float(text)
    if not math.isfinite(x) or x <= 0:
        raise argparse.ArgumentTypeError(f"must be a finite number > 0, not '{text}'")
    return x


def parse_args(argv):
    p = argparse.ArgumentParser(prog="bench_fir2d.py", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--images", type=shape_list, help="image sizes, N or RxC "
                   "(default 2048,4096)")
    p.add_argument("--kernels", type=int_list(1, 4096),
                   help="square kernel sizes (default " + ",".join(map(str, KERNELS)) +
                        ")")
    p.add_argument("--kinds", default="random,gaussian",
                   help="kernel kinds: random, gaussian (default both)")
    p.add_argument("--direct-max", type=integer(1, 4096), default=201,
                   help="largest kernel for the direct methods (default 201)")
    p.add_argument("--budget", type=positive, default=3.0,
                   help="seconds one call may take before that implementation skips "
                        "larger kernels (default 3)")
    p.add_argument("--reps", type=integer(1, 1000), default=7,
                   help="timed calls per row, median kept (default 7; fewer for "
                        "calls slower than --budget/7)")
    p.add_argument("--rtol", type=positive, default=1e-4,
                   help="largest max|out-ref|/max|ref| that passes (default 1e-4), "
                        "times k/256 for kernels larger than 256")
    p.add_argument("--scipy-image", type=shape_list, default=[(512, 512)],
                   help="image size of the SciPy rows (default 512)")
    p.add_argument("--scipy-max", type=integer(1, 4096), default=9,
                   help="largest kernel of the SciPy rows (default 9)")
    p.add_argument("--device", type=integer(-2, 1023), default=-1,
                   help="gpufilter device: CUDA index, -1 auto (default), -2 CPU")
    p.add_argument("--data", default="device,host",
                   help="gpufilter rows: device (CuPy arrays, where CuPy is here and "
                        "gpufilter takes them), host (NumPy arrays) or both (default)")
    p.add_argument("--no-cupy", action="store_true", help="no CuPy rows or arrays")
    p.add_argument("--no-scipy", action="store_true", help="no SciPy rows")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("--cpu-smoke", action="store_true",
                   help="tiny images and kernels, gpufilter on the CPU (device -2), "
                        "no CuPy: a smoke test of the harness")
    p.add_argument("--csv", help="write the rows here (default: standard output only)")
    p.add_argument("--plot", metavar="FILE.png", help="time against kernel size "
                   "(matplotlib), one panel per image size and kernel kind")
    p.add_argument("--plot-from", nargs="+", metavar="CSV",
                   help="only draw --plot from these CSVs (several runs together)")
    a = p.parse_args(argv)
    a.kinds = [k for k in a.kinds.split(",") if k]
    a.data = [d for d in a.data.split(",") if d]
    for k in a.kinds:
        if k not in ("random", "gaussian"):
            p.error(f"--kinds: unknown kind '{k}'")
    for d in a.data:
        if d not in ("device", "host"):
            p.error(f"--data: unknown '{d}'")
    if a.plot_from and not a.plot:
        p.error("--plot-from needs --plot FILE.png")
    a.scipy_image = a.scipy_image[0]
    if a.cpu_smoke:
        a.images = a.images or [(64, 64), (48, 80)]
        a.kernels = a.kernels or [3, 4, 9, 15]
        a.device, a.no_cupy, a.reps, a.data = -2, True, min(a.reps, 3), ["host"]
        a.scipy_image, a.scipy_max = None, 4096      # SciPy on every image
    a.images = a.images or [(2048, 2048), (4096, 4096)]
    a.kernels = a.kernels or KERNELS
    return a


# ---- data and the float64 reference ------------------------------------------------

def make_kernel(kind, k, rng):
    """(kernel float32 k x k, its 1D factor or None)."""
    if kind == "random":
        return (rng.uniform(-1, 1, (k, k)) / k).astype(np.float32), None
    sigma = max(k / 6.0, 0.5)
    g = np.exp(-0.5 * ((np.arange(k) - (k - 1) / 2) / sigma) ** 2)
    g /= g.sum()
    return np.outer(g, g).astype(np.float32), g.astype(np.float32)


def fast_len(n):
    """The smallest 2^a 3^b 5^c >= n (a cheap FFT size)."""
    best = 1 << max(0, (n - 1).bit_length())
    p5 = 1
    while p5 < best:
        p35 = p5
        while p35 < best:
            m = p35
            while m < n:
                m *= 2
            best = min(best, m)
            p35 *= 3
        p5 *= 5
    return best


def reference_same(xp, image, kernel):
    """SciPy's convolve2d(image, kernel, 'same') in float64 by FFT (xp: numpy or cupy):
    the full convolution's rows and columns from (kh-1)//2, (kw-1)//2."""
    (m, n), (kh, kw) = image.shape, kernel.shape
    shape = (fast_len(m + kh - 1), fast_len(n + kw - 1))
    spec = xp.fft.rfft2(xp.asarray(image, xp.float64), shape)
    spec *= xp.fft.rfft2(xp.asarray(kernel, xp.float64), shape)
    full = xp.fft.irfft2(spec, shape)
    return full[(kh - 1) // 2:(kh - 1) // 2 + m, (kw - 1) // 2:(kw - 1) // 2 + n]


def direct_same(image, kernel):
    """The same by definition, sum_ij k[i][j] x[r+(kh-1)//2-i][c+(kw-1)//2-j]: slow,
    for the small check that anchors reference_same."""
    (m, n), (kh, kw) = image.shape, kernel.shape
    top, left = kh - 1 - (kh - 1) // 2, kw - 1 - (kw - 1) // 2
    pad = np.zeros((m + kh - 1, n + kw - 1))
    pad[top:top + m, left:left + n] = image
    out = np.zeros((m, n))
    for i in range(kh):
        for j in range(kw):
            r, c = kh - 1 - i, kw - 1 - j
            out += kernel[i, j] * pad[r:r + m, c:c + n]
    return out


def rel_err(xp, out, ref):
    scale = float(xp.abs(ref).max()) or 1.0
    return float(xp.abs(xp.asarray(out, xp.float64) - ref).max()) / scale


# ---- implementations ------------------------------------------------------------

class impl:
    """One row kind: run(image, kernel, factor) on `data` ("device" or "host"); `takes`
    says what the image is ("cupy" or "numpy"); `timer` is "events" (CUDA events on
    CuPy's stream) or "wall"; `sync`, when given, waits for the device before and
    after the call (a library's own streams)."""

    def __init__(self, name, data, processor, run, timer, kinds=None, direct=False,
                 scipy=False, takes=None, sync=None):
        self.name, self.data, self.processor, self.run = name, data, processor, run
        self.timer, self.kinds, self.direct, self.scipy = timer, kinds, direct, scipy
        self.takes = takes or ("cupy" if data == "device" else "numpy")
        self.sync = sync


class cudart:
    """The few CUDA runtime calls that time gpufilter on device memory where CuPy is
    missing (a GNU Radio runtime without it), through ctypes."""

    def __init__(self, device):
        import ctypes
        self.c = ctypes
        for name in ("libcudart.so", "libcudart.so.13", "libcudart.so.12"):
            try:
                self.lib = ctypes.CDLL(name)
                break
            except OSError:
                continue
        else:
            raise OSError("libcudart.so cannot be loaded")
        self.check(self.lib.cudaSetDevice(max(device, 0)), "cudaSetDevice")
        self.buffers = {}

    def check(self, rc, what):
        if rc:
            raise RuntimeError(f"{what}: CUDA error {rc}")

    def sync(self):
        self.check(self.lib.cudaDeviceSynchronize(), "cudaDeviceSynchronize")

    def device_copy(self, image):
        """(input, output) device buffers for `image`, uploaded once per image."""
        c = self.c
        key = (id(image), image.shape)
        if key not in self.buffers:
            for ptrs in self.buffers.values():
                for p in ptrs:
                    self.lib.cudaFree(c.c_void_p(p))
            self.buffers.clear()
            ptrs = []
            for _ in range(2):
                p = c.c_void_p()
                self.check(self.lib.cudaMalloc(c.byref(p), c.c_size_t(image.nbytes)),
                           "cudaMalloc")
                ptrs.append(p.value)
            self.check(self.lib.cudaMemcpy(c.c_void_p(ptrs[0]), image.ctypes.data_as(
                c.c_void_p), c.c_size_t(image.nbytes), 1), "cudaMemcpy")
            self.buffers = {key: ptrs}
        return self.buffers[key]

    def to_host(self, ptr, shape):
        out = np.empty(shape, np.float32)
        self.check(self.lib.cudaMemcpy(out.ctypes.data_as(self.c.c_void_p),
                                       self.c.c_void_p(ptr), self.c.c_size_t(out.nbytes),
                                       2), "cudaMemcpy")
        return out


class device_result:
    """An output left in device memory; np.asarray() copies it to the host."""

    def __init__(self, rt, ptr, shape):
        self.rt, self.ptr, self.shape = rt, ptr, shape

    def __array__(self, dtype=None):
        out = self.rt.to_host(self.ptr, self.shape)
        return out if dtype is None else out.astype(dtype)


def gpufilter_impls(args, cp, log):
    """gpufilter.convolve2d per method: on device memory (CuPy arrays, or pointers
    from the CUDA runtime where CuPy is missing) and on host arrays. The timed calls
    are time_ours() and time_ours_device(): change them there to time another entry
    point without touching the rest."""
    try:
        from gnuradio import gpufilter
    except ImportError as e:
        log(f"(no gpufilter rows: cannot import gnuradio.gpufilter: {e})")
        return []
    if not hasattr(gpufilter, "convolve2d"):
        log("(no gpufilter rows: this gr-gpufilter has no convolve2d)")
        return []
    on_gpu = args.device != -2 and gpufilter.cuda_device_count() > 0
    processor = "gpu" if on_gpu else "cpu"

    def time_ours(image, kernel, method):  # NumPy or CuPy arrays
        return gpufilter.convolve2d(image, kernel, mode="same", method=method,
                                    device=args.device)

    def time_ours_device(rt, image, kernel, method):  # device pointers, no CuPy
        src, dst = rt.device_copy(image)
        (rows, cols), (kh, kw) = image.shape, kernel.shape
        window = gpufilter.image_window((kh - 1) // 2, rows, cols, (kw - 1) // 2)
        gpufilter.convolve2d_device_fff(src, 1, rows, cols, kernel, window,
                                        gpufilter.parse_filter_method(method), dst,
                                        max(args.device, 0))
        return device_result(rt, dst, image.shape)

    paths = []   # (data, name suffix, run(x, k, method), takes, sync)
    sync = cp.cuda.runtime.deviceSynchronize if cp is not None else None
    if "device" in args.data and on_gpu and cp is not None:
        try:
            probe = time_ours(cp.zeros(CHECK_IMAGE, cp.float32),
                              np.ones((3, 3), np.float32), "auto")
            if isinstance(probe, cp.ndarray):
                paths.append(("device", "", time_ours, "cupy", sync))
            else:
                log("(gpufilter.convolve2d gave a host array for a CuPy one)")
        except Exception as e:  # TypeError, ValueError: no __cuda_array_interface__ path
            log(f"(gpufilter.convolve2d does not take CuPy arrays: {e})")
    elif "device" in args.data and on_gpu:
        try:
            rt = cudart(args.device)
            if not hasattr(gpufilter, "convolve2d_device_fff"):
                raise RuntimeError("this gr-gpufilter has no convolve2d_device_fff")
            paths.append(("device", "", lambda x, k, m: time_ours_device(rt, x, k, m),
                          "numpy", rt.sync))
        except (OSError, RuntimeError) as e:
            log(f"(no gpufilter rows on device memory without CuPy: {e})")
    if "host" in args.data or not paths:
        paths.append(("host", " (host arrays)", time_ours, "numpy", None))
    out = []
    for data, suffix, call, takes, wait in paths:
        for method in ("direct", "separable", "fft", "auto"):
            out.append(impl(f"gpufilter {method}{suffix}", data, processor,
                            lambda x, k, g, m=method, call=call: call(x, k, m),
                            "wall" if takes == "numpy" else "events",
                            kinds=("gaussian",) if method == "separable" else None,
                            direct=method == "direct", takes=takes, sync=wait))
    log(f"gpufilter: convolve2d on {processor}, device {args.device}, data: " +
        ", ".join(d + (" (CuPy arrays)" if t == "cupy" else
                       " (CUDA runtime pointers)" if d == "device" else "")
                  for d, _, _, t, _ in paths))
    return out


def cupy_impls(cp):
    from cupyx.scipy import ndimage, signal

    def origin(k):  # ndimage centres even kernels one sample off convolve2d 'same'
        return (k - 1) // 2 - k // 2

    def nd_convolve(x, k, g):
        return ndimage.convolve(x, cp.asarray(k), mode="constant", cval=0.0,
                                origin=(origin(k.shape[0]), origin(k.shape[1])))

    def nd_separable(x, k, g):
        h = cp.asarray(g)
        o = origin(len(g))
        y = ndimage.convolve1d(x, h, axis=0, mode="constant", cval=0.0, origin=o)
        return ndimage.convolve1d(y, h, axis=1, mode="constant", cval=0.0, origin=o)

    return [
        impl("cupy ndimage.convolve", "device", "gpu", nd_convolve, "events",
             direct=True),
        impl("cupy ndimage.convolve1d x2", "device", "gpu", nd_separable, "events",
             kinds=("gaussian",)),
        impl("cupy signal.convolve2d", "device", "gpu",
             lambda x, k, g: signal.convolve2d(x, cp.asarray(k), mode="same"), "events",
             direct=True),
        impl("cupy signal.fftconvolve", "device", "gpu",
             lambda x, k, g: signal.fftconvolve(x, cp.asarray(k), mode="same"), "events"),
    ]


def scipy_impls(log):
    try:
        from scipy import signal
    except ImportError as e:
        log(f"(no SciPy rows: {e})")
        return []
    return [impl("scipy signal.convolve2d (CPU)", "host", "cpu",
                 lambda x, k, g: signal.convolve2d(x, k, mode="same"), "wall",
                 direct=True, scipy=True)]


# ---- timing and checking ----------------------------------------------------------

def timed(cp, it, fn, reps, budget):
    """(median ms, calls timed, first result). The warm-up call's wall time sets how
    many calls fit the budget."""
    wait = it.sync or (lambda: None)
    wait()
    t0 = time.perf_counter()
    result = fn()
    wait()
    warm = time.perf_counter() - t0
    n = max(1, min(reps, int(budget / max(warm, 1e-9))))
    ms = []
    for _ in range(n):
        if it.timer == "wall":
            wait()
            t0 = time.perf_counter()
            fn()
            wait()
            ms.append((time.perf_counter() - t0) * 1e3)
            continue
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        fn()
        wait()
        stop.record()
        stop.synchronize()
        ms.append(cp.cuda.get_elapsed_time(start, stop))
    return statistics.median(ms), n, result


def check_alignment(its, cp, xp, scipy_ok, log):
    """Every implementation and the reference itself against the definition on a
    small case; returns the names that failed (the reference's own failure raises)."""
    rng = np.random.default_rng(99)
    image = rng.random(CHECK_IMAGE).astype(np.float32)
    failed = []
    for kh, kw in CHECK_KERNELS + ((5, 5),):
        kernel = rng.uniform(-1, 1, (kh, kw)).astype(np.float32)
        want = direct_same(image, kernel)
        ref = reference_same(np, image, kernel)
        assert np.abs(ref - want).max() < 1e-9, f"reference_same is wrong for {kh}x{kw}"
        if scipy_ok:
            from scipy import signal
            got = signal.convolve2d(image.astype(np.float64), kernel, "same")
            assert np.abs(got - want).max() < 1e-9, \
                f"SciPy convolve2d 'same' differs from the definition for {kh}x{kw}"
        for it in its:
            square = kh == kw
            if it.name in failed or (it.kinds == ("gaussian",) and not square):
                continue
            if it.kinds == ("gaussian",):   # separable rows: a rank-1 kernel
                k, g = make_kernel("gaussian", kh, rng)
            else:
                k, g = kernel, None
            want_k = want if g is None else direct_same(image, k)
            x = cp.asarray(image) if it.takes == "cupy" else image
            try:
                out = it.run(x, k, g)
                out = cp.asnumpy(out) if it.takes == "cupy" else np.asarray(out)
                err = (rel_err(np, out, want_k) if out.shape == image.shape
                       else float("inf"))
                why = f"max rel error {err:.2e}, shape {out.shape}"
            except Exception as e:
                err, why = float("inf"), f"{type(e).__name__}: {e}"
            if not err < 1e-5:
                if it.name.startswith(("cupy", "scipy")):
                    raise AssertionError(f"{it.name} does not compute convolve2d 'same' "
                                         f"for a {kh}x{kw} kernel ({why})")
                failed.append(it.name)
                log(f"FAIL: {it.name} differs from convolve2d 'same' on a "
                    f"{CHECK_IMAGE[0]}x{CHECK_IMAGE[1]} image, {kh}x{kw} kernel: {why}")
    return failed


# ---- the run --------------------------------------------------------------------

def load_cupy(args, log):
    if args.no_cupy:
        return None
    try:
        import cupy as cp
        import cupyx.scipy.ndimage  # noqa: F401
        import cupyx.scipy.signal  # noqa: F401 (both import where CuPy works)
        cp.cuda.Device(0).compute_capability  # raises without a usable GPU
        return cp
    except Exception as e:  # ImportError, or a CUDA library CuPy cannot load
        log(f"(no CuPy rows: {type(e).__name__}: {e})")
        return None


def describe(cp):
    """(GPU name, versions) for the CSV's header."""
    versions = [f"python {sys.version.split()[0]}", f"numpy {np.__version__}"]
    gpu = "none"
    if cp is not None:
        props = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)
        gpu = props["name"]
        gpu = gpu.decode() if isinstance(gpu, bytes) else gpu
        versions.append(f"cupy {cp.__version__}")
    for name in ("scipy", "gnuradio.gpufilter"):
        try:
            mod = __import__(name, fromlist=["_"])
            versions.append(f"{name} {getattr(mod, '__version__', 'present')}")
            if name == "gnuradio.gpufilter" and gpu == "none" and mod.cuda_device_count():
                gpu = mod.cuda_device_name(0)
        except Exception:
            pass
    return gpu, "; ".join(versions)


def applies(args, it, shape, kind, k):
    if it.kinds and kind not in it.kinds:
        return False
    if it.direct and k > args.direct_max:
        return False
    if it.scipy:
        return k <= args.scipy_max and args.scipy_image in (None, shape)
    return shape in args.images


def run(args, cp, log, emit):
    """Times every case; returns the number of failures."""
    its = gpufilter_impls(args, cp, log)
    its += cupy_impls(cp) if cp is not None else []
    its += [] if args.no_scipy else scipy_impls(log)
    scipy_ok = any(it.scipy for it in its)
    failures = len(check_alignment(its, cp, np, scipy_ok, log))
    log("alignment: " + ("every implementation computes convolve2d 'same'"
                         if not failures else f"{failures} implementation(s) FAIL"))
    xp = cp if cp is not None else np
    shapes = list(args.images)
    if scipy_ok and args.scipy_image and args.scipy_image not in shapes:
        shapes.append(args.scipy_image)
    rng = np.random.default_rng(args.seed)
    for shape in shapes:
        image = rng.random(shape, dtype=np.float32)
        image_dev = cp.asarray(image) if cp is not None else None
        for kind in args.kinds:
            over_budget = set()
            for k in args.kernels:
                kernel, g = make_kernel(kind, k, rng)
                todo = [it for it in its if applies(args, it, shape, kind, k)
                        and it.name not in over_budget]
                if not todo:
                    continue
                ref = reference_same(xp, image_dev if cp is not None else image, kernel)
                tol = args.rtol * max(1.0, k / 256)   # fp32 sums of k*k products
                for it in todo:
                    x = image_dev if it.takes == "cupy" else image
                    row = dict(image=f"{shape[0]}x{shape[1]}", kernel=k, kind=kind,
                               implementation=it.name, data=it.data,
                               processor=it.processor, ms="", gpix_s="", max_rel_err="",
                               ok=0, reps=0, note="")
                    try:
                        ms, n, out = timed(cp, it, lambda: it.run(x, kernel, g),
                                           args.reps, args.budget)
                        err = rel_err(xp, xp.asarray(out), ref)
                        pixels = shape[0] * shape[1]
                        row.update(ms=f"{ms:.4g}", gpix_s=f"{pixels / ms / 1e6:.4g}",
                                   max_rel_err=f"{err:.2e}", ok=int(err <= tol), reps=n)
                        if ms > 1e3 * args.budget:
                            over_budget.add(it.name)
                            row["note"] = "over --budget: larger kernels skipped"
                        if not row["ok"]:
                            row["note"] = f"error above {tol:.2g}"
                    except Exception as e:
                        row["note"] = f"{type(e).__name__}: {e}".replace("\n", " ")
                    failures += not row["ok"]
                    emit(row)
                    out = None   # free its memory before the next call
                    if cp is not None:
                        cp.get_default_memory_pool().free_all_blocks()
    return failures


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    import plot_fir2d   # beside this script
    if args.plot_from:
        rows, gpu = plot_fir2d.read_csvs(args.plot_from)
        if not plot_fir2d.plot(args.plot, rows, gpu):
            return 1
        print(f"plot: {args.plot}")
        return 0
    to_file = open(args.csv, "w", newline="") if args.csv else sys.stdout
    log_to = sys.stdout if args.csv else sys.stderr
    log = lambda text: print(text, file=log_to, flush=True)
    cp = load_cupy(args, log)
    gpu, versions = describe(cp)
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    for line in ["# bench_fir2d: 2D convolution 'same', fp32, median of timed calls",
                 f"# gpu: {gpu}", f"# versions: {versions}", f"# date: {date}",
                 "# timing: data=device: CUDA events (gpufilter: with a device "
                 "synchronize) or, without CuPy, wall time between synchronizes; "
                 "data=host: wall time of the call, copies included",
                 "# command: " + " ".join(sys.argv)]:
        print(line, file=to_file)
    writer = csv.DictWriter(to_file, fieldnames=FIELDS)
    writer.writeheader()
    rows = []

    def emit(row):
        rows.append({k: str(v) for k, v in row.items()})
        writer.writerow(row)
        to_file.flush()
        log(f"{row['image']:>9} k={row['kernel']:<4} {row['kind']:8} "
            f"{row['implementation']:36} {row['ms'] or '-':>9} ms "
            f"{row['gpix_s'] or '-':>8} GPix/s  err {row['max_rel_err'] or '-':9} "
            f"{'' if row['ok'] else '<<< FAIL:'} {row['note']}")

    failures = run(args, cp, log, emit)
    if to_file is not sys.stdout:
        to_file.close()
    if args.plot and rows:
        if plot_fir2d.plot(args.plot, rows, gpu):
            log(f"plot: {args.plot}")
        else:
            failures += 1
    if not rows:
        log("bench_fir2d: no implementation could run here (no gpufilter.convolve2d, "
            "CuPy or SciPy)")
        return 1
    if failures:
        log(f"bench_fir2d: {failures} FAILURE(S): see the rows marked FAIL above")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
