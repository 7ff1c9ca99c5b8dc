// Measures one benchmark binary once with the chosen meters and returns the
// results record (perfci/model/results.h). `perfci run` is this plus a
// config; the A/B runner calls it once per trial.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "perfci/meters/benchmark_process.h"
#include "perfci/model/results.h"

namespace perfci {

struct MeasureOptions {
  std::vector<std::string> meters{"wall"};  // wall, counters, callgrind, profile
  std::vector<std::string> events;          // for the counters meter
  std::string filter = ".*";
  // The benchmarks to run when the caller already knows them (an A/B trial
  // runs the names it listed once): the binary is not listed again and
  // `filter` is not used.
  std::vector<std::string> names;
  std::optional<double> min_time;
  int callgrind_iterations = 10;
  std::string callgrind_filter = ".*";  // the callgrind meter runs only these
  std::string callgrind_mode = "auto";  // auto, hook, process (callgrind_meter.h)
  bool callgrind_cache_sim = false;     // CallgrindOptions::cache_sim
  std::string valgrind = "valgrind";
  std::string profile_source = "cpu-clock";  // or "callgrind"
  std::uint64_t profile_period_ns = 250000;
  ProcessConditions conditions;
  // Progress lines ("callgrind 2/5 engine/point_lookup"); none when unset.
  std::function<void(const std::string&)> progress;
};

// Throws perfci::Error for bad input (missing binary, unknown meter or
// event, a filter that selects nothing); a benchmark that fails is recorded
// with its error and the others go on. A SIGINT or SIGTERM while measuring
// returns what was measured with `incomplete` set (while listing the
// benchmarks it throws perfci::Interrupted: nothing was measured yet).
RunResults measure_binary(const std::string& binary, const MeasureOptions& options);

}  // namespace perfci
