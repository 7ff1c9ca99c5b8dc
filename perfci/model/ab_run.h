// What an A/B (or A/A) run measured and decided, before it becomes a report:
// per benchmark and metric every paired sample, the statistics, the first
// verdict, the confirmation re-run of a suspect and the final verdict.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "perfci/model/results.h"
#include "perfci/model/shard.h"
#include "perfci/stats/comparison.h"
#include "perfci/stats/noise_summary.h"
#include "perfci/stats/outcome.h"
#include "perfci/stats/verdict.h"

namespace perfci {

// A suspect (regressed / improved) measured again with fresh pairs; the
// first verdict stands only when this one agrees.
struct Confirmation {
  std::vector<double> a;
  std::vector<double> b;
  stats::Comparison comparison;
  std::optional<double> q_value;
  stats::Decision decision;
};

struct MetricRun {
  std::string kind;    // wall, counters, callgrind
  std::string metric;  // real_time_ns, an event name, ir
  stats::MetricPolicy policy;
  std::vector<double> a;  // a[i], b[i]: pair i (one value per side when deterministic)
  std::vector<double> b;
  stats::Comparison comparison;
  std::optional<double> q_value;
  stats::Decision first_decision;
  std::optional<Confirmation> confirmation;
  stats::Decision decision;                  // the final verdict and its reason
  std::optional<stats::NoiseSummary> noise;  // A/A runs: the machine's noise
  // kAll in A/B runs, where every metric counts; in `perfci check`, gated
  // (its verdict decides the exit code), information (shown, not gated: the
  // baseline's toolchain or machine differs, or perfci.json says so) or
  // accepted (a regression perfci.json's "accepted" list accepts).
  stats::Gate gate = stats::Gate::kAll;
  std::string gate_reason;  // why information / accepted, for the report
};

struct BenchmarkRun {
  std::string name;
  std::string error;  // non-empty: failed (which trial, which side, stderr tail)
  std::vector<MetricRun> metrics;
  // One run per side of the deterministic / expensive meters (callgrind,
  // profile): the material of the explanation.
  std::optional<BenchmarkResult> detail_a;
  std::optional<BenchmarkResult> detail_b;

  bool failed() const { return !error.empty(); }
};

struct AbRun {
  bool aa = false;
  std::uint64_t seed = 0;
  int warmup = 0;
  int pairs = 0;               // measured pairs (confirmation not included)
  int confirmation_pairs = 0;  // pairs re-run for suspects
  std::string order;           // "AB", "BA", ... per pair, confirmation included
  double elapsed_seconds = 0;
  nlohmann::json environment = nlohmann::json::object();  // from A's first trial
  // Each side's Google Benchmark context (library_build_type, ...) from its
  // first trial: the provenance warnings read it.
  nlohmann::json context_a = nlohmann::json::object();
  nlohmann::json context_b = nlohmann::json::object();
  std::optional<ShardPlan> shard_plan;  // a --shard run: the whole split
  std::vector<BenchmarkRun> benchmarks;
  // Set when SIGINT or SIGTERM stopped the run (unit "pairs"): the pairs
  // measured until then are analysed, nothing is confirmed or explained.
  std::optional<Incomplete> incomplete;
};

}  // namespace perfci
