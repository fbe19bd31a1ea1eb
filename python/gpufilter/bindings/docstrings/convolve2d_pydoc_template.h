/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "pydoc_macros.h"
#define D(...) DOC(gr, gpufilter, __VA_ARGS__)

static const char* __doc_gr_gpufilter_image_window =
    R"doc(Which outputs of the full 2D convolution convolve2d_images computes: rows first_row .. first_row + rows - 1, columns col_offset .. col_offset + cols - 1.)doc";

static const char* __doc_gr_gpufilter_convolve2d_images =
    R"doc(The low-level 2D convolution of a stack of images behind gpufilter.convolve2d and correlate2d (use those): images (images, rows, cols), a 2D kernel, an image_window, a filter_method and a device. Returns the device used.)doc";
