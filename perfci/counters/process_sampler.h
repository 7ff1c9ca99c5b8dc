// cpu-clock sampling of another process, from outside it (hook-free
// profiles, issue 21): the event is opened on the child's pid while it
// waits before exec, disabled until exec (enable_on_exec), so the samples
// are of the benchmark program alone. Like the hook's sampler
// (perfci/bench/sampler.h) it keeps instruction pointers as a histogram;
// unlike it, the owner drains the ring buffer while the child runs.
// Google Benchmark runs a single-threaded benchmark on the main thread, the
// one sampled (no inherit: an inherited event cannot share the ring).
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace perfci {

class ProcessSampler {
 public:
  explicit ProcessSampler(std::uint64_t period_ns);
  ~ProcessSampler();
  ProcessSampler(const ProcessSampler&) = delete;
  ProcessSampler& operator=(const ProcessSampler&) = delete;

  // Sets error() when the event or its buffer cannot be had.
  void open(int pid);
  // Moves what the kernel wrote into the histogram; call often enough that
  // the ring (256 KiB) never fills, and once more after the child exited.
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
