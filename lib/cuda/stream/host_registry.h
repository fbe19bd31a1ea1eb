/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_CUDA_HOST_REGISTRY_H
#define INCLUDED_GPUFILTER_CUDA_HOST_REGISTRY_H

#include <cstddef>
#include <string>
#include <vector>

namespace gr {
namespace gpufilter {
namespace cuda {

/*!
 * \brief The host memory one user (a host_stream) has page-locked, so that copies go by
 * DMA straight from and to it.
 *
 * Page-locked ranges are counted across the process: GNU Radio buffers are shared (a
 * buffer feeding several GPU blocks, or between two GPU blocks, is used by each) and
 * blocks stop one by one, so the first to stop must not unlock memory that another is
 * still copying from: the last user unlocks it.
 */
class host_registration
{
public:
    host_registration() = default;
    ~host_registration();
    host_registration(const host_registration&) = delete;
    host_registration& operator=(const host_registration&) = delete;

    //! Page-locks [base, base + bytes) (for every device: portable). Returns whether
    //! the range can be copied in place; false (the reason in note()) means staging.
    bool add(const void* base, std::size_t bytes);
    //! Unlocks what add() locked, where this was its last user.
    void clear();
    //! Whether [p, p + bytes) lies inside a range added here.
    bool contains(const void* p, std::size_t bytes) const;
    const std::string& note() const { return d_note; }

private:
    struct range {
        const char* begin;
        const char* end;
        bool counted; // holds a reference in the process-wide count
    };
    std::vector<range> d_ranges;
    std::string d_note = "no host memory registered";
};

} // namespace cuda
} // namespace gpufilter
} // namespace gr

#endif
