#include "perfci/stats/paired_ratio.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "perfci/stats/descriptive.h"

namespace perfci::stats {
namespace {

double checked_ratio(double a, double b, std::size_t pair) {
  if (!std::isfinite(a) || !std::isfinite(b) || a < 0 || b < 0) {
    throw std::invalid_argument(
        fmt::format("pair {}: samples must be finite and non-negative (A={}, B={})", pair, a, b));
  }
  if (a == 0 && b == 0) return 1;
  if (a == 0 || b == 0) {
    throw std::invalid_argument(
        fmt::format("pair {}: ratio B/A undefined (A={}, B={})", pair, a, b));
  }
  return b / a;
}

void check_sides(std::span<const double> a, std::span<const double> b) {
  if (a.size() != b.size()) {
    throw std::invalid_argument(
        fmt::format("paired samples differ in length (A has {}, B has {})", a.size(), b.size()));
  }
  if (a.empty()) throw std::invalid_argument("no paired samples");
}

}  // namespace

std::vector<double> paired_ratios(std::span<const double> a, std::span<const double> b) {
  check_sides(a, b);
  std::vector<double> r(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) r[i] = checked_ratio(a[i], b[i], i);
  return r;
}

std::vector<double> paired_log_ratios(std::span<const double> a, std::span<const double> b) {
  check_sides(a, b);
  std::vector<double> r(a.size());
  // log(b) - log(a) rather than log(b / a): identical pairs give exactly 0,
  // which the signed-rank test must see as a zero difference.
  for (std::size_t i = 0; i < a.size(); ++i) {
    checked_ratio(a[i], b[i], i);
    r[i] = a[i] == b[i] ? 0.0 : std::log(b[i]) - std::log(a[i]);
  }
  return r;
}

double median_in_place(std::span<double> x) {
  if (x.empty()) throw std::invalid_argument("median of no samples");
  const std::size_t mid = x.size() / 2;
  std::nth_element(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(mid), x.end());
  const double upper = x[mid];
  if (x.size() % 2 == 1) return upper;
  const double lower = *std::max_element(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(mid));
  return lower + (upper - lower) / 2;
}

double hodges_lehmann(std::span<const double> x, std::vector<double>* walsh) {
  if (x.empty()) throw std::invalid_argument("Hodges-Lehmann estimate of no samples");
  const std::size_t n = x.size();
  walsh->resize(n * (n + 1) / 2);
  // Raw pointers: this loop runs n^2/2 times per bootstrap resample, and
  // unoptimised (Debug) builds would otherwise pay a call per element.
  const double* in = x.data();
  double* out = walsh->data();
  for (std::size_t i = 0; i < n; ++i) {
    const double xi = in[i];
    for (std::size_t j = i; j < n; ++j) *out++ = (xi + in[j]) / 2;
  }
  return median_in_place(*walsh);
}

double hodges_lehmann(std::span<const double> x) {
  std::vector<double> walsh;
  return hodges_lehmann(x, &walsh);
}

double median_ratio(std::span<const double> log_ratios) { return std::exp(median(log_ratios)); }

double hodges_lehmann_ratio(std::span<const double> log_ratios) {
  return std::exp(hodges_lehmann(log_ratios));
}

}  // namespace perfci::stats
