#include "perfci/stats/verdict.h"

#include <fmt/core.h>

#include <cmath>
#include <stdexcept>

namespace perfci::stats {
namespace {

// Signed percent with enough digits for sub-percent thresholds.
std::string signed_percent(double fraction) {
  const double pct = fraction * 100;
  return std::fabs(pct) < 1 ? fmt::format("{:+.2f}%", pct) : fmt::format("{:+.1f}%", pct);
}

std::string threshold_text(double threshold) { return fmt::format("{:g}%", threshold * 100); }

Verdict verdict_for_rise(bool rose, Direction direction) {
  const bool worse = rose == (direction == Direction::kHigherIsWorse);
  return worse ? Verdict::kRegressed : Verdict::kImproved;
}

}  // namespace

Verdict verdict_by_threshold(double change, double threshold, Direction direction) {
  if (!(change > threshold || change < -threshold)) return Verdict::kUnchanged;
  bool worse_up = direction == Direction::kHigherIsWorse;
  return (change > 0) == worse_up ? Verdict::kRegressed : Verdict::kImproved;
}

Decision decide_by_threshold(double change, const MetricPolicy& policy, const std::string& head) {
  Verdict v = verdict_by_threshold(change, policy.threshold, policy.direction);
  return {v, fmt::format("{}: {} the {} threshold", head,
                         v == Verdict::kUnchanged ? "within" : "beyond",
                         threshold_text(policy.threshold))};
}

Decision decide(const Comparison& c, const MetricPolicy& policy, std::optional<double> q_value,
                const VerdictOptions& options) {
  if (!(policy.threshold >= 0)) throw std::invalid_argument("verdict threshold must be >= 0");
  if (!(options.alpha > 0 && options.alpha < 1)) {
    throw std::invalid_argument("verdict alpha must lie in (0, 1)");
  }
  if (policy.deterministic || c.deterministic) {
    const double change = c.ratio - 1;
    return decide_by_threshold(change, policy, signed_percent(change) + " (deterministic)");
  }

  const double q = q_value.value_or(c.p_value().value_or(1.0));
  // Unpaired samples too few for the rank-sum test to reach significance
  // leave the interval unbounded: say so, rather than quote infinities.
  if (c.unpaired() && !(std::isfinite(c.interval.lo) && std::isfinite(c.interval.hi))) {
    return {Verdict::kNoisy,
            fmt::format("{} (unpaired, {} vs {} samples): too few repetitions for the rank-sum "
                        "test to reach significance; the interval is unbounded",
                        signed_percent(c.ratio - 1), c.rank_sum->n_a, c.rank_sum->n_b)};
  }
  const char* more = c.unpaired() ? "more repetitions needed" : "more pairs needed";
  const double up = 1 + policy.threshold;
  const double down = 1 - policy.threshold;
  const double lo = c.interval.lo;
  const double hi = c.interval.hi;
  const std::string head = fmt::format("{} [{}, {}], q={:.3g}", signed_percent(c.ratio - 1),
                                       signed_percent(lo - 1), signed_percent(hi - 1), q);
  const std::string t = threshold_text(policy.threshold);

  const bool rose = c.ratio > up;
  const bool fell = c.ratio < down;
  const bool significant = q <= options.alpha;
  const bool interval_beyond = rose ? lo > up : hi < down;
  // The test and the interval must tell the same story: a significant
  // change whose interval still holds "no change" (1) is a test that a few
  // extreme pairs swayed (a burst of load on one side), not a finding.
  const bool interval_agrees = rose ? lo > 1 : hi < 1;
  const bool straddles = (lo <= up && hi >= up) || (lo <= down && hi >= down);

  if ((rose || fell) && significant && interval_agrees &&
      (interval_beyond || !options.require_interval_beyond_threshold)) {
    return {verdict_for_rise(rose, policy.direction),
            fmt::format("{}: significant and beyond the {} threshold", head, t)};
  }
  if ((rose || fell) && significant && !interval_agrees) {
    return {Verdict::kNoisy,
            fmt::format("{}: significant, but the interval still holds no change; {}", head, more)};
  }
  if (straddles) {
    return {Verdict::kNoisy,
            fmt::format("{}: the interval straddles the {} threshold; {}", head, t, more)};
  }
  if (rose || fell) {
    return {Verdict::kNoisy,
            fmt::format("{}: beyond the {} threshold but not significant (q > {:g})", head, t,
                        options.alpha)};
  }
  if (lo > up || hi < down) {
    // Only a BCa interval can leave its own estimate behind like this.
    return {Verdict::kNoisy,
            fmt::format("{}: estimate within but interval beyond the {} threshold", head, t)};
  }
  if (significant) {
    return {Verdict::kUnchanged,
            fmt::format("{}: significant but within the {} threshold", head, t)};
  }
  return {Verdict::kUnchanged, fmt::format("{}: within the {} threshold", head, t)};
}

std::string_view to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::kRegressed:
      return "regressed";
    case Verdict::kImproved:
      return "improved";
    case Verdict::kUnchanged:
      return "unchanged";
    case Verdict::kNoisy:
      return "noisy";
  }
  return "unknown";
}

std::string_view to_string(Direction direction) {
  switch (direction) {
    case Direction::kHigherIsWorse:
      return "higher-is-worse";
    case Direction::kHigherIsBetter:
      return "higher-is-better";
  }
  return "unknown";
}

std::optional<Verdict> parse_verdict(std::string_view text) {
  for (Verdict v : {Verdict::kRegressed, Verdict::kImproved, Verdict::kUnchanged, Verdict::kNoisy})
    if (to_string(v) == text) return v;
  return std::nullopt;
}

std::optional<Direction> parse_direction(std::string_view text) {
  for (Direction d : {Direction::kHigherIsWorse, Direction::kHigherIsBetter})
    if (to_string(d) == text) return d;
  return std::nullopt;
}

}  // namespace perfci::stats
