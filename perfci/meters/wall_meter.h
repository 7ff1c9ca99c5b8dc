// Wall time (Google Benchmark's own timing) and, when events are given, the
// hook's perf counters from the same process. One process runs all selected
// benchmarks; if it dies, each benchmark is re-run alone so that only the
// culprit is marked failed.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "perfci/meters/benchmark_process.h"
#include "perfci/model/results.h"

namespace perfci {

struct WallOptions {
  std::vector<std::string> events;  // empty: no counters
  std::optional<double> min_time;   // seconds; the binary's default when unset
  ProcessConditions conditions;
};

// One result per name, in order. A benchmark that crashes, times out or
// reports an error has `error` set. `context`, when given, receives the
// binary's Google Benchmark context (library_build_type, ...) from the first
// run that wrote one.
std::vector<BenchmarkResult> run_wall_meter(const std::string& binary,
                                            const std::vector<std::string>& names,
                                            const WallOptions& options,
                                            nlohmann::json* context = nullptr);

}  // namespace perfci
