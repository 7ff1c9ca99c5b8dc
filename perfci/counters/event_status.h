// What became of one requested perf event on this machine. Every meter,
// results file and report uses these names, so a counter that could not be
// measured is always visible as such and never mistaken for a zero.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace perfci {

enum class EventStatus {
  kOk,            // counted the whole time
  kMultiplexed,   // counted part of the time; value scaled by enabled/running
  kNotCounted,    // opened but never scheduled (running time 0)
  kUnsupported,   // the kernel refused it: ENOENT / EOPNOTSUPP / ENODEV / EINVAL
  kNoPermission,  // EACCES / EPERM, see perf_event_paranoid
  kUnknown,       // libpfm4 does not know the name
};

std::string_view to_string(EventStatus status);
std::optional<EventStatus> event_status_from_string(std::string_view text);

// ok and multiplexed carry a value; everything else carries none.
inline bool has_value(EventStatus s) {
  return s == EventStatus::kOk || s == EventStatus::kMultiplexed;
}

// Maps an errno from perf_event_open to a status.
EventStatus status_from_errno(int err);

}  // namespace perfci
