/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/gr_version.h"
#include <cctype>

namespace gr {
namespace gpufilter {

std::optional<std::array<int, 3>> parse_gr_version(const std::string& version)
{
    std::array<int, 3> parts{};
    std::size_t i = 0;
    if (i < version.size() && (version[i] == 'v' || version[i] == 'V'))
        ++i;
    for (std::size_t k = 0; k < parts.size(); ++k) {
        if (k > 0) {
            if (i >= version.size() || version[i] != '.')
                return std::nullopt;
            ++i;
        }
        const std::size_t start = i;
        long value = 0;
        while (i < version.size() &&
               std::isdigit(static_cast<unsigned char>(version[i])) && i - start < 6)
            value = value * 10 + (version[i++] - '0');
        if (i == start)
            return std::nullopt;
        parts[k] = static_cast<int>(value);
    }
    // The minor number must end here, e.g. not "3.10.15x" read as 3.10.15: a dot
    // (maintenance number), a suffix after a non-digit, or the end.
    if (i < version.size() && std::isdigit(static_cast<unsigned char>(version[i])))
        return std::nullopt;
    return parts;
}

bool device_buffers_supported(const std::string& gr_version)
{
    const auto v = parse_gr_version(gr_version);
    if (!v)
        return true;
    return *v >= std::array<int, 3>{ 3, 10, 2 };
}

} // namespace gpufilter
} // namespace gr
