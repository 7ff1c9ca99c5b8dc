#include "perfci/counters/cpu_clock_ring.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>
#include <vector>

namespace perfci {
namespace {

constexpr std::size_t kDataPages = 64;

}  // namespace

CpuClockRing::CpuClockRing(std::uint64_t period_ns) : period_ns_(period_ns) {
  page_ = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
}

CpuClockRing::~CpuClockRing() {
  if (ring_) ::munmap(ring_, ring_bytes_);
  if (fd_ >= 0) ::close(fd_);
}

void CpuClockRing::open(int pid) {
  if (fd_ >= 0) return;
  perf_event_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_CPU_CLOCK;
  attr.sample_period = period_ns_;
  attr.sample_type = PERF_SAMPLE_IP;
  attr.disabled = 1;
  attr.enable_on_exec = pid != 0 ? 1 : 0;
  // Samples that interrupt the kernel are dropped: the profile is of the
  // benchmark's own code, and paranoid=2 allows exactly that.
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  long fd = ::syscall(SYS_perf_event_open, &attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0) {
    error_ = std::string(pid != 0 ? "cpu-clock sampling of the benchmark process unavailable: "
                                  : "cpu-clock sampling unavailable: ") +
             std::strerror(errno);
    return;
  }
  fd_ = static_cast<int>(fd);
  ring_bytes_ = (1 + kDataPages) * page_;
  ring_ = ::mmap(nullptr, ring_bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
  if (ring_ == MAP_FAILED) {
    error_ = std::string("cpu-clock sampling: mmap failed: ") + std::strerror(errno);
    ring_ = nullptr;
    ::close(fd_);
    fd_ = -1;
  }
}

void CpuClockRing::enable() {
  if (fd_ >= 0) ::ioctl(fd_, PERF_EVENT_IOC_ENABLE, 0);
}

void CpuClockRing::disable() {
  if (fd_ < 0) return;
  ::ioctl(fd_, PERF_EVENT_IOC_DISABLE, 0);
  drain();
}

void CpuClockRing::drain() {
  if (!ring_) return;
  auto* meta = static_cast<perf_event_mmap_page*>(ring_);
  auto* data = static_cast<const unsigned char*>(ring_) + page_;
  const std::uint64_t size = kDataPages * page_;
  std::uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
  std::uint64_t tail = meta->data_tail;
  std::vector<unsigned char> record;
  while (tail + sizeof(perf_event_header) <= head) {
    perf_event_header header;
    for (std::size_t i = 0; i < sizeof header; ++i)
      reinterpret_cast<unsigned char*>(&header)[i] = data[(tail + i) % size];
    if (header.size < sizeof header || tail + header.size > head) break;
    record.resize(header.size);
    for (std::size_t i = 0; i < header.size; ++i) record[i] = data[(tail + i) % size];
    if (header.type == PERF_RECORD_SAMPLE && header.size >= sizeof header + 8) {
      std::uint64_t ip;
      std::memcpy(&ip, record.data() + sizeof header, 8);
      ++histogram_[ip];
      ++samples_;
    } else if (header.type == PERF_RECORD_LOST && header.size >= sizeof header + 16) {
      std::uint64_t lost;
      std::memcpy(&lost, record.data() + sizeof header + 8, 8);
      lost_ += lost;
    }
    tail += header.size;
  }
  __atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
}

}  // namespace perfci
