/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/deadline_waker.h"
#include <condition_variable>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

namespace gr {
namespace gpufilter {
namespace deadline_waker {

namespace {

using clock = std::chrono::steady_clock;

struct alarm {
    clock::time_point when;
    std::weak_ptr<gr::block_detail> block;
    bool operator>(const alarm& other) const { return when > other.when; }
};

class waker
{
public:
    waker()
    {
        std::thread([this] { run(); }).detach();
    }

    void add(alarm a)
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        const bool sooner = d_alarms.empty() || a.when < d_alarms.top().when;
        d_alarms.push(std::move(a));
        if (sooner)
            d_changed.notify_one();
    }

private:
    void run()
    {
        std::unique_lock<std::mutex> lock(d_mutex);
        for (;;) {
            if (d_alarms.empty()) {
                d_changed.wait(lock);
                continue;
            }
            const auto next = d_alarms.top().when;
            if (clock::now() < next) {
                d_changed.wait_until(lock, next);
                continue;
            }
            auto block = d_alarms.top().block.lock();
            d_alarms.pop();
            if (!block)
                continue;
            lock.unlock();             // the block's own lock is taken below
            block->d_tpb.notify_msg(); // as a message would: the block looks again
            lock.lock();
        }
    }

    std::mutex d_mutex;
    std::condition_variable d_changed;
    std::priority_queue<alarm, std::vector<alarm>, std::greater<alarm>> d_alarms;
};

waker& the_waker()
{
    // Never destroyed: its thread may still sleep when the process exits, and blocks
    // made by static objects may ask for it late.
    static waker* w = new waker();
    return *w;
}

} // namespace

void wake_at(clock::time_point when, std::weak_ptr<gr::block_detail> block)
{
    the_waker().add({ when, std::move(block) });
}

} // namespace deadline_waker
} // namespace gpufilter
} // namespace gr
