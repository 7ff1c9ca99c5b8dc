// Deterministic instruction counts: each benchmark runs alone under
// valgrind --tool=callgrind with instrumentation and collection off except
// inside the hook's region, a fixed number of one-iteration repetitions,
// ASLR off and a fixed environment. Ir per iteration and per-function costs
// come from callgrind's output file; the iteration count comes from the hook
// (PERFCI_HOOK_OUT), so hidden warm-up runs cannot skew the division.
#pragma once

#include <string>

#include "perfci/meters/benchmark_process.h"
#include "perfci/model/results.h"

namespace perfci {

struct CallgrindOptions {
  int iterations = 10;
  std::string valgrind = "valgrind";
  std::size_t top_functions = 50;
  ProcessConditions conditions;
};

// Throws nothing for a failing benchmark: the result carries the error.
BenchmarkResult run_callgrind_meter(const std::string& binary, const std::string& name,
                                    const CallgrindOptions& options);

}  // namespace perfci
