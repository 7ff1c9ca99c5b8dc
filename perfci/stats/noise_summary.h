// The machine's noise for one benchmark x metric, measured by an A/A run
// (the same binary on both sides). It tells the reader which differences
// the machine can resolve at all, and an A/A that comes out "significant" is
// a warning about the machine or the harness, not about the code.
#pragma once

#include <cstddef>
#include <span>

#include "perfci/stats/bootstrap.h"
#include "perfci/stats/comparison.h"

namespace perfci::stats {

struct NoiseSummary {
  std::size_t pairs = 0;
  double cv_a = 0;  // coefficient of variation of each side's samples
  double cv_b = 0;
  // Typical pair-to-pair change of the ratio: exp(sigma of log-ratios) - 1.
  double pair_noise = 0;
  // 95th percentile of |ratio - 1| over the pairs: the change one pair can
  // show by chance.
  double p95_abs_change = 0;
  double ratio = 1;  // the A/A estimate; 1 on a quiet machine
  Interval interval;
  double p_value = 1;
  double detectable_effect = 0;

  friend bool operator==(const NoiseSummary&, const NoiseSummary&) = default;
};

NoiseSummary summarize_noise(std::span<const double> a, std::span<const double> b,
                             const ComparisonOptions& options = {});
// The same from a Comparison already computed on an A/A run.
NoiseSummary summarize_noise(const Comparison& aa);

}  // namespace perfci::stats
