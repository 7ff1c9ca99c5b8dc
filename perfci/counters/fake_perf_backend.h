// An in-memory PerfBackend for unit tests: events fail to open or count what
// the test says, and groups report the enabled/running times the test sets,
// so grouping, leader failover and multiplex scaling are testable without a
// PMU.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "perfci/counters/perf_backend.h"

namespace perfci {

class FakePerfBackend final : public PerfBackend {
 public:
  using Key = std::pair<std::uint32_t, std::uint64_t>;  // (type, config)

  void fail_open(std::uint32_t type, std::uint64_t config, int err) {
    failures_[{type, config}] = err;
  }
  void set_count(std::uint32_t type, std::uint64_t config, std::uint64_t value) {
    counts_[{type, config}] = value;
  }
  // Times reported by the group led by (type, config).
  void set_times(std::uint32_t type, std::uint64_t config, std::uint64_t enabled,
                 std::uint64_t running) {
    times_[{type, config}] = {enabled, running};
  }

  struct OpenCall {
    perf_event_attr attr;
    int group_fd;
    int result;
    int pid = 0;  // open_process: the process; 0: the calling thread
  };
  const std::vector<OpenCall>& opens() const { return opens_; }
  int enables() const { return enables_; }
  int disables() const { return disables_; }
  int open_fds() const { return static_cast<int>(fds_.size()); }

  int open(const perf_event_attr& attr, int group_fd) override;
  int open_process(const perf_event_attr& attr, int pid) override;
  int event_id(int fd, std::uint64_t* id) override;
  int enable(int fd) override;
  int disable(int fd) override;
  int reset(int fd) override;
  long read(int fd, void* buf, std::size_t size) override;
  void close(int fd) override;

 private:
  struct Fd {
    Key key;
    int leader;  // own fd for a leader
    std::uint64_t id;
    std::uint64_t read_format = 0;
  };
  std::map<Key, int> failures_;
  std::map<Key, std::uint64_t> counts_;
  std::map<Key, std::pair<std::uint64_t, std::uint64_t>> times_;
  std::map<int, Fd> fds_;
  std::vector<OpenCall> opens_;
  int next_fd_ = 100;
  int enables_ = 0;
  int disables_ = 0;
};

}  // namespace perfci
