// A failure inside a workload (bad SQL, an engine error, a result mismatch).
// Benchmarks catch it and report it with SkipWithError, so a broken
// workload is a visible error in the output, never a silent number.
#pragma once

#include <stdexcept>
#include <string>

namespace bench {

class BenchError : public std::runtime_error {
 public:
  explicit BenchError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace bench
