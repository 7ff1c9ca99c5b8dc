#include "perfci/stats/descriptive.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace perfci::stats {
namespace {

void require_samples(std::span<const double> x, const char* what) {
  if (x.empty()) throw std::invalid_argument(std::string(what) + " of no samples");
}

std::vector<double> sorted_copy(std::span<const double> x) {
  std::vector<double> v(x.begin(), x.end());
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

double mean(std::span<const double> x) {
  require_samples(x, "mean");
  double sum = 0;
  for (double v : x) sum += v;
  return sum / static_cast<double>(x.size());
}

double stddev(std::span<const double> x) {
  require_samples(x, "standard deviation");
  if (x.size() < 2) return 0;
  // Two passes: benchmark samples share a large common offset, which the
  // one-pass sum-of-squares formula would cancel away.
  const double m = mean(x);
  double ss = 0;
  for (double v : x) ss += (v - m) * (v - m);
  return std::sqrt(ss / static_cast<double>(x.size() - 1));
}

double coefficient_of_variation(std::span<const double> x) {
  const double m = mean(x);
  return m == 0 ? 0 : stddev(x) / std::fabs(m);
}

double quantile_sorted(std::span<const double> sorted, double p) {
  require_samples(sorted, "quantile");
  p = std::clamp(p, 0.0, 1.0);
  const double h = p * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

double quantile(std::span<const double> x, double p) {
  require_samples(x, "quantile");
  return quantile_sorted(sorted_copy(x), p);
}

double median(std::span<const double> x) { return quantile(x, 0.5); }

double interquartile_range(std::span<const double> x) {
  require_samples(x, "interquartile range");
  const std::vector<double> s = sorted_copy(x);
  return quantile_sorted(s, 0.75) - quantile_sorted(s, 0.25);
}

double median_absolute_deviation(std::span<const double> x) {
  const double m = median(x);
  std::vector<double> dev;
  dev.reserve(x.size());
  for (double v : x) dev.push_back(std::fabs(v - m));
  return median(dev);
}

Summary summarize(std::span<const double> x) {
  require_samples(x, "summary");
  const std::vector<double> s = sorted_copy(x);
  Summary r;
  r.n = x.size();
  r.min = s.front();
  r.max = s.back();
  r.mean = mean(x);
  r.stddev = stddev(x);
  r.cv = coefficient_of_variation(x);
  r.median = quantile_sorted(s, 0.5);
  r.q1 = quantile_sorted(s, 0.25);
  r.q3 = quantile_sorted(s, 0.75);
  r.iqr = r.q3 - r.q1;
  r.mad = median_absolute_deviation(x);
  return r;
}

}  // namespace perfci::stats
