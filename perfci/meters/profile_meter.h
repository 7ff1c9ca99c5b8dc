// Where a benchmark spends its time, by symbol: the hook samples its region
// with the software cpu-clock event (no PMU needed) and reports instruction
// pointers plus the process's memory map; perfci symbolizes them offline
// from the ELF files (symbol table + DWARF inline info, demangled). The
// deterministic alternative derives the same shape from callgrind's
// per-function self costs.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "perfci/meters/benchmark_process.h"
#include "perfci/model/results.h"

namespace perfci {

struct ProfileOptions {
  std::uint64_t period_ns = 250000;  // 4 kHz of CPU time
  std::optional<double> min_time;
  std::size_t top_symbols = 30;
  ProcessConditions conditions;
};

// Runs the benchmark alone with sampling on. The result carries the error
// when the run fails or no sample was taken.
BenchmarkResult run_profile_meter(const std::string& binary, const std::string& name,
                                  const ProfileOptions& options);

// The "profile" object of a hook report (see perfci/bench/hook_state.cc),
// symbolized. Throws perfci::Error on a malformed report.
ProfileResult symbolize_hook_profile(const nlohmann::json& profile, std::size_t top_symbols);

// Shares of callgrind self Ir per function.
ProfileResult profile_from_callgrind(const CallgrindResult& callgrind, std::size_t top_symbols);

}  // namespace perfci
