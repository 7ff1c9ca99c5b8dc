#include "perfci/stats/paired_ratio.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace perfci::stats {
namespace {

// The definition, spelled out: every Walsh average, sorted, middle taken.
double hodges_lehmann_by_definition(const std::vector<double>& x) {
  std::vector<double> w;
  for (std::size_t i = 0; i < x.size(); ++i)
    for (std::size_t j = i; j < x.size(); ++j) w.push_back((x[i] + x[j]) / 2);
  std::sort(w.begin(), w.end());
  const std::size_t m = w.size();
  return m % 2 ? w[m / 2] : (w[m / 2 - 1] + w[m / 2]) / 2;
}

TEST(PairedRatioTest, RatiosAreBOverA) {
  const std::vector<double> a = {100, 200, 50};
  const std::vector<double> b = {110, 180, 50};
  EXPECT_EQ(paired_ratios(a, b), (std::vector<double>{1.1, 0.9, 1.0}));
  const std::vector<double> lr = paired_log_ratios(a, b);
  EXPECT_NEAR(lr[0], std::log(1.1), 1e-15);
  EXPECT_NEAR(lr[1], std::log(0.9), 1e-15);
  EXPECT_EQ(lr[2], 0.0);
}

TEST(PairedRatioTest, ZeroOnBothSidesIsNoChange) {
  const std::vector<double> a = {0, 4};
  const std::vector<double> b = {0, 8};
  EXPECT_EQ(paired_ratios(a, b), (std::vector<double>{1.0, 2.0}));
  EXPECT_EQ(paired_log_ratios(a, b)[0], 0.0);
}

TEST(PairedRatioTest, UndefinedRatiosAreRejected) {
  const std::vector<double> one = {1};
  const std::vector<double> zero = {0};
  const std::vector<double> neg = {-1};
  const std::vector<double> nan = {std::nan("")};
  const std::vector<double> two = {1, 2};
  EXPECT_THROW(paired_ratios(one, zero), std::invalid_argument);
  EXPECT_THROW(paired_ratios(zero, one), std::invalid_argument);
  EXPECT_THROW(paired_ratios(neg, one), std::invalid_argument);
  EXPECT_THROW(paired_log_ratios(one, nan), std::invalid_argument);
  EXPECT_THROW(paired_ratios(one, two), std::invalid_argument);
  EXPECT_THROW(paired_ratios({}, {}), std::invalid_argument);
}

TEST(PairedRatioTest, HodgesLehmannOnKnownData) {
  // Walsh averages of {1, 2, 9}: 1, 1.5, 2, 5, 5.5, 9 -> median (2 + 5) / 2.
  EXPECT_DOUBLE_EQ(hodges_lehmann(std::vector<double>{1, 2, 9}), 3.5);
  // Hollander & Wolfe's example (hamilton depression scores, x - y):
  // the textbook HL estimate of the shift is 0.46 (R: wilcox.test(x, y,
  // paired = TRUE, conf.int = TRUE)$estimate = 0.46).
  const std::vector<double> x = {1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30};
  const std::vector<double> y = {0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29};
  std::vector<double> d;
  for (std::size_t i = 0; i < x.size(); ++i) d.push_back(x[i] - y[i]);
  EXPECT_NEAR(hodges_lehmann(d), 0.46, 1e-9);
}

TEST(PairedRatioTest, HodgesLehmannMatchesDefinitionAndIgnoresOneOutlier) {
  std::vector<double> x = {0.3, -1.2, 0.8, 0.1, 2.5, -0.4, 0.9, 0.05, 1.7, -0.6};
  EXPECT_DOUBLE_EQ(hodges_lehmann(x), hodges_lehmann_by_definition(x));
  const double before = hodges_lehmann(x);
  x.push_back(1000);
  EXPECT_LT(std::fabs(hodges_lehmann(x) - before), 0.5);
}

TEST(PairedRatioTest, RatioEstimatorsExponentiateTheLogScale) {
  const std::vector<double> a = {100, 100, 100, 100};
  const std::vector<double> b = {104, 101, 120, 103};
  const std::vector<double> lr = paired_log_ratios(a, b);
  // Middle pair 1.03 and 1.04: geometric mean.
  EXPECT_NEAR(median_ratio(lr), std::sqrt(1.03 * 1.04), 1e-12);
  EXPECT_NEAR(hodges_lehmann_ratio(lr), std::exp(hodges_lehmann_by_definition(lr)), 1e-12);
}

TEST(PairedRatioTest, MedianInPlaceHandlesOddAndEven) {
  std::vector<double> odd = {5, 1, 3};
  std::vector<double> even = {4, 1, 3, 2};
  EXPECT_EQ(median_in_place(odd), 3);
  EXPECT_EQ(median_in_place(even), 2.5);
}

TEST(PairedRatioTest, EstimatorsOfNoSamplesAreRejected) {
  std::vector<double> none;
  EXPECT_THROW(median_in_place(none), std::invalid_argument);
  EXPECT_THROW(hodges_lehmann(none), std::invalid_argument);
  EXPECT_THROW(median_ratio(none), std::invalid_argument);
  EXPECT_THROW(hodges_lehmann_ratio(none), std::invalid_argument);
}

}  // namespace
}  // namespace perfci::stats
