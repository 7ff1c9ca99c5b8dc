// A cpu-clock sampling event and its ring buffer: a software event, so it
// works without a hardware PMU. Instruction pointers are kept as a
// histogram; perfci symbolizes them offline from the ELF files. Two users:
//   - the hook (perfci/bench/hook_state.h) samples the calling thread
//     (pid 0) between enable() and disable(), one timed region at a time;
//   - hook-free profiles (perfci/meters/profile_process.h) sample another
//     process from outside: the event is opened on the child's pid while it
//     waits before exec and stays off until exec (enable_on_exec), so the
//     samples are of the benchmark program alone; the owner drains the ring
//     while the child runs. Google Benchmark runs a single-threaded
//     benchmark on the main thread, the one sampled (no inherit: an
//     inherited event cannot share the ring).
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace perfci {

class CpuClockRing {
 public:
  // period_ns: CPU time between samples.
  explicit CpuClockRing(std::uint64_t period_ns);
  ~CpuClockRing();
  CpuClockRing(const CpuClockRing&) = delete;
  CpuClockRing& operator=(const CpuClockRing&) = delete;

  // pid 0: the calling thread, off until enable(); else that process, on
  // from its exec. Sets error() when the event or its buffer cannot be had
  // (nothing is then sampled). A second call does nothing.
  void open(int pid);
  void enable();
  // Off, then drain().
  void disable();
  // Moves what the kernel wrote into the histogram; call often enough that
  // the ring (64 pages: minutes of samples at 1 kHz) never fills, and once
  // more when sampling is over.
  void drain();

  const std::map<std::uint64_t, std::uint64_t>& histogram() const { return histogram_; }
  std::uint64_t samples() const { return samples_; }
  std::uint64_t lost() const { return lost_; }
  const std::string& error() const { return error_; }

 private:
  std::uint64_t period_ns_;
  int fd_ = -1;
  void* ring_ = nullptr;
  std::size_t ring_bytes_ = 0;
  std::size_t page_ = 0;
  std::map<std::uint64_t, std::uint64_t> histogram_;
  std::uint64_t samples_ = 0;
  std::uint64_t lost_ = 0;
  std::string error_;
};

}  // namespace perfci
