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
  // Absent for deterministic metrics, which are compared by threshold alone.
  std::optional<WilcoxonResult> test;
  // kMadToSigma x MAD of the log-ratios (their stddev when the MAD is 0).
  double log_ratio_sigma = 0;
  // Relative change detectable at this noise and pair count; +inf when the
  // pairs are too few, 0 for a deterministic metric.
  double detectable_effect = 0;

  // ratio - 1: +0.104 is "B is 10.4% higher than A".
  double change() const { return ratio - 1; }
  friend bool operator==(const Comparison&, const Comparison&) = default;
};

// Samples a[i] and b[i] come from pair i. Throws std::invalid_argument on
// unpaired, empty or invalid samples (see paired_ratios).
Comparison compare_paired(std::span<const double> a, std::span<const double> b,
                          const ComparisonOptions& options = {});

// A deterministic metric (callgrind Ir): one sample per side is enough. With
// more, the sides' medians are compared. The ratio is exact, so the interval
// is that point and there is no test.
Comparison compare_deterministic(std::span<const double> a, std::span<const double> b);

}  // namespace perfci::stats
