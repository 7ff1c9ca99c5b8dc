#include "perfci/counters/process_counters.h"

#include <errno.h>

namespace perfci {

ProcessCounters::ProcessCounters(PerfBackend& backend, std::vector<ResolvedEvent> events)
    : backend_(backend),
      events_(std::move(events)),
      fds_(events_.size(), -1),
      open_status_(events_.size(), EventStatus::kNotCounted),
      open_errno_(events_.size(), 0) {}

ProcessCounters::~ProcessCounters() {
  for (int fd : fds_)
    if (fd >= 0) backend_.close(fd);
}

void ProcessCounters::add_unknown(const std::string& name, const std::string& detail) {
  unknown_.emplace_back(name, detail);
}

void ProcessCounters::open(int pid) {
  for (std::size_t i = 0; i < events_.size(); ++i) {
    if (fds_[i] >= 0) continue;
    perf_event_attr attr = events_[i].attr;
    attr.disabled = 1;
    attr.enable_on_exec = 1;
    attr.inherit = 1;
    attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    int fd = backend_.open_process(attr, pid);
    if (fd < 0) {
      open_status_[i] = status_from_errno(-fd);
      open_errno_[i] = -fd;
      continue;
    }
    fds_[i] = fd;
    open_status_[i] = EventStatus::kOk;
  }
}

std::vector<EventReading> ProcessCounters::read() const {
  std::vector<EventReading> out(events_.size());
  for (std::size_t i = 0; i < events_.size(); ++i) {
    EventReading& r = out[i];
    r.name = events_[i].name;
    r.status = open_status_[i];
    r.error = open_errno_[i];
    if (fds_[i] < 0) continue;
    // value, time_enabled, time_running
    std::uint64_t buf[3] = {0, 0, 0};
    long n = backend_.read(fds_[i], buf, sizeof buf);
    if (n < static_cast<long>(sizeof buf)) {
      r.status = EventStatus::kNotCounted;
      r.error = n < 0 ? static_cast<int>(-n) : EIO;
      continue;
    }
    set_counted(r, buf[0], buf[1], buf[2]);
  }
  append_unknown(unknown_, out);
  return out;
}

}  // namespace perfci
