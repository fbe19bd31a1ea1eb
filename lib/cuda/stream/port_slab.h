/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_PORT_SLAB_H
#define INCLUDED_GPUFILTER_CUDA_PORT_SLAB_H

#include "../common/resources.h"
#include <algorithm>
#include <cstddef>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief Every port's buffer of one side of a sub-chunk (host or device, input or
 * output) in one allocation, port p's region at p * pitch() when all ports' items
 * are the same size: then many small ports (a channelizer's 256 outputs) move
 * between host and device in one 2D copy instead of one copy each, whose fixed cost
 * of a few microseconds would outweigh the bytes.
 */
template <class Buffer>
class port_slab
{
public:
    port_slab(const std::vector<std::size_t>& item_bytes, std::size_t items)
    {
        constexpr std::size_t align = 256; // every region as a kernel expects it
        std::size_t offset = 0;
        std::vector<std::size_t> offsets;
        for (const std::size_t bytes : item_bytes) {
            offsets.push_back(offset);
            offset += (bytes * items + align - 1) / align * align;
        }
        d_storage = Buffer(std::max<std::size_t>(offset, 1));
        for (const std::size_t at : offsets)
            d_ports.push_back(d_storage.get() + at);
        const bool uniform =
            !item_bytes.empty() &&
            std::all_of(item_bytes.begin(), item_bytes.end(), [&](std::size_t b) {
                return b == item_bytes.front();
            });
        d_pitch = uniform && d_ports.size() > 1 ? d_ports[1] - d_ports[0] : 0;
    }

    char* operator[](std::size_t port) const { return d_ports[port]; }
    const std::vector<char*>& ports() const { return d_ports; }
    //! Bytes from one port's region to the next; 0 when they differ in item size.
    std::size_t pitch() const { return d_pitch; }

private:
    Buffer d_storage;
    std::vector<char*> d_ports;
    std::size_t d_pitch = 0;
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
