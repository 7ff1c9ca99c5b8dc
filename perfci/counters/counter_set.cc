#include "perfci/counters/counter_set.h"

#include <errno.h>

#include <algorithm>

namespace perfci {

CounterSet::CounterSet(PerfBackend& backend, std::vector<ResolvedEvent> events,
                       CounterSetOptions options)
    : backend_(backend), events_(std::move(events)), options_(options) {
  open_status_.assign(events_.size(), EventStatus::kUnsupported);
  open_errno_.assign(events_.size(), 0);
  Group software;
  Group hardware;
  for (std::size_t i = 0; i < events_.size(); ++i) {
    Group& g = events_[i].is_software() ? software : hardware;
    g.events.push_back(i);
    if (&g == &hardware &&
        hardware.events.size() == std::max<std::size_t>(1, options_.max_hardware_group)) {
      groups_.push_back(std::move(hardware));
      hardware = Group{};
    }
  }
  if (!hardware.events.empty()) groups_.push_back(std::move(hardware));
  if (!software.events.empty()) groups_.push_back(std::move(software));
}

CounterSet::~CounterSet() {
  for (auto& g : groups_)
    for (auto& m : g.members)
      if (m.fd >= 0) backend_.close(m.fd);
}

void CounterSet::add_unknown(const std::string& name, const std::string& detail) {
  unknown_.emplace_back(name, detail);
}

void CounterSet::open_group(Group& group) {
  // The first event that opens leads; an unsupported leader (a hardware
  // event on a VM) must not take the rest of its group down with it.
  for (std::size_t idx : group.events) {
    perf_event_attr attr = events_[idx].attr;
    attr.disabled = group.leader_fd < 0 ? 1 : 0;
    attr.read_format = kGroupReadFormat;
    attr.inherit = 0;
    int fd = backend_.open(attr, group.leader_fd);
    if (fd < 0) {
      open_status_[idx] = status_from_errno(-fd);
      open_errno_[idx] = -fd;
      continue;
    }
    Member m{idx, fd, 0};
    if (int rc = backend_.event_id(fd, &m.id); rc < 0) {
      backend_.close(fd);
      open_status_[idx] = EventStatus::kUnsupported;
      open_errno_[idx] = -rc;
      continue;
    }
    if (group.leader_fd < 0) group.leader_fd = fd;
    open_status_[idx] = EventStatus::kOk;
    group.members.push_back(m);
  }
}

void CounterSet::open() {
  if (opened_) return;
  opened_ = true;
  for (auto& g : groups_) open_group(g);
}

bool CounterSet::any_open() const {
  return std::any_of(groups_.begin(), groups_.end(),
                     [](const Group& g) { return g.leader_fd >= 0; });
}

void CounterSet::start() {
  open();
  for (auto& g : groups_) {
    if (g.leader_fd < 0) continue;
    backend_.reset(g.leader_fd);
    backend_.enable(g.leader_fd);
  }
}

void CounterSet::stop() {
  for (auto& g : groups_)
    if (g.leader_fd >= 0) backend_.disable(g.leader_fd);
}

std::vector<EventReading> CounterSet::read() const {
  std::vector<EventReading> out(events_.size());
  for (std::size_t i = 0; i < events_.size(); ++i) {
    out[i].name = events_[i].name;
    out[i].status = open_status_[i];
    out[i].error = open_errno_[i];
  }
  for (const auto& g : groups_) {
    if (g.leader_fd < 0) continue;
    // nr, time_enabled, time_running, then {value, id} per member.
    std::vector<std::uint64_t> buf(3 + 2 * g.members.size());
    long n = backend_.read(g.leader_fd, buf.data(), buf.size() * sizeof(std::uint64_t));
    if (n < static_cast<long>(3 * sizeof(std::uint64_t))) {
      for (const auto& m : g.members) {
        out[m.event_index].status = EventStatus::kNotCounted;
        out[m.event_index].error = n < 0 ? static_cast<int>(-n) : EIO;
      }
      continue;
    }
    std::uint64_t nr = std::min<std::uint64_t>(buf[0], g.members.size());
    std::uint64_t enabled = buf[1];
    std::uint64_t running = buf[2];
    for (const auto& m : g.members) {
      EventReading& r = out[m.event_index];
      r.time_enabled = enabled;
      r.time_running = running;
      bool found = false;
      for (std::uint64_t k = 0; k < nr && 3 + 2 * k + 1 < buf.size(); ++k) {
        if (buf[3 + 2 * k + 1] != m.id) continue;
        set_counted(r, buf[3 + 2 * k], enabled, running);
        found = true;
        break;
      }
      if (!found) r.status = EventStatus::kNotCounted;
    }
  }
  append_unknown(unknown_, out);
  return out;
}

void set_counted(EventReading& r, std::uint64_t raw, std::uint64_t enabled, std::uint64_t running) {
  r.raw = raw;
  r.time_enabled = enabled;
  r.time_running = running;
  if (running == 0) {
    r.status = EventStatus::kNotCounted;
  } else if (running < enabled) {
    r.scale = static_cast<double>(enabled) / static_cast<double>(running);
    r.value = static_cast<double>(raw) * r.scale;
    r.status = EventStatus::kMultiplexed;
  } else {
    r.value = static_cast<double>(raw);
    r.status = EventStatus::kOk;
  }
}

void append_unknown(const std::vector<std::pair<std::string, std::string>>& unknown,
                    std::vector<EventReading>& out) {
  for (const auto& [name, detail] : unknown) {
    EventReading r;
    r.name = name;
    r.status = EventStatus::kUnknown;
    r.detail = detail;
    out.push_back(r);
  }
}

}  // namespace perfci
