# SPDX-License-Identifier: GPL-3.0-or-later
"""
2D convolution and correlation of images on the GPU, with SciPy's semantics:
``gpufilter.convolve2d(in1, in2, mode)`` gives what ``scipy.signal.convolve2d`` gives
(boundary 'fill' with 0), in float32 arithmetic. ``in1`` may also be a stack of
images, shape (images, rows, cols): each is filtered with the one 2D kernel ``in2`` in
one call. NumPy arrays are copied to the GPU and back; CuPy arrays stay on their GPU
and a CuPy array comes back.
"""

import numpy

from . import gpufilter_python as _native

_MODES = ("full", "same", "valid")


def _method(method):
    if isinstance(method, _native.filter_method):
        return method
    if not isinstance(method, str):
        raise ValueError("method: must be 'auto', 'direct', 'separable', 'fft' or a "
                         "gpufilter.filter_method, got %r" % (method,))
    return _native.parse_filter_method(method)


def _is_cupy(a):
    return hasattr(a, "__cuda_array_interface__")


def _shape_of(a):
    return tuple(int(n) for n in a.shape)


def _window(mode, image_shape, kernel_shape, correlate):
    """The rows and columns of the full convolution that SciPy's mode keeps."""
    rows, cols = image_shape
    kh, kw = kernel_shape
    if mode == "full":
        return _native.image_window(0, rows + kh - 1, cols + kw - 1, 0)
    if mode == "same":
        # SciPy centres 'same' in 'full'; correlation's kernel is flipped, so its
        # centre falls on the other side of an even size.
        first = kh // 2 if correlate else (kh - 1) // 2
        offset = kw // 2 if correlate else (kw - 1) // 2
        return _native.image_window(first, rows, cols, offset)
    return _native.image_window(kh - 1, rows - kh + 1, cols - kw + 1, kw - 1)


def _valid_swap(mode, image_shape, kernel_shape):
    """SciPy's rule: 'valid' needs one input at least as large as the other in every
    dimension, and filters the larger with the smaller."""
    if mode != "valid":
        return False
    image_larger = all(i >= k for i, k in zip(image_shape, kernel_shape))
    kernel_larger = all(k >= i for i, k in zip(image_shape, kernel_shape))
    if not (image_larger or kernel_larger):
        raise ValueError("in2: for 'valid' mode, one must be at least as large as the "
                         "other in every dimension")
    return not image_larger


def _filter(in1, in2, mode, method, device, correlate):
    if mode not in _MODES:
        raise ValueError("mode: must be 'full', 'same' or 'valid', got %r" % (mode,))
    m = _method(method)
    on_gpu = _is_cupy(in1)
    if on_gpu:
        import cupy
        kernel = numpy.asarray(cupy.asnumpy(in2) if _is_cupy(in2) else in2)
    else:
        in1 = numpy.asarray(in1)
        kernel = numpy.asarray(in2)
    if in1.ndim not in (2, 3):
        raise ValueError("in1: must be an image (rows, cols) or a stack of images "
                         "(images, rows, cols), got %d dimensions" % in1.ndim)
    if kernel.ndim != 2:
        raise ValueError("in2: must be a 2D kernel, got %d dimensions" % kernel.ndim)
    if 0 in _shape_of(in1) or 0 in kernel.shape:
        raise ValueError("in1, in2: must not be empty")
    image_shape = _shape_of(in1)[-2:]
    if _valid_swap(mode, image_shape, kernel.shape):
        # SciPy filters the kernel with the image then (each image of a stack);
        # correlation comes out reversed.
        images = cupy.asnumpy(in1) if on_gpu else in1
        stack = images if images.ndim == 3 else images[numpy.newaxis]
        outs = []
        for image in stack:
            out = _filter(kernel, image, mode, method, device, correlate)
            outs.append(out[::-1, ::-1] if correlate else out)
        out = numpy.ascontiguousarray(numpy.stack(outs) if in1.ndim == 3 else outs[0])
        return cupy.asarray(out) if on_gpu else out

    is_complex = (numpy.iscomplexobj(kernel) or
                  (in1.dtype.kind == "c"))
    dtype = numpy.complex64 if is_complex else numpy.float32
    taps = numpy.conj(kernel[::-1, ::-1]) if correlate else kernel
    if numpy.iscomplexobj(taps):
        suffix, taps = "ccc", numpy.ascontiguousarray(taps, numpy.complex64)
    else:
        suffix = "ccf" if is_complex else "fff"
        taps = numpy.ascontiguousarray(taps, numpy.float32)
    window = _window(mode, image_shape, kernel.shape, correlate)
    stack = in1 if in1.ndim == 3 else in1.reshape((1,) + image_shape)

    if on_gpu:
        x = cupy.ascontiguousarray(stack, dtype=dtype)
        out = cupy.empty((x.shape[0], window.rows, window.cols), dtype=dtype)
        cupy.cuda.get_current_stream().synchronize()  # x is written before we read it
        getattr(_native, "convolve2d_device_" + suffix)(
            x.data.ptr, x.shape[0], x.shape[1], x.shape[2], taps, window, m,
            out.data.ptr, x.device.id)
    else:
        x = numpy.ascontiguousarray(stack, dtype=dtype)
        out = getattr(_native, "convolve2d_images_" + suffix)(x, taps, window, m, device)
    return out if in1.ndim == 3 else out[0]


def convolve2d(in1, in2, mode="full", method="auto", device=-1):
    """scipy.signal.convolve2d(in1, in2, mode) on the GPU (boundary 'fill', 0).

    in1: an image (rows, cols) or a stack of images (images, rows, cols), NumPy or
    CuPy; in2: the 2D kernel; mode: 'full', 'same' or 'valid'; method: 'auto' (the
    measured rule), 'direct', 'separable' or 'fft'; device: a CUDA device index, -1
    (first GPU, else CPU) or -2 (CPU). Returns float32, or complex64 when either input
    is complex.
    """
    return _filter(in1, in2, mode, method, device, correlate=False)


def correlate2d(in1, in2, mode="full", method="auto", device=-1):
    """scipy.signal.correlate2d(in1, in2, mode) on the GPU: convolve2d's arguments,
    with in2 conjugated and not flipped, as SciPy's."""
    return _filter(in1, in2, mode, method, device, correlate=True)
