// In-process cpu-clock sampling of the calling thread: a software event, so
// it works without a hardware PMU. Instruction pointers are kept as a
// histogram; perfci symbolizes them offline from the ELF files.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace perfci {

class CpuClockSampler {
 public:
  // period_ns: CPU time between samples. Sets error() when the event cannot
  // be opened (the region is then simply not sampled).
  explicit CpuClockSampler(std::uint64_t period_ns);
  ~CpuClockSampler();
  CpuClockSampler(const CpuClockSampler&) = delete;
  CpuClockSampler& operator=(const CpuClockSampler&) = delete;

  void start();
  // Disables sampling and drains the ring buffer into the histogram.
  void stop();

  const std::map<std::uint64_t, std::uint64_t>& histogram() const { return histogram_; }
  std::uint64_t samples() const { return samples_; }
  std::uint64_t lost() const { return lost_; }
  const std::string& error() const { return error_; }

 private:
  void drain();

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
