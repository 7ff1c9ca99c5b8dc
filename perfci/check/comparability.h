// What a run may be compared with its baseline on, decided before any
// number is looked at:
// - the suite settings that change the numbers themselves (the binary's
//   arguments, callgrind's iteration count) must be the baseline's, else
//   nothing is comparable and check stops (exit 2) asking for a new baseline;
// - each metric kind is gated or information only: callgrind Ir when the
//   toolchain matches (it is deterministic), wall time and counters when the
//   toolchain and the machine match, and never a kind perfci.json lists in
//   check.information_only.
#pragma once

#include <string>
#include <vector>

#include "perfci/baseline/baseline.h"
#include "perfci/baseline/profile.h"
#include "perfci/model/report.h"

namespace perfci::check {

// One message per setting that differs; empty when the baseline fits.
std::vector<std::string> settings_mismatches(const baseline::SuiteSettings& baseline,
                                             const baseline::SuiteSettings& current);

// One gate per metric kind (callgrind, wall, counters), in that order.
std::vector<perfci::CheckGate> decide_gates(const baseline::ProfileComparison& profiles,
                                            const std::vector<std::string>& information_only);

// The metric kinds (callgrind, counters) that `baseline` and `current`
// measured in different modes (the hook's timed region, or hook-free on the
// whole process: results.h), with why for each: a benchmark that lost or
// gained its hook counts something else, so those kinds are not compared.
struct ModeMismatch {
  std::string kind;
  std::string why;
};
std::vector<ModeMismatch> mode_mismatches(const BenchmarkResult& baseline,
                                          const BenchmarkResult& current);

// "compiler_version 12.2.0 -> 14.0.6, hostname a -> b" (the first few).
std::string describe_differences(const std::vector<baseline::ProfileDifference>& differences,
                                 std::size_t at_most = 3);

}  // namespace perfci::check
