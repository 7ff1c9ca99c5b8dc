#include <valgrind/callgrind.h>

#include <optional>

#include "perfci/bench.h"
#include "perfci/bench/hook_counters.h"
#include "perfci/bench/hook_state.h"
#include "perfci/counters/counter_set.h"

namespace perfci {

struct BenchHook::Active {
  std::unique_ptr<CounterSet> counters;
  std::vector<EventReading> totals;
  CpuClockRing* sampler = nullptr;
  bool running = false;
  bool callgrind_used = false;
  // The allocation counter's totals when the region last started, and what
  // the region's runs added up to.
  std::uint64_t alloc_calls_at = 0, alloc_bytes_at = 0;
  std::uint64_t alloc_calls = 0, alloc_bytes = 0;
  double items_per_iteration = 0;
  double transactions = 0;
};

bool BenchHook::enabled() { return hook_settings().any(); }

BenchHook::BenchHook(benchmark::State& state, StartMode mode) : state_(state) {
  const HookSettings& settings = hook_settings();
  if (!settings.any()) return;
  active_ = std::make_unique<Active>();
  if (!settings.events.empty() || !settings.unknown_events.empty()) {
    active_->counters = std::make_unique<CounterSet>(syscall_perf_backend(), settings.events);
    for (const auto& [name, message] : settings.unknown_events)
      active_->counters->add_unknown(name, message);
    active_->counters->open();
  }
  active_->sampler = HookState::get().sampler();
  if (mode == kStartNow) start();
}

BenchHook::~BenchHook() {
  if (!active_) return;
  stop();
  Active& a = *active_;
  const auto iterations = static_cast<std::uint64_t>(state_.iterations());
  if (a.callgrind_used) HookState::get().add_callgrind_region(iterations);
  if (hook_settings().alloc_totals)
    HookState::get().add_alloc_region(iterations, a.alloc_calls, a.alloc_bytes);
  if (!a.counters) return;
  double transactions = a.transactions > 0 ? a.transactions
                        : a.items_per_iteration > 0
                            ? a.items_per_iteration * static_cast<double>(state_.iterations())
                            : 0;
  for (const auto& c : hook_counters(a.totals, transactions)) {
    state_.counters[c.name] =
        benchmark::Counter(c.value, c.per_iteration ? benchmark::Counter::kAvgIterations
                                                    : benchmark::Counter::kDefaults);
  }
}

void BenchHook::start() {
  if (!active_ || active_->running) return;
  Active& a = *active_;
  a.running = true;
  if (a.sampler) a.sampler->enable();
  if (a.counters) a.counters->start();
  // Last before the region (and outside callgrind's): nothing the hook
  // allocates itself is counted, and the counter's read costs the region's
  // Ir nothing.
  if (auto totals = hook_settings().alloc_totals) totals(&a.alloc_calls_at, &a.alloc_bytes_at);
  if (hook_settings().callgrind) {
    a.callgrind_used = true;
    // Instrumentation is off outside regions (--instr-atstart=no), which
    // also keeps the unmeasured setup fast under valgrind.
    CALLGRIND_START_INSTRUMENTATION;
    CALLGRIND_TOGGLE_COLLECT;
  }
}

void BenchHook::stop() {
  if (!active_ || !active_->running) return;
  Active& a = *active_;
  if (hook_settings().callgrind) {
    CALLGRIND_TOGGLE_COLLECT;
    CALLGRIND_STOP_INSTRUMENTATION;
  }
  if (auto totals = hook_settings().alloc_totals) {  // first after it, for the same reasons
    std::uint64_t calls = 0, bytes = 0;
    totals(&calls, &bytes);
    a.alloc_calls += calls - a.alloc_calls_at;
    a.alloc_bytes += bytes - a.alloc_bytes_at;
  }
  if (a.counters) {
    a.counters->stop();
    auto readings = a.counters->read();
    if (a.totals.empty()) {
      a.totals = std::move(readings);
    } else {
      for (std::size_t i = 0; i < readings.size() && i < a.totals.size(); ++i)
        accumulate_reading(a.totals[i], readings[i]);
    }
  }
  if (a.sampler) a.sampler->disable();
  a.running = false;
}

void BenchHook::set_items_per_iteration(double items) {
  if (active_) active_->items_per_iteration = items;
}

void BenchHook::set_transactions(double total) {
  if (active_) active_->transactions = total;
}

}  // namespace perfci
