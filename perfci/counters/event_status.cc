#include "perfci/counters/event_status.h"

#include <errno.h>

namespace perfci {

std::string_view to_string(EventStatus status) {
  switch (status) {
    case EventStatus::kOk:
      return "ok";
    case EventStatus::kMultiplexed:
      return "multiplexed";
    case EventStatus::kNotCounted:
      return "not-counted";
    case EventStatus::kUnsupported:
      return "unsupported";
    case EventStatus::kNoPermission:
      return "no-permission";
    case EventStatus::kUnknown:
      return "unknown";
  }
  return "unknown";
}

std::optional<EventStatus> event_status_from_string(std::string_view text) {
  for (auto s : {EventStatus::kOk, EventStatus::kMultiplexed, EventStatus::kNotCounted,
                 EventStatus::kUnsupported, EventStatus::kNoPermission, EventStatus::kUnknown})
    if (to_string(s) == text) return s;
  return std::nullopt;
}

EventStatus status_from_errno(int err) {
  return (err == EACCES || err == EPERM) ? EventStatus::kNoPermission : EventStatus::kUnsupported;
}

}  // namespace perfci
