#include "perfci/stats/comparison.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "perfci/stats/paired_ratio.h"
#include "perfci/stats/rank_sum.h"

namespace perfci::stats {

Comparison compare_paired(std::span<const double> a, std::span<const double> b,
                          const ComparisonOptions& options) {
  const std::vector<double> log_ratios = paired_log_ratios(a, b);
  Comparison c;
  c.a = summarize(a);
  c.b = summarize(b);
  c.ratios = paired_ratios(a, b);
  c.median_ratio = median_ratio(log_ratios);
  c.hl_ratio = hodges_lehmann_ratio(log_ratios);
  c.estimator = options.estimator;
  c.ratio = options.estimator == Estimator::kMedian ? c.median_ratio : c.hl_ratio;
  const Interval log_interval =
      bootstrap_interval(log_ratios, options.estimator, options.bootstrap);
  c.interval = {std::exp(log_interval.lo), std::exp(log_interval.hi), log_interval.level};
  c.test = wilcoxon_signed_rank(log_ratios, options.wilcoxon);
  c.log_ratio_sigma = kMadToSigma * median_absolute_deviation(log_ratios);
  // A quantised counter can have a MAD of 0 while a few pairs still differ;
  // its spread is then whatever the standard deviation sees, not nothing.
  if (c.log_ratio_sigma == 0) c.log_ratio_sigma = stddev(log_ratios);
  c.detectable_effect =
      minimum_detectable_effect(c.log_ratio_sigma, log_ratios.size(), options.detectable);
  if (std::isfinite(c.detectable_effect) && std::isfinite(log_interval.lo) &&
      std::isfinite(log_interval.hi)) {
    c.detectable_effect =
        std::max(c.detectable_effect,
                 interval_detectable_effect(log_interval.lo, log_interval.hi, options.detectable));
  }
  return c;
}

std::optional<double> Comparison::p_value() const {
  if (test) return test->p_value;
  if (rank_sum) return rank_sum->p_value;
  return std::nullopt;
}

namespace {

std::vector<double> log_values(std::span<const double> x) {
  std::vector<double> out;
  out.reserve(x.size());
  for (double v : x) {
    if (!(v > 0) || !std::isfinite(v))
      throw std::invalid_argument("unpaired comparison of a sample that is not finite and > 0");
    out.push_back(std::log(v));
  }
  return out;
}

// The robust spread of one side's log values (their stddev when the MAD is 0,
// as for the paired log-ratios).
double log_sigma(std::span<const double> logs) {
  const double s = kMadToSigma * median_absolute_deviation(logs);
  return s == 0 ? stddev(logs) : s;
}

}  // namespace

Comparison compare_unpaired(std::span<const double> a, std::span<const double> b,
                            const ComparisonOptions& options) {
  const std::vector<double> la = log_values(a);
  const std::vector<double> lb = log_values(b);
  Comparison c;
  c.a = summarize(a);
  c.b = summarize(b);
  c.median_ratio = c.b.median / c.a.median;
  const ShiftEstimate shift = hodges_lehmann_shift(la, lb, options.bootstrap.confidence);
  c.hl_ratio = std::exp(shift.estimate);
  // The Hodges–Lehmann shift is the unpaired counterpart of both paired
  // estimators: it is what the interval is drawn around, so it is the ratio.
  c.estimator = Estimator::kHodgesLehmann;
  c.ratio = c.hl_ratio;
  c.interval = {std::exp(shift.lo), std::exp(shift.hi), shift.level};
  c.rank_sum = rank_sum_test(la, lb);
  const double sa = log_sigma(la);
  const double sb = log_sigma(lb);
  c.log_ratio_sigma = std::sqrt(sa * sa + sb * sb);
  c.detectable_effect =
      unpaired_detectable_effect(sa, la.size(), sb, lb.size(), options.detectable);
  if (std::isfinite(c.detectable_effect) && std::isfinite(shift.lo) && std::isfinite(shift.hi)) {
    c.detectable_effect = std::max(
        c.detectable_effect, interval_detectable_effect(shift.lo, shift.hi, options.detectable));
  }
  return c;
}

Comparison compare_deterministic(std::span<const double> a, std::span<const double> b) {
  if (a.empty() || b.empty()) throw std::invalid_argument("deterministic metric without samples");
  Comparison c;
  c.deterministic = true;
  c.a = summarize(a);
  c.b = summarize(b);
  const double ma = c.a.median;
  const double mb = c.b.median;
  if (ma == 0 && mb > 0)
    c.ratio = std::numeric_limits<double>::infinity();
  else if (ma > 0 && mb == 0)
    c.ratio = 0;
  else
    c.ratio = paired_ratios(std::span(&ma, 1), std::span(&mb, 1)).front();
  c.median_ratio = c.hl_ratio = c.ratio;
  c.estimator = Estimator::kMedian;
  c.interval = {c.ratio, c.ratio, 1.0};
  return c;
}

}  // namespace perfci::stats
