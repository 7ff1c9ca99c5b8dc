#include <errno.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "perfci/counters/perf_backend.h"

namespace perfci {
namespace {

class SyscallPerfBackend final : public PerfBackend {
 public:
  int open(const perf_event_attr& attr, int group_fd) override {
    perf_event_attr copy = attr;
    long fd = ::syscall(SYS_perf_event_open, &copy, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
    return fd < 0 ? -errno : static_cast<int>(fd);
  }
  int open_process(const perf_event_attr& attr, int pid) override {
    perf_event_attr copy = attr;
    long fd = ::syscall(SYS_perf_event_open, &copy, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
    return fd < 0 ? -errno : static_cast<int>(fd);
  }
  int event_id(int fd, std::uint64_t* id) override {
    return ::ioctl(fd, PERF_EVENT_IOC_ID, id) == 0 ? 0 : -errno;
  }
  int enable(int fd) override { return group_ioctl(fd, PERF_EVENT_IOC_ENABLE); }
  int disable(int fd) override { return group_ioctl(fd, PERF_EVENT_IOC_DISABLE); }
  int reset(int fd) override { return group_ioctl(fd, PERF_EVENT_IOC_RESET); }
  long read(int fd, void* buf, std::size_t size) override {
    ssize_t n = ::read(fd, buf, size);
    return n < 0 ? -errno : static_cast<long>(n);
  }
  void close(int fd) override { ::close(fd); }

 private:
  static int group_ioctl(int fd, unsigned long request) {
    return ::ioctl(fd, request, PERF_IOC_FLAG_GROUP) == 0 ? 0 : -errno;
  }
};

}  // namespace

PerfBackend& syscall_perf_backend() {
  static SyscallPerfBackend backend;
  return backend;
}

}  // namespace perfci
