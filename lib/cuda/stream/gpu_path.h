/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_GPU_PATH_H
#define INCLUDED_GPUFILTER_CUDA_GPU_PATH_H

// How a family's make_*_path functions put an engine behind a host path: written once.

#include "../common/resources.h"
#include "host_stream.h"
#include "processor.h"
#include <type_traits>
#include <memory>
#include <utility>

namespace gr {
namespace gpufilter {
namespace cuda {

//! An Engine made on `device` from args, behind a host_stream of max_chunk items a
//! sub-chunk ring, with its Controls (null when Engine has none).
template <class Controls, class Engine, class... Args>
gpu_path<Controls> make_gpu_path(int device, std::size_t max_chunk, Args&&... args)
{
    use_device(device);
    auto engine = std::make_unique<Engine>(std::forward<Args>(args)...);
    Controls* controls = nullptr;
    if constexpr (std::is_base_of_v<Controls, Engine>)
        controls = engine.get();
    return { std::make_unique<host_stream>(device, std::move(engine), max_chunk),
             controls };
}

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
