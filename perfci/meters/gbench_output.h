// Google Benchmark's JSON output (--benchmark_out_format=json), reduced to
// what the wall and counter meters need: per benchmark the iterations, the
// times per iteration in ns, an error if it reported one, and its user
// counters (where the hook's perf.* counters arrive).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "perfci/model/results.h"

namespace perfci {

struct GbenchRun {
  std::string name;
  std::int64_t iterations = 0;
  double real_time_ns = 0;
  double cpu_time_ns = 0;
  std::string error;
  std::map<std::string, double> counters;  // every numeric field that is not a standard one
};

// Aggregate rows (mean/median/stddev) are skipped; repetitions of one
// benchmark are merged, weighted by iterations. Throws perfci::Error.
std::vector<GbenchRun> parse_gbench_json(const std::string& text, const std::string& origin);

// Counter results for the requested events from the hook's perf.* counters
// (see perfci/bench.h). Empty when the benchmark reported no perf.* counter
// at all, i.e. it does not use the hook.
std::vector<CounterResult> counters_from_gbench(const GbenchRun& run,
                                                const std::vector<std::string>& events);

// Transactions per iteration, when the hook had a divisor.
std::optional<double> transactions_from_gbench(const GbenchRun& run);

}  // namespace perfci
