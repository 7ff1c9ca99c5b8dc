// A set of perf events opened as groups for the calling thread: hardware
// events under a hardware leader (a few per group, so the kernel can
// schedule each group at once), software events in their own group, which
// keeps working when there is no PMU at all. Every event ends with a status;
// a failure of one never stops the others.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "perfci/counters/event_resolver.h"
#include "perfci/counters/event_status.h"
#include "perfci/counters/perf_backend.h"

namespace perfci {

struct EventReading {
  std::string name;
  EventStatus status = EventStatus::kOk;
  int error = 0;          // errno for unsupported / no-permission
  double value = 0;       // scaled by enabled/running; meaningful if has_value()
  std::uint64_t raw = 0;  // as read
  double scale = 1.0;     // enabled / running; > 1 when multiplexed
  std::uint64_t time_enabled = 0;
  std::uint64_t time_running = 0;
  std::string detail;  // e.g. the libpfm4 message for an unknown name
};

// The reading's status and value from its raw count and the kernel's
// enabled/running times: not counted when it never ran, scaled up (and
// marked multiplexed) when it ran part of the time.
void set_counted(EventReading& r, std::uint64_t raw, std::uint64_t enabled, std::uint64_t running);
// One kUnknown reading per name that could not be resolved, with its detail.
void append_unknown(const std::vector<std::pair<std::string, std::string>>& unknown,
                    std::vector<EventReading>& out);

struct CounterSetOptions {
  // Hardware events per group. Four fit the general-purpose counters of
  // every x86 core without a forced multiplex inside the group.
  std::size_t max_hardware_group = 4;
};

class CounterSet {
 public:
  CounterSet(PerfBackend& backend, std::vector<ResolvedEvent> events,
             CounterSetOptions options = {});
  ~CounterSet();
  CounterSet(const CounterSet&) = delete;
  CounterSet& operator=(const CounterSet&) = delete;

  // Adds an event libpfm4 could not resolve, so it shows up as kUnknown.
  void add_unknown(const std::string& name, const std::string& detail);

  // Opens all groups (disabled). Idempotent.
  void open();
  // Reset and enable every group that opened.
  void start();
  void stop();
  // One reading per event, in the order the events were given (unknown ones last).
  std::vector<EventReading> read() const;

  bool any_open() const;

 private:
  struct Member {
    std::size_t event_index;
    int fd = -1;
    std::uint64_t id = 0;
  };
  struct Group {
    std::vector<std::size_t> events;  // indices into events_
    int leader_fd = -1;
    std::vector<Member> members;
  };

  void open_group(Group& group);

  PerfBackend& backend_;
  std::vector<ResolvedEvent> events_;
  CounterSetOptions options_;
  std::vector<Group> groups_;
  std::vector<EventStatus> open_status_;
  std::vector<int> open_errno_;
  std::vector<std::pair<std::string, std::string>> unknown_;
  bool opened_ = false;
};

// The read format the counter groups use; exposed for the fake backend.
inline constexpr std::uint64_t kGroupReadFormat = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
                                                  PERF_FORMAT_TOTAL_TIME_ENABLED |
                                                  PERF_FORMAT_TOTAL_TIME_RUNNING;

}  // namespace perfci
