#include "perfci/stats/verdict.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

namespace perfci::stats {
namespace {

// A comparison with the given estimate and interval, as compare_paired
// would report it.
Comparison stats_of(double ratio, double lo, double hi, double p = 0.5) {
  Comparison c;
  c.ratio = c.hl_ratio = c.median_ratio = ratio;
  c.interval = {lo, hi, 0.95};
  WilcoxonResult w;
  w.n = 20;
  w.p_value = p;
  w.exact = true;
  c.test = w;
  return c;
}

const MetricPolicy kWall{0.03, Direction::kHigherIsWorse, false};
const MetricPolicy kThroughput{0.03, Direction::kHigherIsBetter, false};

TEST(VerdictTest, ClearRegression) {
  const Decision d = decide(stats_of(1.104, 1.081, 1.129), kWall, 0.002);
  EXPECT_EQ(d.verdict, Verdict::kRegressed);
  EXPECT_EQ(d.reason, "+10.4% [+8.1%, +12.9%], q=0.002: significant and beyond the 3% threshold");
}

TEST(VerdictTest, ClearImprovement) {
  const Decision d = decide(stats_of(0.80, 0.78, 0.83), kWall, 0.0001);
  EXPECT_EQ(d.verdict, Verdict::kImproved);
  EXPECT_EQ(d.reason, "-20.0% [-22.0%, -17.0%], q=0.0001: significant and beyond the 3% threshold");
}

TEST(VerdictTest, DirectionFlipsForThroughput) {
  EXPECT_EQ(decide(stats_of(1.104, 1.081, 1.129), kThroughput, 0.002).verdict, Verdict::kImproved);
  EXPECT_EQ(decide(stats_of(0.80, 0.78, 0.83), kThroughput, 0.002).verdict, Verdict::kRegressed);
}

TEST(VerdictTest, UnchangedWhenTheIntervalIsWithinTheThreshold) {
  const Decision quiet = decide(stats_of(1.004, 0.992, 1.015), kWall, 0.41);
  EXPECT_EQ(quiet.verdict, Verdict::kUnchanged);
  EXPECT_EQ(quiet.reason, "+0.40% [-0.80%, +1.5%], q=0.41: within the 3% threshold");
  const Decision small = decide(stats_of(1.012, 1.009, 1.015), kWall, 0.001);
  EXPECT_EQ(small.verdict, Verdict::kUnchanged);
  EXPECT_NE(small.reason.find("significant but within"), std::string::npos);
}

TEST(VerdictTest, NoisyWhenTheIntervalStraddlesTheThreshold) {
  const Decision d = decide(stats_of(1.02, 0.99, 1.051), kWall, 0.21);
  EXPECT_EQ(d.verdict, Verdict::kNoisy);
  EXPECT_NE(d.reason.find("straddles the 3% threshold"), std::string::npos);
  EXPECT_EQ(decide(stats_of(0.98, 0.95, 1.01), kWall, 0.3).verdict, Verdict::kNoisy);
}

TEST(VerdictTest, BeyondTheThresholdButNotSignificantIsNoisy) {
  // FDR control can leave a clear-looking change without significance.
  const Decision d = decide(stats_of(1.05, 1.035, 1.065), kWall, 0.08);
  EXPECT_EQ(d.verdict, Verdict::kNoisy);
  EXPECT_NE(d.reason.find("not significant"), std::string::npos);
}

// Issue 23: an A/A whose few pairs were all swayed one way by a burst of
// load gets a significant signed-rank test, while the bootstrap interval,
// which sees the size of each pair, still holds 1. No verdict then.
TEST(VerdictTest, ASignificantTestWhoseIntervalHoldsNoChangeIsNoisy) {
  const Decision up = decide(stats_of(1.045, 0.997, 1.09), kWall, 0.03);
  EXPECT_EQ(up.verdict, Verdict::kNoisy);
  EXPECT_NE(up.reason.find("the interval still holds no change"), std::string::npos) << up.reason;
  EXPECT_EQ(decide(stats_of(0.95, 0.91, 1.001), kWall, 0.03).verdict, Verdict::kNoisy);
  // The same estimate with an interval clear of 1 is a regression.
  EXPECT_EQ(decide(stats_of(1.045, 1.004, 1.09), kWall, 0.03).verdict, Verdict::kRegressed);
}

TEST(VerdictTest, SignificanceWithoutSizeIsNotARegression) {
  EXPECT_EQ(decide(stats_of(1.025, 1.02, 1.029), kWall, 1e-6).verdict, Verdict::kUnchanged);
}

TEST(VerdictTest, IntervalRuleDecidesEstimatesNearTheThreshold) {
  // +4%, significant, but the interval reaches below 3%.
  const Comparison c = stats_of(1.04, 1.02, 1.06);
  EXPECT_EQ(decide(c, kWall, 0.001).verdict, Verdict::kRegressed);
  VerdictOptions strict;
  strict.require_interval_beyond_threshold = true;
  EXPECT_EQ(decide(c, kWall, 0.001, strict).verdict, Verdict::kNoisy);
  EXPECT_EQ(decide(stats_of(1.06, 1.04, 1.08), kWall, 0.001, strict).verdict, Verdict::kRegressed);
}

TEST(VerdictTest, WithoutAQValueTheRawPValueDecides) {
  EXPECT_EQ(decide(stats_of(1.10, 1.08, 1.12, 0.001), kWall, std::nullopt).verdict,
            Verdict::kRegressed);
  EXPECT_EQ(decide(stats_of(1.10, 1.08, 1.12, 0.2), kWall, std::nullopt).verdict, Verdict::kNoisy);
}

TEST(VerdictTest, AlphaIsTheCaller) {
  VerdictOptions loose;
  loose.alpha = 0.1;
  EXPECT_EQ(decide(stats_of(1.05, 1.035, 1.065), kWall, 0.08, loose).verdict, Verdict::kRegressed);
}

TEST(VerdictTest, DeterministicMetricComparesByThresholdAlone) {
  const MetricPolicy ir{0.002, Direction::kHigherIsWorse, true};
  const std::vector<double> a = {1'000'000};
  const std::vector<double> up = {1'003'500};
  const std::vector<double> flat = {1'001'000};
  const std::vector<double> down = {990'000};
  const Decision d = decide(compare_deterministic(a, up), ir, std::nullopt);
  EXPECT_EQ(d.verdict, Verdict::kRegressed);
  EXPECT_EQ(d.reason, "+0.35% (deterministic): beyond the 0.2% threshold");
  EXPECT_EQ(decide(compare_deterministic(a, flat), ir, std::nullopt).verdict, Verdict::kUnchanged);
  EXPECT_EQ(decide(compare_deterministic(a, down), ir, std::nullopt).verdict, Verdict::kImproved);
  EXPECT_EQ(decide(compare_deterministic(a, a), ir, std::nullopt).verdict, Verdict::kUnchanged);
}

TEST(VerdictTest, EndToEndFromSamples) {
  // 12 pairs, B 10% slower with 1% noise: a regression at the 3% threshold;
  // the same B against a 15% threshold is unchanged.
  const double noise[] = {0.01,   -0.01, 0.005,  -0.005, 0.0,    0.008,
                          -0.008, 0.003, -0.003, 0.006,  -0.006, 0.002};
  std::vector<double> a;
  std::vector<double> b;
  for (int i = 0; i < 12; ++i) {
    a.push_back(200.0);
    b.push_back(220.0 * (1 + noise[i]));
  }
  const Comparison c = compare_paired(a, b);
  EXPECT_EQ(decide(c, kWall, c.test->p_value).verdict, Verdict::kRegressed);
  EXPECT_EQ(decide(c, {0.15, Direction::kHigherIsWorse, false}, c.test->p_value).verdict,
            Verdict::kUnchanged);
  // At a threshold equal to the true change the interval straddles it.
  VerdictOptions strict;
  strict.require_interval_beyond_threshold = true;
  EXPECT_EQ(decide(c, {0.10, Direction::kHigherIsWorse, false}, c.test->p_value, strict).verdict,
            Verdict::kNoisy);
}

TEST(VerdictTest, InvalidSettingsAreRejected) {
  const Comparison c = stats_of(1.0, 0.99, 1.01);
  EXPECT_THROW(decide(c, {-0.01, Direction::kHigherIsWorse, false}, 0.5), std::invalid_argument);
  VerdictOptions bad;
  bad.alpha = 0;
  EXPECT_THROW(decide(c, kWall, 0.5, bad), std::invalid_argument);
}

TEST(VerdictTest, NamesRoundTrip) {
  for (Verdict v : {Verdict::kRegressed, Verdict::kImproved, Verdict::kUnchanged, Verdict::kNoisy})
    EXPECT_EQ(parse_verdict(to_string(v)), v);
  for (Direction d : {Direction::kHigherIsWorse, Direction::kHigherIsBetter})
    EXPECT_EQ(parse_direction(to_string(d)), d);
  EXPECT_FALSE(parse_verdict("worse").has_value());
}

// A BCa interval can lie wholly beyond the threshold while its own estimate
// is within it: neither "unchanged" nor a change can be claimed.
TEST(VerdictTest, AnIntervalBeyondTheThresholdAroundAnEstimateWithinIsNoisy) {
  const Decision up = decide(stats_of(1.01, 1.04, 1.06), kWall, 0.01);
  EXPECT_EQ(up.verdict, Verdict::kNoisy);
  EXPECT_EQ(up.reason,
            "+1.0% [+4.0%, +6.0%], q=0.01: estimate within but interval beyond the 3% threshold");
  const Decision down = decide(stats_of(0.99, 0.94, 0.96), kWall, 0.5);
  EXPECT_EQ(down.verdict, Verdict::kNoisy);
  EXPECT_NE(down.reason.find("estimate within but interval beyond"), std::string::npos);
}

TEST(VerdictTest, AlphaOfOneOrNaNIsRejected) {
  const Comparison c = stats_of(1.0, 0.99, 1.01);
  for (double alpha : {1.0, double{NAN}, -0.5}) {
    VerdictOptions bad;
    bad.alpha = alpha;
    EXPECT_THROW(decide(c, kWall, 0.5, bad), std::invalid_argument) << alpha;
  }
  EXPECT_THROW(decide(c, {NAN, Direction::kHigherIsWorse, false}, 0.5), std::invalid_argument);
}

}  // namespace
}  // namespace perfci::stats
