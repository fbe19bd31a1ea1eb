/* SPDX-License-Identifier: GPL-3.0-or-later */
// complex_to_real_engine and its host path: exact, in many uneven calls.

#include "demod_test_support.h"

namespace gr {
namespace gpufilter {
namespace test {
namespace {

TEST_F(demod_test, complex_to_real_is_exact)
{
    for (const unsigned vlen : { 1u, 2u, 5u, 1024u }) {
        const std::size_t items = 200000 / vlen + 3;
        const auto x = nonzero_samples(items * vlen, rng);
        cuda::complex_to_real_engine e(vlen);
        EXPECT_EQ(e.history_items(), 0u);
        EXPECT_EQ(e.ports().in_item_bytes[0], vlen * sizeof(complex));
        EXPECT_EQ(e.ports().out_item_bytes[0], vlen * sizeof(float));
        const auto y = run_interleaved(e, x, vlen, uneven_calls);
        std::vector<float> want(x.size());
        for (std::size_t i = 0; i < x.size(); ++i)
            want[i] = x[i].real();
        EXPECT_EQ(bit_mismatches(y, want), 0u) << "vlen " << vlen;
        // The host path, in sub-chunks.
        auto path = cuda::make_complex_to_real_path(0, 1000, vlen);
        cuda::host_stream& st = *path.stream;
        std::vector<float> z(x.size(), nan_f);
        const void* in = x.data();
        void* out = z.data();
        EXPECT_EQ(st.process(&in, items, &out), items);
        EXPECT_EQ(bit_mismatches(z, want), 0u) << "vlen " << vlen << " (host stream)";
    }
}

} // namespace
} // namespace test
} // namespace gpufilter
} // namespace gr
