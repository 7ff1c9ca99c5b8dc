#include "perfci/counters/fake_perf_backend.h"

#include <errno.h>

#include <cstring>

namespace perfci {

int FakePerfBackend::open(const perf_event_attr& attr, int group_fd) {
  Key key{attr.type, attr.config};
  int result;
  if (auto it = failures_.find(key); it != failures_.end()) {
    result = -it->second;
  } else if (group_fd >= 0 && !fds_.count(group_fd)) {
    result = -EBADF;
  } else {
    result = next_fd_++;
    fds_[result] = Fd{key, group_fd >= 0 ? group_fd : result,
                      static_cast<std::uint64_t>(result) * 7, attr.read_format};
  }
  opens_.push_back({attr, group_fd, result});
  return result;
}

int FakePerfBackend::open_process(const perf_event_attr& attr, int pid) {
  int result = open(attr, -1);
  opens_.back().pid = pid;
  return result;
}

int FakePerfBackend::event_id(int fd, std::uint64_t* id) {
  auto it = fds_.find(fd);
  if (it == fds_.end()) return -EBADF;
  *id = it->second.id;
  return 0;
}

int FakePerfBackend::enable(int fd) {
  ++enables_;
  return fds_.count(fd) ? 0 : -EBADF;
}
int FakePerfBackend::disable(int fd) {
  ++disables_;
  return fds_.count(fd) ? 0 : -EBADF;
}
int FakePerfBackend::reset(int fd) { return fds_.count(fd) ? 0 : -EBADF; }

long FakePerfBackend::read(int fd, void* buf, std::size_t size) {
  auto it = fds_.find(fd);
  if (it == fds_.end()) return -EBADF;
  std::vector<std::uint64_t> data{0, 0, 0};
  auto times = times_.find(it->second.key);
  data[1] = times != times_.end() ? times->second.first : 1000;
  data[2] = times != times_.end() ? times->second.second : 1000;
  if (!(it->second.read_format & PERF_FORMAT_GROUP)) {
    // One event: value, time_enabled, time_running.
    auto c = counts_.find(it->second.key);
    data[0] = c != counts_.end() ? c->second : 0;
    if (data.size() * sizeof(std::uint64_t) > size) return -ENOSPC;
    std::memcpy(buf, data.data(), data.size() * sizeof(std::uint64_t));
    return static_cast<long>(data.size() * sizeof(std::uint64_t));
  }
  // Members in opening order, as the kernel lists them.
  for (const auto& [member_fd, member] : fds_) {
    if (member.leader != fd) continue;
    auto c = counts_.find(member.key);
    data.push_back(c != counts_.end() ? c->second : 0);
    data.push_back(member.id);
    ++data[0];
  }
  std::size_t bytes = data.size() * sizeof(std::uint64_t);
  if (bytes > size) return -ENOSPC;
  std::memcpy(buf, data.data(), bytes);
  return static_cast<long>(bytes);
}

void FakePerfBackend::close(int fd) { fds_.erase(fd); }

}  // namespace perfci
