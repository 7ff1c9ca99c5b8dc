#include "perfci/stats/bootstrap.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "perfci/stats/descriptive.h"
#include "perfci/stats/normal_distribution.h"
#include "perfci/stats/paired_ratio.h"
#include "perfci/stats/resample_estimator.h"

namespace perfci::stats {
namespace {

void validate(std::span<const double> x, const BootstrapOptions& options) {
  if (x.empty()) throw std::invalid_argument("bootstrap of no samples");
  if (options.resamples == 0) throw std::invalid_argument("bootstrap needs at least 1 resample");
  if (!(options.confidence > 0 && options.confidence < 1)) {
    throw std::invalid_argument("bootstrap confidence must lie in (0, 1)");
  }
}

// Jackknife acceleration: the skewness of the leave-one-out estimates.
double acceleration(std::size_t n, const ResampleEstimator& evaluate) {
  std::vector<double> loo(n);
  std::vector<std::uint32_t> counts(n, 1);
  for (std::size_t i = 0; i < n; ++i) {
    counts[i] = 0;
    loo[i] = evaluate(counts);
    counts[i] = 1;
  }
  const double m = mean(loo);
  double num = 0;
  double den = 0;
  for (double v : loo) {
    const double d = m - v;
    num += d * d * d;
    den += d * d;
  }
  if (den == 0) return 0;
  return num / (6 * std::pow(den, 1.5));
}

}  // namespace

double estimate(Estimator estimator, std::span<const double> x) {
  if (estimator == Estimator::kMedian) return median(x);
  return hodges_lehmann(x);
}

Interval bootstrap_interval(std::span<const double> x, Estimator estimator,
                            const BootstrapOptions& options) {
  validate(x, options);
  const double point = estimate(estimator, x);
  const auto [lo_x, hi_x] = std::minmax_element(x.begin(), x.end());
  if (*lo_x == *hi_x) return {point, point, options.confidence};

  const std::size_t n = x.size();
  const ResampleEstimator evaluate(estimator, x);
  std::mt19937_64 rng(options.seed);
  std::vector<std::uint32_t> counts(n);
  std::vector<double> stats(options.resamples);
  for (double& s : stats) {
    std::fill(counts.begin(), counts.end(), 0);
    // Modulo instead of std::uniform_int_distribution, whose algorithm the
    // standard leaves to each library: the same seed must give the same
    // interval with libstdc++ and libc++. The bias (n / 2^64) is nil.
    for (std::size_t k = 0; k < n; ++k) ++counts[rng() % n];
    s = evaluate(counts);
  }
  std::sort(stats.begin(), stats.end());

  const double tail = (1 - options.confidence) / 2;
  double p_lo = tail;
  double p_hi = 1 - tail;
  if (options.method == IntervalMethod::kBca && n > 2) {
    const auto below = std::lower_bound(stats.begin(), stats.end(), point) - stats.begin();
    const auto equal = std::upper_bound(stats.begin(), stats.end(), point) - stats.begin() - below;
    const double b = static_cast<double>(stats.size());
    // Ties count half, and the proportion stays off 0 and 1 so that a
    // resampling distribution entirely on one side of the estimate bends the
    // interval strongly instead of sending it to infinity.
    const double prop = std::clamp(
        (static_cast<double>(below) + 0.5 * static_cast<double>(equal)) / b, 0.5 / b, 1 - 0.5 / b);
    const double z0 = normal_quantile(prop);
    const double a = acceleration(n, evaluate);
    const auto adjust = [&](double p) {
      const double z = z0 + normal_quantile(p);
      const double denom = 1 - a * z;
      if (denom <= 0) return p;  // acceleration past its range: keep the percentile
      return normal_cdf(z0 + z / denom);
    };
    p_lo = adjust(tail);
    p_hi = adjust(1 - tail);
  }
  return {quantile_sorted(stats, p_lo), quantile_sorted(stats, p_hi), options.confidence};
}

std::string_view to_string(Estimator estimator) {
  switch (estimator) {
    case Estimator::kMedian:
      return "median";
    case Estimator::kHodgesLehmann:
      return "hodges-lehmann";
  }
  return "unknown";
}

std::string_view to_string(IntervalMethod method) {
  switch (method) {
    case IntervalMethod::kPercentile:
      return "percentile";
    case IntervalMethod::kBca:
      return "bca";
  }
  return "unknown";
}

}  // namespace perfci::stats
