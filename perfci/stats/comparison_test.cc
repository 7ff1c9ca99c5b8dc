#include "perfci/stats/comparison.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "perfci/stats/verdict.h"

namespace perfci::stats {
namespace {

// 20 pairs drifting together (the machine slows down through the run), B a
// steady 10% above A with a little independent noise per side.
void synthetic_pairs(double true_ratio, std::vector<double>* a, std::vector<double>* b) {
  const double wobble[] = {0.004,  -0.003, 0.006,  -0.005, 0.001,  -0.002, 0.003,
                           -0.006, 0.005,  -0.001, 0.002,  -0.004, 0.006,  -0.003,
                           0.000,  0.004,  -0.005, 0.001,  -0.002, 0.003};
  for (int i = 0; i < 20; ++i) {
    const double drift = 1000 * (1 + 0.01 * i);
    a->push_back(drift * (1 + wobble[i]));
    b->push_back(drift * true_ratio * (1 - wobble[(i + 7) % 20]));
  }
}

TEST(ComparisonTest, ClearShiftIsEstimatedWithATightInterval) {
  std::vector<double> a;
  std::vector<double> b;
  synthetic_pairs(1.10, &a, &b);
  const Comparison c = compare_paired(a, b);
  EXPECT_FALSE(c.deterministic);
  EXPECT_EQ(c.ratios.size(), 20u);
  EXPECT_NEAR(c.ratio, 1.10, 0.01);
  EXPECT_NEAR(c.median_ratio, 1.10, 0.01);
  EXPECT_EQ(c.ratio, c.hl_ratio);
  EXPECT_TRUE(c.interval.contains(c.ratio));
  EXPECT_GT(c.interval.lo, 1.08);
  EXPECT_LT(c.interval.hi, 1.12);
  ASSERT_TRUE(c.test.has_value());
  EXPECT_TRUE(c.test->exact);
  EXPECT_DOUBLE_EQ(c.test->p_value, 2.0 / (1 << 20));
  EXPECT_GT(c.detectable_effect, 0);
  EXPECT_LT(c.detectable_effect, 0.02);
  EXPECT_NEAR(c.change(), c.ratio - 1, 0);
  // The drift is 19% over the run, yet pairing leaves only the wobble.
  EXPECT_GT(c.a.cv, 0.05);
  EXPECT_LT(c.log_ratio_sigma, 0.01);
}

TEST(ComparisonTest, EstimatorChoiceSelectsTheReportedRatio) {
  std::vector<double> a;
  std::vector<double> b;
  synthetic_pairs(0.95, &a, &b);
  ComparisonOptions options;
  options.estimator = Estimator::kMedian;
  const Comparison c = compare_paired(a, b, options);
  EXPECT_EQ(c.estimator, Estimator::kMedian);
  EXPECT_EQ(c.ratio, c.median_ratio);
  EXPECT_NEAR(c.ratio, 0.95, 0.01);
}

TEST(ComparisonTest, SameSeedReproducesEverything) {
  std::vector<double> a;
  std::vector<double> b;
  synthetic_pairs(1.02, &a, &b);
  EXPECT_EQ(compare_paired(a, b), compare_paired(a, b));
}

TEST(ComparisonTest, TooFewPairsCannotDetectAnything) {
  const std::vector<double> a = {100, 101, 99, 100};
  const std::vector<double> b = {120, 122, 118, 121};
  const Comparison c = compare_paired(a, b);
  EXPECT_TRUE(std::isinf(c.detectable_effect));
  EXPECT_DOUBLE_EQ(c.test->p_value, 0.125);
}

TEST(ComparisonTest, QuantisedCounterFallsBackToStddevSpread) {
  // Mostly identical counts: MAD 0, but two pairs differ.
  std::vector<double> a(12, 1000);
  std::vector<double> b(12, 1000);
  b[3] = 1010;
  b[8] = 990;
  const Comparison c = compare_paired(a, b);
  EXPECT_GT(c.log_ratio_sigma, 0);
  EXPECT_EQ(c.ratio, 1.0);
  EXPECT_EQ(c.test->zeros, 10u);
}

// Ten pairs within 0.5% and two slow trials: the MAD hardly sees them, the
// bootstrap interval does. The detectable effect follows the interval, so a
// run never claims to resolve a change its own interval straddles.
TEST(ComparisonTest, DetectableEffectIsNeverNarrowerThanTheInterval) {
  const std::vector<double> a = {1000, 1000, 1000, 1000, 1000, 1150,
                                 1000, 1000, 1000, 1000, 1000, 1000};
  const std::vector<double> b = {1004, 997,  1003, 998,  1001, 1000,
                                 999,  1005, 996,  1002, 1130, 1000};
  const Comparison c = compare_paired(a, b);
  const double from_mad = minimum_detectable_effect(c.log_ratio_sigma, 12);
  const double from_interval =
      interval_detectable_effect(std::log(c.interval.lo), std::log(c.interval.hi));
  EXPECT_GT(from_interval, from_mad);
  EXPECT_NEAR(c.detectable_effect, from_interval, 1e-12);  // exp and log round the bounds
}

TEST(ComparisonTest, DeterministicComparesTheSides) {
  const std::vector<double> a = {1'000'000};
  const std::vector<double> b = {1'003'500};
  const Comparison c = compare_deterministic(a, b);
  EXPECT_TRUE(c.deterministic);
  EXPECT_DOUBLE_EQ(c.ratio, 1.0035);
  EXPECT_EQ(c.interval.lo, c.ratio);
  EXPECT_EQ(c.interval.hi, c.ratio);
  EXPECT_FALSE(c.test.has_value());
  EXPECT_EQ(c.detectable_effect, 0);
  EXPECT_THROW(compare_deterministic({}, b), std::invalid_argument);
}

// Ten repetitions a side of a benchmark measured in two separate runs, B 10%
// slower; the sides have different lengths to show nothing pairs them.
TEST(ComparisonTest, UnpairedFindsAShiftWithTheRankSumTest) {
  const std::vector<double> a = {1000, 1004, 998, 1011, 995, 1002, 1007, 999, 1003, 996};
  std::vector<double> b;
  for (double v : {1001, 1006, 997, 1009, 994, 1003, 1005, 1000}) b.push_back(v * 1.10);
  const Comparison c = compare_unpaired(a, b);
  EXPECT_TRUE(c.unpaired());
  EXPECT_FALSE(c.test.has_value());
  ASSERT_TRUE(c.rank_sum.has_value());
  EXPECT_EQ(c.rank_sum->n_a, 10u);
  EXPECT_EQ(c.rank_sum->n_b, 8u);
  EXPECT_TRUE(c.ratios.empty());  // nothing per pair
  EXPECT_NEAR(c.ratio, 1.10, 0.01);
  EXPECT_NEAR(c.median_ratio, 1.10, 0.01);
  EXPECT_TRUE(c.interval.contains(c.ratio));
  EXPECT_GT(c.interval.lo, 1.08);
  EXPECT_LT(c.interval.hi, 1.12);
  ASSERT_TRUE(c.p_value().has_value());
  EXPECT_LT(*c.p_value(), 0.001);
  EXPECT_GT(c.detectable_effect, 0);
  EXPECT_LT(c.detectable_effect, 0.05);
  const Decision d = decide(c, MetricPolicy{}, std::nullopt);
  EXPECT_EQ(d.verdict, Verdict::kRegressed) << d.reason;
}

TEST(ComparisonTest, UnpairedIdenticalSidesAreUnchanged) {
  const std::vector<double> a = {1000, 1004, 998, 1011, 995, 1002, 1007, 999, 1003, 996};
  const Comparison c = compare_unpaired(a, a);
  EXPECT_DOUBLE_EQ(c.ratio, 1.0);
  EXPECT_DOUBLE_EQ(*c.p_value(), 1.0);
  EXPECT_EQ(decide(c, MetricPolicy{}, std::nullopt).verdict, Verdict::kUnchanged);
}

TEST(ComparisonTest, UnpairedWithOneRepetitionEachCannotDecide) {
  const std::vector<double> a = {1000};
  const std::vector<double> b = {1500};
  const Comparison c = compare_unpaired(a, b);
  EXPECT_NEAR(c.ratio, 1.5, 1e-12);
  EXPECT_TRUE(std::isinf(c.interval.hi));
  EXPECT_TRUE(std::isinf(c.detectable_effect));
  const Decision d = decide(c, MetricPolicy{}, std::nullopt);
  EXPECT_EQ(d.verdict, Verdict::kNoisy);
  EXPECT_NE(d.reason.find("too few repetitions"), std::string::npos) << d.reason;
}

TEST(ComparisonTest, UnpairedRejectsNonPositiveSamples) {
  const std::vector<double> a = {1, 2, 0};
  const std::vector<double> b = {1, 2};
  EXPECT_THROW(compare_unpaired(a, b), std::invalid_argument);
  EXPECT_THROW(compare_unpaired({}, b), std::invalid_argument);
}

TEST(ComparisonTest, InvalidSamplesAreRejected) {
  const std::vector<double> a = {1, 2, 3};
  const std::vector<double> b = {1, 2};
  EXPECT_THROW(compare_paired(a, b), std::invalid_argument);
}

// A count may be zero: allocations that appear are a rise past any threshold.
TEST(ComparisonTest, DeterministicCountsFromAndToZero) {
  const std::vector<double> zero = {0}, eight = {8};
  EXPECT_EQ(compare_deterministic(zero, zero).ratio, 1.0);
  const Comparison rose = compare_deterministic(zero, eight);
  EXPECT_EQ(rose.ratio, INFINITY);
  EXPECT_EQ(rose.interval.lo, INFINITY);
  EXPECT_EQ(compare_deterministic(eight, zero).ratio, 0.0);
}

TEST(ComparisonTest, DeterministicWithAnEmptySecondSideIsRejected) {
  const std::vector<double> a = {1'000'000};
  EXPECT_THROW(compare_deterministic(a, {}), std::invalid_argument);
}

// Unpaired samples are compared on the log scale: an infinite or NaN sample
// is refused like a non-positive one, on either side.
TEST(ComparisonTest, UnpairedRejectsNonFiniteSamples) {
  const std::vector<double> fine = {1, 2, 3};
  const std::vector<double> inf = {1, INFINITY};
  const std::vector<double> nan = {NAN, 2};
  EXPECT_THROW(compare_unpaired(fine, inf), std::invalid_argument);
  EXPECT_THROW(compare_unpaired(nan, fine), std::invalid_argument);
}

TEST(ComparisonTest, PValueComesFromWhicheverTestRan) {
  Comparison none;
  EXPECT_FALSE(none.p_value().has_value());
  const std::vector<double> a = {1, 2};
  EXPECT_FALSE(compare_deterministic(a, a).p_value().has_value());
}

}  // namespace
}  // namespace perfci::stats
