#include "perfci/stats/rank_sum.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

namespace perfci::stats {
namespace {

// Expected values are SciPy 1.10's mannwhitneyu(b, a, alternative="two-sided")
// (method "auto"), the call google/benchmark's compare.py makes.

TEST(RankSumTest, SmallSamplesWithoutTiesUseTheExactDistribution) {
  const std::vector<double> a{1.0, 2.0, 3.5, 4.0};
  const std::vector<double> b{5.0, 6.0, 3.0, 7.5, 8.0};
  const RankSumResult r = rank_sum_test(a, b);
  EXPECT_TRUE(r.exact);
  EXPECT_FALSE(r.ties);
  EXPECT_EQ(r.n_a, 4u);
  EXPECT_EQ(r.n_b, 5u);
  EXPECT_DOUBLE_EQ(r.u_b, 18.0);
  EXPECT_NEAR(r.p_value, 0.06349206349206349, 1e-12);
}

TEST(RankSumTest, LargerSamplesUseTheContinuityCorrectedNormalApproximation) {
  const std::vector<double> a{10, 11, 12, 13, 14, 15, 16, 17, 18.5};
  const std::vector<double> b{12.5, 14.5, 16.5, 18, 19, 20, 21, 22, 23};
  const RankSumResult r = rank_sum_test(a, b);
  EXPECT_FALSE(r.exact);
  EXPECT_DOUBLE_EQ(r.u_b, 68.0);
  EXPECT_NEAR(r.p_value, 0.01711823970479015, 1e-9);
  EXPECT_GT(r.z, 0);  // B ranks higher
}

TEST(RankSumTest, TiesTakeMidranksAndTheTieCorrectedVariance) {
  const std::vector<double> a{1, 2, 2, 3, 3, 3};
  const std::vector<double> b{2, 3, 4, 4, 5};
  const RankSumResult r = rank_sum_test(a, b);
  EXPECT_TRUE(r.ties);
  EXPECT_FALSE(r.exact);  // SciPy's exact distribution does not hold under ties
  EXPECT_DOUBLE_EQ(r.u_b, 24.5);
  EXPECT_NEAR(r.p_value, 0.08871369199677616, 1e-9);
}

TEST(RankSumTest, TooFewSamplesCannotBeSignificant) {
  const std::vector<double> one_a{1.0};
  const std::vector<double> one_b{2.0};
  EXPECT_DOUBLE_EQ(rank_sum_test(one_a, one_b).p_value, 1.0);
  const std::vector<double> a{1, 2, 3};
  const std::vector<double> b{4, 5, 6};
  // Complete separation, yet 2 / C(6, 3) = 0.1: the best 3 vs 3 can do.
  EXPECT_NEAR(rank_sum_test(a, b).p_value, 0.1, 1e-12);
  EXPECT_NEAR(rank_sum_min_p_value(3, 3), 0.1, 1e-12);
  EXPECT_NEAR(rank_sum_min_p_value(4, 4), 2.0 / 70, 1e-12);
  EXPECT_DOUBLE_EQ(rank_sum_min_p_value(1, 1), 1.0);
}

TEST(RankSumTest, AllValuesTiedGiveNoEvidence) {
  const std::vector<double> a(10, 5.0);
  const std::vector<double> b(10, 5.0);
  const RankSumResult r = rank_sum_test(a, b);
  EXPECT_DOUBLE_EQ(r.p_value, 1.0);
  EXPECT_DOUBLE_EQ(r.z, 0.0);
}

TEST(RankSumTest, NullCountsAreTheGaussianBinomial) {
  // Enumerated by hand (and by itertools.combinations): orderings of 2 A and
  // 3 B by U.
  const std::vector<double> c = rank_sum_null_counts(2, 3);
  EXPECT_EQ(c, (std::vector<double>{1, 1, 2, 2, 2, 1, 1}));
  EXPECT_EQ(rank_sum_null_counts(3, 2), c);
  double total = 0;
  for (double v : rank_sum_null_counts(9, 9)) total += v;
  EXPECT_DOUBLE_EQ(total, 48620);  // C(18, 9)
}

TEST(RankSumTest, HodgesLehmannShiftAndItsDistributionFreeInterval) {
  const std::vector<double> a{10, 11, 12, 13, 14, 15, 16, 17, 18.5};
  const std::vector<double> b{12.5, 14.5, 16.5, 18, 19, 20, 21, 22, 23};
  const ShiftEstimate s = hodges_lehmann_shift(a, b, 0.95);
  EXPECT_DOUBLE_EQ(s.estimate, 4.5);
  // The tabulated critical U for 9 vs 9 at 0.05 is 17: the interval runs from
  // the 18th to the 64th of the 81 sorted differences.
  EXPECT_DOUBLE_EQ(s.lo, 1.0);
  EXPECT_DOUBLE_EQ(s.hi, 8.0);
  EXPECT_DOUBLE_EQ(s.level, 0.95);
}

TEST(RankSumTest, ShiftIntervalIsUnboundedWhenTheSamplesAreTooFew) {
  const std::vector<double> a{1, 2, 3};
  const std::vector<double> b{4, 5, 6};
  const ShiftEstimate s = hodges_lehmann_shift(a, b, 0.95);
  EXPECT_DOUBLE_EQ(s.estimate, 3.0);
  EXPECT_TRUE(std::isinf(s.lo) && s.lo < 0);
  EXPECT_TRUE(std::isinf(s.hi) && s.hi > 0);
}

TEST(RankSumTest, RejectsEmptyOrNonFiniteSamples) {
  const std::vector<double> empty;
  const std::vector<double> one{1.0};
  const std::vector<double> bad{1.0, NAN};
  EXPECT_THROW(rank_sum_test(empty, one), std::invalid_argument);
  EXPECT_THROW(rank_sum_test(one, bad), std::invalid_argument);
  EXPECT_THROW(hodges_lehmann_shift(one, one, 1.0), std::invalid_argument);
}

// Either side may carry the bad value: both are checked before ranking (a NaN
// would otherwise sort anywhere and give a p-value for nothing).
TEST(RankSumTest, RejectsANonFiniteValueOnEitherSideAndAnEmptySecondSide) {
  const std::vector<double> empty;
  const std::vector<double> fine{1.0, 2.0, 3.0};
  const std::vector<double> nan_first{NAN, 2.0};
  const std::vector<double> inf{1.0, INFINITY};
  const std::vector<double> minus_inf{-INFINITY, 1.0};
  EXPECT_THROW(rank_sum_test(fine, empty), std::invalid_argument);
  EXPECT_THROW(rank_sum_test(nan_first, fine), std::invalid_argument);
  EXPECT_THROW(rank_sum_test(inf, fine), std::invalid_argument);
  EXPECT_THROW(rank_sum_test(fine, minus_inf), std::invalid_argument);
}

}  // namespace
}  // namespace perfci::stats
