// The verdict for one benchmark x metric: regressed, improved, unchanged or
// noisy, with the reason spelled out for the report.
//
// Rules (issue 6):
// - regressed / improved: significant after FDR control (q <= alpha) AND the
//   estimated change lies beyond the metric's threshold in the worse / better
//   direction AND the confidence interval excludes "no change" (ratio 1) on
//   that side: the test and the interval agree (issue 23). With require_interval_beyond_threshold,
//   the whole confidence interval must lie beyond it too (stricter; fewer verdicts near the
//   threshold).
// - noisy: otherwise, when the run cannot decide at that threshold: the
//   interval straddles +threshold or -threshold, or the estimate is beyond
//   the threshold without significance, or significant with an interval
//   that still holds ratio 1.
// - unchanged: otherwise; the interval lies within +-threshold (a
//   significant change smaller than the threshold is still "unchanged").
// - deterministic metrics: the ratio against the threshold alone; never noisy.
// "Beyond the threshold t" means ratio > 1 + t or ratio < 1 - t; a change
// exactly at the threshold is not beyond it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "perfci/stats/comparison.h"

namespace perfci::stats {

enum class Direction {
  kHigherIsWorse,   // time, instructions, misses
  kHigherIsBetter,  // throughput (TpmC, items/s)
};

enum class Verdict { kRegressed, kImproved, kUnchanged, kNoisy };

struct MetricPolicy {
  double threshold = 0.03;  // relative: 0.03 is 3%
  Direction direction = Direction::kHigherIsWorse;
  bool deterministic = false;

  friend bool operator==(const MetricPolicy&, const MetricPolicy&) = default;
};

struct VerdictOptions {
  double alpha = 0.05;  // the FDR level the q-values are held to
  bool require_interval_beyond_threshold = false;
};

struct Decision {
  Verdict verdict = Verdict::kUnchanged;
  // "+10.4% [+8.1%, +12.9%], q=0.002: significant and beyond the 3% threshold"
  std::string reason;

  friend bool operator==(const Decision&, const Decision&) = default;
};

// q_value: the comparison's Benjamini–Hochberg-adjusted p-value across the
// run. Without one, the unadjusted p-value stands in (a single test is its
// own family). Ignored for deterministic metrics. Throws
// std::invalid_argument on a negative threshold or alpha outside (0, 1).
Decision decide(const Comparison& comparison, const MetricPolicy& policy,
                std::optional<double> q_value, const VerdictOptions& options = {});

// The verdict of one value against another by the threshold alone: beyond
// +threshold in the worse direction regressed, beyond it in the better one
// improved, else unchanged. For deterministic metrics, oracle gaps and a
// single run against a stored baseline, where no interval can be drawn.
// "Beyond" is strict: a change exactly at the threshold is unchanged.
Verdict verdict_by_threshold(double change, double threshold, Direction direction);

// The same rule with its reason: `head` (how the caller describes the
// change, e.g. "+0.73% (deterministic)") then ": beyond the 3% threshold" or
// ": within the 3% threshold".
Decision decide_by_threshold(double change, const MetricPolicy& policy, const std::string& head);

std::string_view to_string(Verdict verdict);
std::string_view to_string(Direction direction);
std::optional<Verdict> parse_verdict(std::string_view text);
std::optional<Direction> parse_direction(std::string_view text);

}  // namespace perfci::stats
