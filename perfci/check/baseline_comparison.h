// The heart of `perfci check`: one run of a suite against its stored
// baseline, turned into a report (mode "check", side A the baseline, side B
// this run) with a verdict per benchmark and metric, the oracle gap of both,
// the contracts, the accepted regressions, and the exit code:
//   0  pass: at least one benchmark metric was gated, nothing gated
//      regressed, every contract holds;
//   1  a gated metric or oracle gap regressed beyond its threshold (and no
//      "accepted" entry covers it), or a contract is broken;
//   2  a benchmark failed, or a contract could not be checked;
//   3  not gated: nothing failed, but no benchmark metric could be gated
//      (every kind information only on this runner), so nothing was proven.
// When the stored baseline cannot gate callgrind (another toolchain or
// valgrind view) and a reference run is given, side A's callgrind values
// come from that reference, measured here, and callgrind is gated on it.
// Every metric is judged by threshold alone: the baseline is one run, so
// there are no pairs to test; deterministic Ir needs none, and wall time is
// gated only where perfci.json's thresholds say one run is enough.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "perfci/analysis/oracle_gap.h"
#include "perfci/baseline/baseline.h"
#include "perfci/check/accepted.h"
#include "perfci/check/check_config.h"
#include "perfci/model/report.h"

namespace perfci::check {

struct CheckInputs {
  baseline::Baseline baseline;
  std::string baseline_file;
  baseline::Profile profile;         // of this run
  baseline::SuiteSettings settings;  // of this run
  RunResults current;
  std::optional<contracts::ContractReport> contracts;  // this run's binary; none: none declared
  std::string commit;                                  // HEAD, empty outside git
  bool dirty = false;
  std::vector<ActiveAccepted> accepted;
  std::vector<analysis::PrefixPair> oracle_pairs;  // perfci.json's "pairs"; none: no gap
  // The in-runner reference (fallback "compare"): its callgrind results
  // replace the baseline's, or, with an error, say why there are none.
  std::optional<perfci::CheckReference> reference;
  RunResults reference_results;
  nlohmann::json machine = nlohmann::json::object();
  nlohmann::json settings_json = nlohmann::json::object();
  double elapsed_seconds = 0;
};

perfci::Report compare_with_baseline(CheckInputs inputs, const CheckConfig& config);

// What keeps a run from passing whatever the numbers say: a failed benchmark
// or a contract that could not be checked (errors, exit 2), a broken contract
// (findings, exit 1). `perfci check` reports them; `perfci baseline update`
// refuses to store such a run, so a baseline is always a state check passes.
struct RunProblems {
  std::vector<std::string> errors;
  std::vector<std::string> findings;
  int exit_code() const { return !errors.empty() ? 2 : !findings.empty() ? 1 : 0; }
};
RunProblems contract_problems(const std::optional<contracts::ContractReport>& contracts);
std::string failed_benchmark_error(const BenchmarkResult& failed);

// The verdict of one value against the baseline's by threshold alone:
// deterministic metrics through stats::decide, the others with a reason
// that says it is one run against one run.
stats::Decision decide_by_threshold(const stats::Comparison& comparison,
                                    const stats::MetricPolicy& policy);

}  // namespace perfci::check
