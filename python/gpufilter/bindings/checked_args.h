/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_BINDINGS_CHECKED_ARGS_H
#define INCLUDED_GPUFILTER_BINDINGS_CHECKED_ARGS_H

// Counts and indices arrive from Python as ints: checked here, before the C++ API's
// unsigned parameters see them, so that a negative value is a ValueError (or an
// IndexError for an index) that names the parameter instead of a pybind11 TypeError
// or a huge unsigned number.

#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace gpufilter {
namespace bindings {

inline unsigned int checked_at_least(const char* name, int value, int minimum)
{
    if (value < minimum)
        throw std::invalid_argument(std::string(name) +
                                    ": must be >= " + std::to_string(minimum) + ", got " +
                                    std::to_string(value));
    return static_cast<unsigned int>(value);
}

//! An index (a channel, say): >= 0; the block checks the upper bound.
inline unsigned int checked_index(const char* name, int value)
{
    return checked_at_least(name, value, 0);
}

//! A count (channels, a decimation, a filter size): >= 1.
inline unsigned int checked_count(const char* name, int value)
{
    return checked_at_least(name, value, 1);
}

inline std::vector<unsigned int> checked_indices(const char* name,
                                                 const std::vector<int>& values)
{
    std::vector<unsigned int> out;
    out.reserve(values.size());
    for (int v : values) {
        if (v < 0)
            throw std::out_of_range(std::string(name) + ": " + std::to_string(v) +
                                    " is out of range (negative)");
        out.push_back(static_cast<unsigned int>(v));
    }
    return out;
}

} // namespace bindings
} // namespace gpufilter
} // namespace gr

#endif /* INCLUDED_GPUFILTER_BINDINGS_CHECKED_ARGS_H */
