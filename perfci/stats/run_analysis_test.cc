#include "perfci/stats/run_analysis.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace perfci::stats {
namespace {

// n pairs; B = A x ratio x (1 + small deterministic wobble).
MetricSamples pairs(std::string benchmark, std::string metric, double ratio, int n = 16,
                    MetricPolicy policy = {}) {
  MetricSamples s{std::move(benchmark), std::move(metric), policy, {}, {}, false};
  for (int i = 0; i < n; ++i) {
    const double wobble = 0.01 * std::sin(1.7 * i + ratio);
    s.a.push_back(1000 + 10 * i);
    s.b.push_back((1000 + 10 * i) * ratio * (1 + wobble));
  }
  return s;
}

TEST(RunAnalysisTest, OneSlowBenchmarkAmongUnchangedOnes) {
  std::vector<MetricSamples> run = {
      pairs("read_full_scan", "wall", 1.00),
      pairs("read_join", "wall", 1.10),
      pairs("point_lookup", "wall", 1.00),
      pairs("tpcc_lite", "tpmc", 1.00, 16, {0.03, Direction::kHigherIsBetter, false}),
      {"read_join", "callgrind.ir", {0.002, Direction::kHigherIsWorse, true}, {5e6}, {5.6e6}},
  };
  const std::vector<MetricOutcome> out = analyze_run(run);
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(out[0].benchmark, "read_full_scan");
  EXPECT_EQ(out[0].decision.verdict, Verdict::kUnchanged) << out[0].decision.reason;
  EXPECT_EQ(out[1].decision.verdict, Verdict::kRegressed) << out[1].decision.reason;
  EXPECT_EQ(out[2].decision.verdict, Verdict::kUnchanged) << out[2].decision.reason;
  EXPECT_EQ(out[3].decision.verdict, Verdict::kUnchanged) << out[3].decision.reason;
  EXPECT_EQ(out[4].decision.verdict, Verdict::kRegressed) << out[4].decision.reason;
  EXPECT_FALSE(out[4].q_value.has_value());
  EXPECT_TRUE(out[4].comparison.deterministic);
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(out[i].q_value.has_value());
    EXPECT_GE(*out[i].q_value, out[i].comparison.test->p_value);
  }
}

TEST(RunAnalysisTest, QValuesAreAdjustedAcrossTheRun) {
  // Two clear changes (exact p = 2/2^8) and one A/A-like benchmark: BH
  // scales the smallest p-values by m / rank = 3/2.
  std::vector<MetricSamples> run = {pairs("a", "wall", 1.2, 8), pairs("b", "wall", 1.2, 8),
                                    pairs("c", "wall", 1.0, 8)};
  const std::vector<MetricOutcome> out = analyze_run(run);
  EXPECT_DOUBLE_EQ(out[0].comparison.test->p_value, 2.0 / 256);
  EXPECT_DOUBLE_EQ(*out[0].q_value, 2.0 / 256 * 3 / 2);
  EXPECT_DOUBLE_EQ(*out[1].q_value, 2.0 / 256 * 3 / 2);
  EXPECT_GE(*out[2].q_value, out[2].comparison.test->p_value);
}

TEST(RunAnalysisTest, SeedsDependOnNamesNotPositions) {
  std::vector<MetricSamples> one = {pairs("x", "wall", 1.05)};
  std::vector<MetricSamples> two = {pairs("w", "wall", 1.01), pairs("x", "wall", 1.05)};
  EXPECT_EQ(analyze_run(one)[0].comparison.interval, analyze_run(two)[1].comparison.interval);
  EXPECT_NE(derive_seed(1, "ab", "c"), derive_seed(1, "a", "bc"));
  EXPECT_NE(derive_seed(1, "x", "wall"), derive_seed(2, "x", "wall"));
}

TEST(RunAnalysisTest, InvalidSamplesNameTheirBenchmark) {
  std::vector<MetricSamples> run = {{"broken", "wall", {}, {1, 2}, {1}}};
  try {
    analyze_run(run);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("broken / wall"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace perfci::stats
