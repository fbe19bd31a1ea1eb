/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_API_H
#define INCLUDED_GPUFILTER_API_H

#include <gnuradio/attributes.h>

#ifdef gnuradio_gpufilter_EXPORTS
#define GPUFILTER_API __GR_ATTR_EXPORT
#else
#define GPUFILTER_API __GR_ATTR_IMPORT
#endif

#endif /* INCLUDED_GPUFILTER_API_H */
