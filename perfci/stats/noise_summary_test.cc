#include "perfci/stats/noise_summary.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace perfci::stats {
namespace {

TEST(NoiseSummaryTest, AaRunOfAQuietMachine) {
  // Same binary twice: per-pair ratios scatter about 1 by ~1%.
  const double jitter[] = {0.010,  -0.008, 0.004,  -0.012, 0.007,  -0.002, 0.011,
                           -0.006, 0.003,  -0.009, 0.005,  -0.004, 0.009,  -0.011,
                           0.001,  0.006,  -0.007, 0.002,  -0.003, 0.008};
  std::vector<double> a;
  std::vector<double> b;
  for (int i = 0; i < 20; ++i) {
    a.push_back(500 + 5 * i);
    b.push_back((500 + 5 * i) * (1 + jitter[i]));
  }
  const NoiseSummary n = summarize_noise(a, b);
  EXPECT_EQ(n.pairs, 20u);
  EXPECT_NEAR(n.ratio, 1.0, 0.005);
  EXPECT_TRUE(n.interval.contains(1.0));
  EXPECT_GT(n.p_value, 0.05);
  EXPECT_GT(n.pair_noise, 0.005);
  EXPECT_LT(n.pair_noise, 0.02);
  EXPECT_NEAR(n.p95_abs_change, 0.011, 0.0011);
  EXPECT_GT(n.detectable_effect, 0);
  EXPECT_LT(n.detectable_effect, 0.02);
  EXPECT_GT(n.cv_a, 0);
}

TEST(NoiseSummaryTest, BuiltFromAnExistingComparison) {
  const std::vector<double> a = {10, 11, 12, 13, 14, 15, 16, 17};
  const std::vector<double> b = {10.1, 10.9, 12.2, 12.9, 14.1, 15.0, 16.2, 16.8};
  const Comparison c = compare_paired(a, b);
  const NoiseSummary n = summarize_noise(c);
  EXPECT_EQ(n, summarize_noise(a, b));
  EXPECT_EQ(n.p_value, c.test->p_value);
  EXPECT_NEAR(n.pair_noise, std::expm1(c.log_ratio_sigma), 1e-15);
}

}  // namespace
}  // namespace perfci::stats
