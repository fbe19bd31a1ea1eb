/* SPDX-License-Identifier: GPL-3.0-or-later */
// The hooks on top of the library's block_observer: what the observer is told, kept
// for the tests to ask, and its answers, set by the tests.

#include "core/block_observer.h"
#include "test_hooks.h"
#include <atomic>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpufilter {
namespace test_hooks {

namespace {

class hooks_observer final : public block_observer
{
public:
    void block_made(const observed_block& block) override
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        d_blocks[block.unique_id()] = &block;
    }

    void block_destroyed(const observed_block& block) override
    {
        // Waits for a question to the block that is under way (ask()).
        std::lock_guard<std::mutex> lock(d_mutex);
        d_blocks.erase(block.unique_id());
    }

    //! f(block) for the live block with this id.
    template <class F>
    int ask(long unique_id, F&& f)
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        const auto it = d_blocks.find(unique_id);
        if (it == d_blocks.end())
            throw std::out_of_range("unique_id: no GPU block " +
                                    std::to_string(unique_id));
        return f(*it->second);
    }

    void stream_made(const void* source, int /*device*/) override
    {
        const long after = fail_after;
        if (after < 0)
            return;
        std::lock_guard<std::mutex> lock(d_mutex);
        d_failing[source] = { after, 0 };
    }

    void stream_destroyed(const void* source) override
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        d_failing.erase(source);
    }

    void before_call(const cuda::gpu_call& call) override
    {
        {
            std::lock_guard<std::mutex> lock(d_mutex);
            const auto it = d_failing.find(call.source);
            if (it == d_failing.end() || it->second.calls++ < it->second.after)
                return;
        }
        fail_with_invalid_copy(call.stream);
    }

    void host_memory_locked(const void*, std::size_t) override { ++locked_ranges; }
    void host_memory_unlocked(const void*, std::size_t) override { --locked_ranges; }

    void before_device_memory(int /*device*/, std::size_t bytes) override
    {
        if (refuse_device_memory)
            throw std::runtime_error("device buffer: " + std::to_string(bytes) +
                                     " bytes of device memory could not be made "
                                     "(fail_device_buffer_memory)");
    }
    // Each freeing comes to the observer told of the making: the sum is exact.
    void device_memory_made(const void*, int, std::size_t bytes) override
    {
        device_bytes += bytes;
    }
    void device_memory_freed(const void*, int, std::size_t bytes) override
    {
        device_bytes -= bytes;
    }

    std::size_t emulated_ring_granularity() override { return ring_granularity; }
    bool emulate_device_buffers() override { return emulate; }

    // Set by the hooks below.
    std::atomic<long> fail_after{ -1 };
    std::atomic<bool> emulate{ false };
    std::atomic<bool> refuse_device_memory{ false };
    std::atomic<std::size_t> ring_granularity{ 0 };
    // Kept from the events.
    std::atomic<std::size_t> locked_ranges{ 0 };
    std::atomic<std::size_t> device_bytes{ 0 };

private:
    struct failing_stream {
        long after; // calls that succeed
        long calls;
    };

    std::mutex d_mutex;
    std::map<long, const observed_block*> d_blocks; // live blocks by unique_id
    std::map<const void*, failing_stream> d_failing;
};

hooks_observer& observer()
{
    // Never destroyed: blocks may outlive this module's statics at the process's exit,
    // and the library tells their end to this observer.
    static hooks_observer* const instance = new hooks_observer;
    return *instance;
}

} // namespace

void install_observer() { set_block_observer(&observer()); }

void fail_gpu_after(long calls) { observer().fail_after = calls; }

std::size_t page_locked_ranges() { return observer().locked_ranges; }

int block_memory_device(long unique_id)
{
    return observer().ask(unique_id,
                          [](const observed_block& b) { return b.memory_device(); });
}

int block_work_device(long unique_id)
{
    return observer().ask(unique_id,
                          [](const observed_block& b) { return b.last_call_device(); });
}

void emulate_device_buffers(bool on) { observer().emulate = on; }

std::size_t device_buffer_bytes() { return observer().device_bytes; }

void fail_device_buffer_memory(bool on) { observer().refuse_device_memory = on; }

void emulated_ring_granularity(std::size_t bytes) { observer().ring_granularity = bytes; }

} // namespace test_hooks
} // namespace gpufilter
} // namespace gr
