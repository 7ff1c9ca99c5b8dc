// The A/B trial scheduler. Every trial is a fresh process of one side's
// binary running the selected benchmarks (perfci/meters/measure.h). After
// warm-up trials of each side, A and B alternate in randomized pair order;
// a benchmark that crashes or times out in any trial is marked failed (with
// the tail of its stderr) and left out of later trials. Deterministic or
// expensive meters (callgrind, profile) run once per side. Suspects are
// confirmed with fresh pairs before their verdict stands.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "perfci/meters/measure.h"
#include "perfci/model/ab_run.h"
#include "perfci/model/shard.h"
#include "perfci/runner/metric_policy.h"
#include "perfci/stats/run_analysis.h"

namespace perfci {

struct TrialPlan {
  int pairs = 10;  // without a budget: exactly this many
  // With a budget: pairs until the time (warm-up included) would run out,
  // at least min_pairs and at most max_pairs.
  std::optional<std::chrono::seconds> budget;
  int min_pairs = 5;
  int max_pairs = 200;
  int warmup = 1;  // trials per side, discarded
  // Fresh pairs for the confirmation of suspects; 0 disables it.
  int confirm_pairs = 10;
  std::uint64_t seed = 1;
};

struct AbRunOptions {
  // Meters, events, filter, timeouts, pinning. Wall and counters run in
  // every trial; callgrind and profile once per side.
  MeasureOptions measure;
  TrialPlan plan;
  MetricPolicies policies;
  stats::RunAnalysisOptions analysis;
  // When no callgrind or profile meter ran, run callgrind once per side on
  // the benchmarks that regressed or improved, so the report can say which
  // functions changed. A binary without the hook just gets no explanation.
  bool explain_with_callgrind = true;
  // --shard K/N: only part K of the benchmarks both sides have, split by
  // count in their order (an A/B has no stored costs every job shares); the
  // run records the plan for `perfci merge`.
  std::optional<ShardSpec> shard;
  // "pair 3/10 B: wall: 4 benchmarks, 12s elapsed, ~28s left"; none when unset.
  std::function<void(const std::string&)> progress;
};

// Throws perfci::Error on bad input (a missing binary, a filter that selects
// nothing, no benchmark common to both sides, an invalid plan). Failed
// benchmarks do not throw: they are recorded in the run.
AbRun run_ab(const std::string& binary_a, const std::string& binary_b, const AbRunOptions& options);

}  // namespace perfci
