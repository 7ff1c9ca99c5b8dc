// Counters of a whole child process, for benchmarks without the hook
// (issue 21): each event is opened on the child's pid while it waits before
// exec (run_subprocess's before_exec), created disabled with enable_on_exec
// so counting starts at the program's first instruction, and inherited by
// every thread it starts. Read once the child exited: the totals of the
// whole process (start, setup, Google Benchmark's sizing calls, the timed
// iterations). Each event stands alone: the kernel cannot read an
// inherited group.
#pragma once

#include <vector>

#include "perfci/counters/counter_set.h"
#include "perfci/counters/event_resolver.h"
#include "perfci/counters/perf_backend.h"

namespace perfci {

class ProcessCounters {
 public:
  ProcessCounters(PerfBackend& backend, std::vector<ResolvedEvent> events);
  ~ProcessCounters();
  ProcessCounters(const ProcessCounters&) = delete;
  ProcessCounters& operator=(const ProcessCounters&) = delete;

  // Adds an event libpfm4 could not resolve, so it shows up as kUnknown.
  void add_unknown(const std::string& name, const std::string& detail);

  // Opens every event on `pid`; one that fails keeps its status (an
  // unsupported hardware event on a VM), the others still count.
  void open(int pid);
  // One reading per event, in the order given (unknown ones last).
  std::vector<EventReading> read() const;

 private:
  PerfBackend& backend_;
  std::vector<ResolvedEvent> events_;
  std::vector<int> fds_;
  std::vector<EventStatus> open_status_;
  std::vector<int> open_errno_;
  std::vector<std::pair<std::string, std::string>> unknown_;
};

}  // namespace perfci
