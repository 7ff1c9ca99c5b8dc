// The seam between perfci's counter logic and the kernel. The real backend
// makes perf_event_open / ioctl / read system calls; the fake one (in
// fake_perf_backend.h) lets unit tests drive grouping, failures and
// multiplexing on machines without a hardware PMU.
#pragma once

#include <linux/perf_event.h>

#include <cstddef>
#include <cstdint>

namespace perfci {

class PerfBackend {
 public:
  virtual ~PerfBackend() = default;
  // A file descriptor, or -errno. Counts the calling thread on any CPU.
  virtual int open(const perf_event_attr& attr, int group_fd) = 0;
  // A file descriptor, or -errno: an event of its own (no group) on process
  // `pid`, on any CPU.
  virtual int open_process(const perf_event_attr& attr, int pid) = 0;
  // The kernel's id of the event, used to match PERF_FORMAT_ID records.
  virtual int event_id(int fd, std::uint64_t* id) = 0;
  // Group-wide enable / disable / reset (PERF_IOC_FLAG_GROUP); 0 or -errno.
  virtual int enable(int leader_fd) = 0;
  virtual int disable(int leader_fd) = 0;
  virtual int reset(int leader_fd) = 0;
  // Bytes read into buf, or -errno.
  virtual long read(int fd, void* buf, std::size_t size) = 0;
  virtual void close(int fd) = 0;
};

// The process-wide system-call backend.
PerfBackend& syscall_perf_backend();

}  // namespace perfci
