#include "perfci/stats/noise_summary.h"

#include <cmath>
#include <vector>

#include "perfci/stats/descriptive.h"

namespace perfci::stats {

NoiseSummary summarize_noise(const Comparison& aa) {
  NoiseSummary s;
  s.pairs = aa.ratios.size();
  s.cv_a = aa.a.cv;
  s.cv_b = aa.b.cv;
  s.pair_noise = std::expm1(aa.log_ratio_sigma);
  if (!aa.ratios.empty()) {
    std::vector<double> abs_change;
    abs_change.reserve(aa.ratios.size());
    for (double r : aa.ratios) abs_change.push_back(std::fabs(r - 1));
    s.p95_abs_change = quantile(abs_change, 0.95);
  }
  s.ratio = aa.ratio;
  s.interval = aa.interval;
  s.p_value = aa.test ? aa.test->p_value : 1.0;
  s.detectable_effect = aa.detectable_effect;
  return s;
}

NoiseSummary summarize_noise(std::span<const double> a, std::span<const double> b,
                             const ComparisonOptions& options) {
  return summarize_noise(compare_paired(a, b, options));
}

}  // namespace perfci::stats
