#include "perfci/stats/descriptive.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

namespace perfci::stats {
namespace {

TEST(DescriptiveTest, MeanAndSampleStddevOfTextbookData) {
  // Mean 5, population variance 4, sample variance 32/7.
  const std::vector<double> x = {2, 4, 4, 4, 5, 5, 7, 9};
  EXPECT_DOUBLE_EQ(mean(x), 5.0);
  EXPECT_NEAR(stddev(x), std::sqrt(32.0 / 7.0), 1e-12);
  EXPECT_NEAR(coefficient_of_variation(x), std::sqrt(32.0 / 7.0) / 5.0, 1e-12);
}

TEST(DescriptiveTest, StddevKeepsPrecisionUnderLargeOffset) {
  const std::vector<double> x = {1e9 + 1, 1e9 + 2, 1e9 + 3};
  EXPECT_NEAR(stddev(x), 1.0, 1e-6);
}

TEST(DescriptiveTest, SingleSampleHasNoSpread) {
  const std::vector<double> x = {3.5};
  EXPECT_EQ(stddev(x), 0.0);
  EXPECT_EQ(median(x), 3.5);
  EXPECT_EQ(median_absolute_deviation(x), 0.0);
}

TEST(DescriptiveTest, QuantilesMatchRType7) {
  // R: quantile(c(1, 3, 7, 15, 31), c(.1, .25, .5, .9)) = 1.8 3 7 24.6
  const std::vector<double> x = {15, 1, 31, 7, 3};
  EXPECT_NEAR(quantile(x, 0.10), 1.8, 1e-12);
  EXPECT_NEAR(quantile(x, 0.25), 3.0, 1e-12);
  EXPECT_NEAR(quantile(x, 0.50), 7.0, 1e-12);
  EXPECT_NEAR(quantile(x, 0.90), 24.6, 1e-12);
  EXPECT_EQ(quantile(x, 0.0), 1.0);
  EXPECT_EQ(quantile(x, 1.0), 31.0);
  EXPECT_NEAR(interquartile_range(x), 12.0, 1e-12);
}

TEST(DescriptiveTest, MedianOfEvenCountAveragesTheMiddlePair) {
  const std::vector<double> x = {4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(median(x), 2.5);
}

TEST(DescriptiveTest, MedianAbsoluteDeviation) {
  // median 2; deviations 1 1 0 0 2 4 7 -> median 1 (R's mad(..., constant = 1)).
  const std::vector<double> x = {1, 1, 2, 2, 4, 6, 9};
  EXPECT_DOUBLE_EQ(median_absolute_deviation(x), 1.0);
}

TEST(DescriptiveTest, SummaryCollectsEverything) {
  const std::vector<double> x = {10, 12, 11, 13, 100};
  const Summary s = summarize(x);
  EXPECT_EQ(s.n, 5u);
  EXPECT_EQ(s.min, 10);
  EXPECT_EQ(s.max, 100);
  EXPECT_EQ(s.median, 12);
  EXPECT_EQ(s.q1, 11);
  EXPECT_EQ(s.q3, 13);
  EXPECT_EQ(s.iqr, 2);
  EXPECT_EQ(s.mad, 1);
  EXPECT_DOUBLE_EQ(s.mean, 29.2);
  EXPECT_NEAR(s.cv, s.stddev / 29.2, 1e-12);
}

TEST(DescriptiveTest, EmptyInputIsRejected) {
  const std::vector<double> none;
  EXPECT_THROW(mean(none), std::invalid_argument);
  EXPECT_THROW(median(none), std::invalid_argument);
  EXPECT_THROW(summarize(none), std::invalid_argument);
}

// A metric that reads 0 on every trial (a counter of events that never
// happen): its spread relative to a zero mean is 0, not 0/0.
TEST(DescriptiveTest, CoefficientOfVariationOfAZeroMeanIsZero) {
  const std::vector<double> zeros = {0, 0, 0, 0};
  EXPECT_EQ(coefficient_of_variation(zeros), 0.0);
  const std::vector<double> around_zero = {-1, 1};
  EXPECT_EQ(coefficient_of_variation(around_zero), 0.0);
  const std::vector<double> negative = {-2, -4};
  EXPECT_NEAR(coefficient_of_variation(negative), std::sqrt(2.0) / 3.0, 1e-12);
}

}  // namespace
}  // namespace perfci::stats
