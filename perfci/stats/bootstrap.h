// Bootstrap confidence intervals for a location estimate of paired
// log-ratios. Resampling the log-ratios is resampling whole pairs, which keeps
// each pair's shared machine state together.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace perfci::stats {

enum class Estimator {
  kMedian,         // median of the log-ratios
  kHodgesLehmann,  // median of their Walsh averages
};

enum class IntervalMethod {
  kPercentile,  // quantiles of the bootstrap distribution
  kBca,         // bias-corrected and accelerated (Efron 1987); jackknife acceleration
};

struct BootstrapOptions {
  std::size_t resamples = 2000;
  double confidence = 0.95;
  IntervalMethod method = IntervalMethod::kBca;
  // The caller's seed for std::mt19937_64: the same seed and data give the
  // same interval on every machine, so a report can be reproduced.
  std::uint64_t seed = 0x70657266636921;
};

// An interval on the scale of its estimate (log-ratio from
// bootstrap_interval; ratio wherever a Comparison reports it).
struct Interval {
  double lo = 0;
  double hi = 0;
  double level = 0;

  bool contains(double v) const { return lo <= v && v <= hi; }
  friend bool operator==(const Interval&, const Interval&) = default;
};

double estimate(Estimator estimator, std::span<const double> x);

// Interval of estimator(x). With a single sample or no spread it collapses to
// the point estimate. Throws std::invalid_argument on an empty sample, zero
// resamples or a confidence outside (0, 1).
Interval bootstrap_interval(std::span<const double> x, Estimator estimator,
                            const BootstrapOptions& options);

std::string_view to_string(Estimator estimator);
std::string_view to_string(IntervalMethod method);

}  // namespace perfci::stats
