// Turns the counter readings of a measured region into the benchmark user
// counters listed in perfci/bench.h. Pure, so the hardware path (scaling,
// statuses, per-iteration and per-transaction division) is unit-tested with
// fake readings.
#pragma once

#include <string>
#include <vector>

#include "perfci/counters/counter_set.h"

namespace perfci {

struct HookCounter {
  std::string name;
  double value = 0;
  // Google Benchmark divides it by the iteration count (kAvgIterations).
  bool per_iteration = false;
};

// Adds a later region's reading of the same event to an earlier one.
void accumulate_reading(EventReading& total, const EventReading& region);

// transactions: total transactions in the region(s), or 0 when not set.
std::vector<HookCounter> hook_counters(const std::vector<EventReading>& readings,
                                       double transactions);

}  // namespace perfci
