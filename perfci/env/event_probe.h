// Which of the configured events this machine can count: each is resolved
// by libpfm4 and opened alone for this process, read, and reported with its
// status (ok, unsupported with errno, no-permission, unknown, ...).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "perfci/counters/counter_set.h"
#include "perfci/counters/perf_backend.h"

namespace perfci {

struct EventProbe {
  std::string name;
  std::string canonical;  // libpfm4's encoding, empty when unknown
  bool software = false;
  EventReading reading;
  std::string explanation;  // "ENOENT: no hardware PMU", ...
};

std::vector<EventProbe> probe_events(const std::vector<std::string>& names,
                                     PerfBackend& backend = syscall_perf_backend());

void to_json(nlohmann::json& j, const EventProbe& p);

}  // namespace perfci
