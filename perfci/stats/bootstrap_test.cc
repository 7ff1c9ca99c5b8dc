#include "perfci/stats/bootstrap.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "perfci/stats/descriptive.h"

namespace perfci::stats {
namespace {

// Normal deviates by Box–Muller from the raw 64-bit stream, so the synthetic
// data do not depend on the library's std::normal_distribution.
class Gaussian {
 public:
  explicit Gaussian(std::uint64_t seed) : rng_(seed) {}
  double operator()() {
    const double u1 = (static_cast<double>(rng_() >> 11) + 0.5) * 0x1.0p-53;
    const double u2 = static_cast<double>(rng_() >> 11) * 0x1.0p-53;
    return std::sqrt(-2 * std::log(u1)) * std::cos(2 * std::numbers::pi * u2);
  }

 private:
  std::mt19937_64 rng_;
};

// Share of synthetic experiments whose interval holds the true log-ratio.
// Each experiment: n pairs whose log-ratios are log(true_ratio) plus
// symmetric noise of 2% (the noise of a quiet wall-clock benchmark).
// 250 resamples (the runner uses 2000) keep 1000 experiments quick under
// the sanitizers; the endpoints get noisier, not biased.
double coverage(Estimator estimator, IntervalMethod method, std::size_t n, int experiments) {
  const double truth = std::log(1.05);
  Gaussian noise(20261201);
  BootstrapOptions options;
  options.resamples = 250;
  options.method = method;
  int covered = 0;
  std::vector<double> x(n);
  for (int e = 0; e < experiments; ++e) {
    for (double& v : x) v = truth + 0.02 * noise();
    options.seed = 1000 + static_cast<std::uint64_t>(e);
    if (bootstrap_interval(x, estimator, options).contains(truth)) ++covered;
  }
  const double share = static_cast<double>(covered) / experiments;
  ::testing::Test::RecordProperty("coverage", std::to_string(share));
  return share;
}

TEST(BootstrapTest, HodgesLehmannPercentileCoverage) {
  const double c = coverage(Estimator::kHodgesLehmann, IntervalMethod::kPercentile, 20, 1000);
  EXPECT_GE(c, 0.92);
  EXPECT_LE(c, 0.98);
}

TEST(BootstrapTest, HodgesLehmannBcaCoverage) {
  const double c = coverage(Estimator::kHodgesLehmann, IntervalMethod::kBca, 20, 1000);
  EXPECT_GE(c, 0.92);
  EXPECT_LE(c, 0.98);
}

TEST(BootstrapTest, MedianPercentileCoverage) {
  const double c = coverage(Estimator::kMedian, IntervalMethod::kPercentile, 60, 1000);
  EXPECT_GE(c, 0.92);
  EXPECT_LE(c, 0.98);
}

TEST(BootstrapTest, PercentileMatchesAPlainReimplementation) {
  // The textbook loop: draw n indices, estimate, sort, read the quantiles.
  const std::vector<double> x = {0.013, 0.031, -0.022, 0.054, 0.047,  0.001, 0.025,
                                 0.068, 0.012, 0.036,  0.029, -0.008, 0.041, 0.019};
  for (Estimator estimator : {Estimator::kMedian, Estimator::kHodgesLehmann}) {
    BootstrapOptions options;
    options.method = IntervalMethod::kPercentile;
    options.resamples = 999;
    options.seed = 99;
    std::mt19937_64 rng(options.seed);
    std::vector<double> stats;
    std::vector<double> resample(x.size());
    for (std::size_t r = 0; r < options.resamples; ++r) {
      for (double& v : resample) v = x[rng() % x.size()];
      stats.push_back(estimate(estimator, resample));
    }
    std::sort(stats.begin(), stats.end());
    const Interval got = bootstrap_interval(x, estimator, options);
    EXPECT_EQ(got.lo, quantile_sorted(stats, 0.025)) << to_string(estimator);
    EXPECT_EQ(got.hi, quantile_sorted(stats, 0.975)) << to_string(estimator);
  }
}

TEST(BootstrapTest, SameSeedSameIntervalOtherSeedOtherInterval) {
  const std::vector<double> x = {0.013, 0.031, -0.022, 0.054, 0.047,  0.001, 0.025,
                                 0.068, 0.012, 0.036,  0.029, -0.008, 0.041, 0.019};
  BootstrapOptions options;
  options.seed = 42;
  const Interval first = bootstrap_interval(x, Estimator::kHodgesLehmann, options);
  EXPECT_EQ(first, bootstrap_interval(x, Estimator::kHodgesLehmann, options));
  options.seed = 43;
  EXPECT_NE(first, bootstrap_interval(x, Estimator::kHodgesLehmann, options));
  EXPECT_LT(first.lo, estimate(Estimator::kHodgesLehmann, x));
  EXPECT_GT(first.hi, estimate(Estimator::kHodgesLehmann, x));
  EXPECT_EQ(first.level, 0.95);
}

TEST(BootstrapTest, HigherConfidenceGivesAWiderInterval) {
  const std::vector<double> x = {0.01, 0.03, -0.02, 0.05, 0.04, 0.00, 0.02, 0.06, 0.01, 0.03};
  for (IntervalMethod method : {IntervalMethod::kPercentile, IntervalMethod::kBca}) {
    BootstrapOptions options;
    options.method = method;
    options.confidence = 0.80;
    const Interval narrow = bootstrap_interval(x, Estimator::kMedian, options);
    options.confidence = 0.99;
    const Interval wide = bootstrap_interval(x, Estimator::kMedian, options);
    EXPECT_LE(wide.lo, narrow.lo);
    EXPECT_GE(wide.hi, narrow.hi);
    EXPECT_LT(narrow.hi - narrow.lo, wide.hi - wide.lo);
  }
}

TEST(BootstrapTest, NoSpreadCollapsesToThePoint) {
  const std::vector<double> same = {0.1, 0.1, 0.1};
  const Interval i = bootstrap_interval(same, Estimator::kHodgesLehmann, {});
  EXPECT_EQ(i.lo, 0.1);
  EXPECT_EQ(i.hi, 0.1);
  const std::vector<double> one = {0.2};
  EXPECT_EQ(bootstrap_interval(one, Estimator::kMedian, {}).lo, 0.2);
}

TEST(BootstrapTest, InvalidOptionsAreRejected) {
  const std::vector<double> x = {1, 2, 3};
  BootstrapOptions options;
  options.resamples = 0;
  EXPECT_THROW(bootstrap_interval(x, Estimator::kMedian, options), std::invalid_argument);
  options = {};
  options.confidence = 1;
  EXPECT_THROW(bootstrap_interval(x, Estimator::kMedian, options), std::invalid_argument);
  EXPECT_THROW(bootstrap_interval({}, Estimator::kMedian, {}), std::invalid_argument);
}

TEST(BootstrapTest, NamesOfTheChoices) {
  EXPECT_EQ(to_string(Estimator::kHodgesLehmann), "hodges-lehmann");
  EXPECT_EQ(to_string(IntervalMethod::kBca), "bca");
}

// Two samples are too few for the jackknife's acceleration (n > 2): BCa
// falls back to the plain percentile interval, the same one, not a NaN.
TEST(BootstrapTest, BcaOfTwoSamplesIsThePercentileInterval) {
  const std::vector<double> two = {0.01, 0.05};
  BootstrapOptions bca;
  bca.method = IntervalMethod::kBca;
  BootstrapOptions percentile = bca;
  percentile.method = IntervalMethod::kPercentile;
  const Interval a = bootstrap_interval(two, Estimator::kMedian, bca);
  const Interval b = bootstrap_interval(two, Estimator::kMedian, percentile);
  EXPECT_EQ(a, b);
  EXPECT_GE(a.lo, 0.01);
  EXPECT_LE(a.hi, 0.05);
  EXPECT_LT(a.lo, a.hi);
}

TEST(BootstrapTest, ConfidenceOfZeroOrNaNIsRejected) {
  const std::vector<double> x = {1, 2, 3};
  for (double confidence : {0.0, double{NAN}, -1.0}) {
    BootstrapOptions options;
    options.confidence = confidence;
    EXPECT_THROW(bootstrap_interval(x, Estimator::kMedian, options), std::invalid_argument)
        << confidence;
  }
}

}  // namespace
}  // namespace perfci::stats
