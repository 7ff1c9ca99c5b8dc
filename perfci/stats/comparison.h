// The statistics of one benchmark x metric of an A/B run: what each side
// measured, how B relates to A pair by pair, how sure that is, and how large
// a change the run could have seen. The verdict is decided afterwards
// (verdict.h), once the whole run's p-values have been FDR-adjusted.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "perfci/stats/bootstrap.h"
#include "perfci/stats/descriptive.h"
#include "perfci/stats/detectable_effect.h"
#include "perfci/stats/rank_sum.h"
#include "perfci/stats/wilcoxon.h"

namespace perfci::stats {

struct ComparisonOptions {
  // The estimate the verdict is based on; both are always reported.
  Estimator estimator = Estimator::kHodgesLehmann;
  BootstrapOptions bootstrap;
  WilcoxonOptions wilcoxon;
  DetectableEffectOptions detectable;
};

struct Comparison {
  bool deterministic = false;
  Summary a;
  Summary b;
  std::vector<double> ratios;  // B/A per pair (empty when deterministic)
  double median_ratio = 1;     // exp(median log-ratio)
  double hl_ratio = 1;         // exp(Hodges–Lehmann of the log-ratios)
  Estimator estimator = Estimator::kHodgesLehmann;
  double ratio = 1;   // the chosen estimate, B/A
  Interval interval;  // of ratio, on the ratio scale
  // Absent for deterministic metrics, which are compared by threshold alone,
  // and for unpaired ones, which have rank_sum instead.
  std::optional<WilcoxonResult> test;
  // Unpaired comparisons only (compare_unpaired): the rank-sum test.
  std::optional<RankSumResult> rank_sum;
  // kMadToSigma x MAD of the log-ratios (their stddev when the MAD is 0).
  double log_ratio_sigma = 0;
  // Relative change detectable at this noise and pair count; +inf when the
  // pairs are too few, 0 for a deterministic metric.
  double detectable_effect = 0;

  // ratio - 1: +0.104 is "B is 10.4% higher than A".
  double change() const { return ratio - 1; }
  bool unpaired() const { return rank_sum.has_value(); }
  // The test's two-sided p-value, whichever test ran; absent without one.
  std::optional<double> p_value() const;
  friend bool operator==(const Comparison&, const Comparison&) = default;
};

// Samples a[i] and b[i] come from pair i. Throws std::invalid_argument on
// unpaired, empty or invalid samples (see paired_ratios).
Comparison compare_paired(std::span<const double> a, std::span<const double> b,
                          const ComparisonOptions& options = {});

// Samples a[i] and b[j] measured apart (two Google Benchmark files, one
// sample per repetition): nothing pairs them, so nothing is computed per
// pair. The ratio is exp(Hodges–Lehmann shift of the log values), i.e. the
// median of all b_j / a_i; its interval is the distribution-free one of that
// shift (rank_sum.h); the test is the rank-sum test; median_ratio is
// median(b) / median(a); log_ratio_sigma is the spread of log(b_j / a_i) for
// independent sides, sqrt(sigma_a^2 + sigma_b^2) of the log values. With too
// few samples for the test to reach alpha, the interval is unbounded and the
// detectable effect +inf: the verdict can only be noisy. Throws
// std::invalid_argument on an empty side or a value that is not finite and
// positive.
Comparison compare_unpaired(std::span<const double> a, std::span<const double> b,
                            const ComparisonOptions& options = {});

// A deterministic metric (callgrind Ir): one sample per side is enough. With
// more, the sides' medians are compared. The ratio is exact, so the interval
// is that point and there is no test. A count may be zero (allocations per
// iteration): 0 -> 0 is a ratio of 1, 0 -> n is +infinity (a rise past any
// threshold), n -> 0 is 0.
Comparison compare_deterministic(std::span<const double> a, std::span<const double> b);

}  // namespace perfci::stats
