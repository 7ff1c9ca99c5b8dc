#include "perfci/stats/median_interval.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace perfci::stats {
namespace {

TEST(MedianIntervalTest, FiveSamplesCannotReach95Percent) {
  // The widest interval, [min, max], covers 1 - 2/32 = 93.75%.
  const std::vector<double> x = {5, 1, 4, 2, 3};
  EXPECT_FALSE(median_interval(x).has_value());
  const auto ninety = median_interval(x, 0.9);
  ASSERT_TRUE(ninety.has_value());
  EXPECT_EQ(ninety->lo, 1);
  EXPECT_EQ(ninety->hi, 5);
  EXPECT_DOUBLE_EQ(ninety->coverage, 1 - 2.0 / 32);
}

TEST(MedianIntervalTest, SixSamplesGiveMinToMax) {
  const std::vector<double> x = {6, 1, 5, 2, 4, 3};
  const auto i = median_interval(x);
  ASSERT_TRUE(i.has_value());
  EXPECT_EQ(i->lo, 1);
  EXPECT_EQ(i->hi, 6);
  EXPECT_DOUBLE_EQ(i->coverage, 1 - 2.0 / 64);
}

TEST(MedianIntervalTest, TwentySamplesMatchTheBinomialTable) {
  // n = 20: P(B <= 5) = 0.0207, so k = 6 gives 95.86%; k = 7 would give
  // 1 - 2 P(B <= 6) = 88.5%. R: 1 - 2 * pbinom(5, 20, .5) = 0.9586105.
  std::vector<double> x(20);
  std::iota(x.rbegin(), x.rend(), 1.0);  // 20 .. 1, unsorted on purpose
  const auto i = median_interval(x);
  ASSERT_TRUE(i.has_value());
  EXPECT_EQ(i->lo, 6);
  EXPECT_EQ(i->hi, 15);
  EXPECT_NEAR(i->coverage, 0.9586105, 1e-6);
}

TEST(MedianIntervalTest, EmptyHasNoneAndABadLevelIsACallerBug) {
  EXPECT_FALSE(median_interval(std::vector<double>{}).has_value());
  EXPECT_THROW(median_interval(std::vector<double>{1, 2}, 1.0), std::invalid_argument);
}

TEST(MedianIntervalTest, LevelsOfOneOrMoreOrNaNAreRejected) {
  const std::vector<double> x = {1, 2, 3, 4, 5, 6};
  EXPECT_THROW(median_interval(x, 1.0), std::invalid_argument);
  EXPECT_THROW(median_interval(x, 1.5), std::invalid_argument);
  EXPECT_THROW(median_interval(x, NAN), std::invalid_argument);
}

}  // namespace
}  // namespace perfci::stats
