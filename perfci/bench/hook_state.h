// What the hook keeps for the whole process: its settings, read once from
// the environment, and what it writes to PERFCI_HOOK_OUT at exit.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "perfci/counters/cpu_clock_ring.h"
#include "perfci/counters/event_resolver.h"

namespace perfci {

struct HookSettings {
  std::vector<ResolvedEvent> events;
  std::vector<std::pair<std::string, std::string>> unknown_events;  // name, message
  bool callgrind = false;  // PERFCI_CALLGRIND=1 and running on valgrind
  std::uint64_t profile_period_ns = 0;
  std::string out_path;
  // PERFCI_ALLOC=1: count the region's allocations through the preloaded
  // allocation counter (alloc_counter.cc); null when it is not loaded, and
  // alloc_error says so.
  bool alloc = false;
  void (*alloc_totals)(std::uint64_t* calls, std::uint64_t* bytes) = nullptr;
  std::string alloc_error;
  bool any() const {
    return !events.empty() || !unknown_events.empty() || callgrind || profile_period_ns > 0 ||
           alloc;
  }
};

// The settings, parsed once. Cheap to call after the first time.
const HookSettings& hook_settings();

// Process-wide accumulation, written to PERFCI_HOOK_OUT when the process ends.
class HookState {
 public:
  static HookState& get();
  ~HookState();

  void add_callgrind_region(std::uint64_t iterations);
  void add_alloc_region(std::uint64_t iterations, std::uint64_t calls, std::uint64_t bytes);
  CpuClockRing* sampler();  // null when profiling is off
  // Writes the report file now (also done at exit); for tests.
  void write_report();

 private:
  HookState() = default;
  std::mutex mu_;
  std::uint64_t callgrind_regions_ = 0;
  std::uint64_t callgrind_iterations_ = 0;
  std::uint64_t alloc_regions_ = 0, alloc_iterations_ = 0, alloc_calls_ = 0, alloc_bytes_ = 0;
  std::unique_ptr<CpuClockRing> sampler_;
  bool sampler_tried_ = false;
  std::vector<std::string> errors_;
};

}  // namespace perfci
