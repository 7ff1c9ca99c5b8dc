#include "perfci/env/event_probe.h"

#include <errno.h>

#include <cstring>

#include "perfci/counters/event_resolver.h"
#include "perfci/counters/pmu_info.h"

namespace perfci {
namespace {

std::string errno_name(int err) {
  switch (err) {
    case ENOENT:
      return "ENOENT";
    case EOPNOTSUPP:
      return "EOPNOTSUPP";
    case ENODEV:
      return "ENODEV";
    case EINVAL:
      return "EINVAL";
    case EACCES:
      return "EACCES";
    case EPERM:
      return "EPERM";
    default:
      return "errno " + std::to_string(err);
  }
}

std::string explain(const EventProbe& p) {
  const EventReading& r = p.reading;
  switch (r.status) {
    case EventStatus::kOk:
      return "";
    case EventStatus::kMultiplexed:
      return "counted part of the time (scaled)";
    case EventStatus::kNotCounted:
      return "opened but never scheduled";
    case EventStatus::kUnknown:
      return r.detail;
    case EventStatus::kUnsupported: {
      std::string s = errno_name(r.error) + ": " + std::strerror(r.error);
      if (!p.software && !hardware_pmu_present())
        s += " (no hardware PMU: /sys/bus/event_source/devices/cpu is absent)";
      return s;
    }
    case EventStatus::kNoPermission: {
      auto paranoid = perf_event_paranoid();
      return errno_name(r.error) + ": " + std::strerror(r.error) + " (perf_event_paranoid = " +
             (paranoid ? std::to_string(*paranoid) : std::string("unknown")) + ")";
    }
  }
  return "";
}

}  // namespace

std::vector<EventProbe> probe_events(const std::vector<std::string>& names, PerfBackend& backend) {
  std::vector<EventProbe> out;
  for (const auto& name : names) {
    EventProbe p;
    p.name = name;
    std::string error;
    auto ev = try_resolve_event(name, &error);
    if (!ev) {
      p.reading.name = name;
      p.reading.status = EventStatus::kUnknown;
      p.reading.detail = error;
    } else {
      p.canonical = ev->canonical;
      p.software = ev->is_software();
      CounterSet set(backend, {*ev});
      set.start();
      volatile unsigned sink = 0;
      for (unsigned i = 0; i < 100000; ++i) sink = sink + i;
      set.stop();
      p.reading = set.read().at(0);
    }
    p.explanation = explain(p);
    out.push_back(std::move(p));
  }
  return out;
}

void to_json(nlohmann::json& j, const EventProbe& p) {
  j = nlohmann::json{{"event", p.name},
                     {"status", std::string(to_string(p.reading.status))},
                     {"software", p.software}};
  if (!p.canonical.empty()) j["encoding"] = p.canonical;
  if (p.reading.error != 0) j["errno"] = p.reading.error;
  if (!p.explanation.empty()) j["detail"] = p.explanation;
}

}  // namespace perfci
