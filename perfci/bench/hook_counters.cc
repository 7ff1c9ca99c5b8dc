#include "perfci/bench/hook_counters.h"

#include <algorithm>

namespace perfci {

void accumulate_reading(EventReading& total, const EventReading& region) {
  // A failure in any region makes the sum meaningless: the status sticks.
  if (!has_value(region.status)) {
    if (has_value(total.status)) {
      total.status = region.status;
      total.error = region.error;
      total.detail = region.detail;
    }
    return;
  }
  if (!has_value(total.status)) return;
  total.value += region.value;
  total.raw += region.raw;
  total.time_enabled += region.time_enabled;
  total.time_running += region.time_running;
  total.scale = std::max(total.scale, region.scale);
  if (region.status == EventStatus::kMultiplexed) total.status = EventStatus::kMultiplexed;
}

std::vector<HookCounter> hook_counters(const std::vector<EventReading>& readings,
                                       double transactions) {
  std::vector<HookCounter> out;
  for (const auto& r : readings) {
    std::string base = "perf." + r.name;
    switch (r.status) {
      case EventStatus::kOk:
      case EventStatus::kMultiplexed:
        out.push_back({base, r.value, true});
        if (transactions > 0) out.push_back({base + "/txn", r.value / transactions, false});
        if (r.status == EventStatus::kMultiplexed) out.push_back({base + ".scale", r.scale, false});
        break;
      case EventStatus::kUnsupported:
        out.push_back({base + ".unsupported", static_cast<double>(r.error), false});
        break;
      case EventStatus::kNoPermission:
        out.push_back({base + ".no_permission", static_cast<double>(r.error), false});
        break;
      case EventStatus::kNotCounted:
        out.push_back({base + ".not_counted", 1, false});
        break;
      case EventStatus::kUnknown:
        out.push_back({base + ".unknown", 1, false});
        break;
    }
  }
  if (transactions > 0) out.push_back({"perf.transactions", transactions, true});
  return out;
}

}  // namespace perfci
