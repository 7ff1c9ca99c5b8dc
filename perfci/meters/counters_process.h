// Hook-free counters (issue 21): each benchmark runs alone with its events
// opened on the child process (enable_on_exec, inherited; see
// perfci/counters/process_counters.h) and read at exit. A value per
// iteration is the whole process's count over the iterations Google
// Benchmark's JSON reports: it includes the process start, the function's
// setup and GB's sizing calls. How much that is, is measured too: the same
// process run for one call of one iteration (--benchmark_min_time at its
// minimum) counts `process_fixed`. Events the machine cannot count say so
// (unsupported, no permission), never zero.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "perfci/meters/benchmark_process.h"
#include "perfci/model/results.h"

namespace perfci {

struct ProcessCountersOptions {
  std::vector<std::string> events;
  std::optional<double> min_time;  // the benchmark's default when unset
  ProcessConditions conditions;
};

// Throws nothing for a failing benchmark: the result carries the error.
BenchmarkResult run_counters_process_mode(const std::string& binary, const std::string& name,
                                          const ProcessCountersOptions& options);

}  // namespace perfci
