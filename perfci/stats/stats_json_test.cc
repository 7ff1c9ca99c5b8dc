#include "perfci/stats/stats_json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

namespace perfci::stats {
namespace {

using nlohmann::json;

Comparison sample_comparison() {
  const std::vector<double> a = {100, 102, 98, 101, 99, 100, 103, 97};
  const std::vector<double> b = {110, 111, 108, 112, 109, 110, 113, 107};
  return compare_paired(a, b);
}

TEST(StatsJsonTest, ComparisonRoundTrips) {
  const Comparison c = sample_comparison();
  const json j = c;
  EXPECT_EQ(j.at("estimator"), "hodges-lehmann");
  EXPECT_EQ(j.at("test").at("name"), "wilcoxon-signed-rank");
  EXPECT_EQ(j.at("ratios").size(), 8u);
  EXPECT_DOUBLE_EQ(j.at("change").get<double>(), c.ratio - 1);
  EXPECT_EQ(j.get<Comparison>(), c);
  // Through text as a report would store it.
  EXPECT_EQ(json::parse(j.dump()).get<Comparison>(), c);
}

TEST(StatsJsonTest, UnpairedComparisonRoundTripsWithItsRankSumTest) {
  const std::vector<double> a = {100, 102, 98, 101, 99, 100, 103, 97, 104};
  const std::vector<double> b = {110, 111, 108, 112, 109, 110, 113};
  const Comparison c = compare_unpaired(a, b);
  const json j = c;
  EXPECT_EQ(j.at("test").at("name"), "mann-whitney-u");
  EXPECT_EQ(j.at("test").at("n_a"), 9);
  EXPECT_EQ(j.at("test").at("n_b"), 7);
  EXPECT_TRUE(j.at("ratios").empty());
  const Comparison back = json::parse(j.dump()).get<Comparison>();
  EXPECT_EQ(back, c);
  EXPECT_TRUE(back.unpaired());
}

TEST(StatsJsonTest, InfiniteDetectableEffectIsNull) {
  const std::vector<double> a = {1, 2, 3};
  const std::vector<double> b = {1.1, 2.2, 3.3};
  const Comparison c = compare_paired(a, b);
  ASSERT_TRUE(std::isinf(c.detectable_effect));
  const json j = c;
  EXPECT_TRUE(j.at("detectable_effect").is_null());
  EXPECT_TRUE(std::isinf(j.get<Comparison>().detectable_effect));
}

TEST(StatsJsonTest, DeterministicComparisonHasNoTest) {
  const std::vector<double> a = {5e6};
  const std::vector<double> b = {5.1e6};
  const Comparison c = compare_deterministic(a, b);
  const json j = c;
  EXPECT_TRUE(j.at("test").is_null());
  EXPECT_EQ(j.get<Comparison>(), c);
}

TEST(StatsJsonTest, OutcomeCarriesVerdictReasonAndQ) {
  std::vector<MetricSamples> run = {
      {"read_join",
       "wall",
       {0.03, Direction::kHigherIsWorse, false},
       {100, 102, 98, 101, 99, 100, 103, 97},
       {110, 111, 108, 112, 109, 110, 113, 107}},
      {"read_join", "callgrind.ir", {0.002, Direction::kHigherIsWorse, true}, {5e6}, {5e6}}};
  const std::vector<MetricOutcome> out = analyze_run(run);
  const json j = out;
  EXPECT_EQ(j[0].at("verdict"), "regressed");
  EXPECT_EQ(j[0].at("policy").at("direction"), "higher-is-worse");
  EXPECT_TRUE(j[0].at("q_value").is_number());
  EXPECT_TRUE(j[1].at("q_value").is_null());
  EXPECT_EQ(j[1].at("verdict"), "unchanged");
  const auto back = json::parse(j.dump()).get<std::vector<MetricOutcome>>();
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].comparison, out[0].comparison);
  EXPECT_EQ(back[0].decision, out[0].decision);
  EXPECT_EQ(back[0].q_value, out[0].q_value);
  EXPECT_EQ(back[1].policy, out[1].policy);
}

TEST(StatsJsonTest, NoiseSummaryAndOptionsRoundTrip) {
  const NoiseSummary n = summarize_noise(sample_comparison());
  EXPECT_EQ(json(n).get<NoiseSummary>(), n);

  RunAnalysisOptions options;
  options.comparison.estimator = Estimator::kMedian;
  options.comparison.bootstrap.seed = 0xfedcba9876543210ULL;
  options.comparison.bootstrap.method = IntervalMethod::kPercentile;
  options.comparison.wilcoxon.zero_method = ZeroMethod::kDrop;
  options.verdict.require_interval_beyond_threshold = true;
  const json j = options;
  EXPECT_EQ(j.at("comparison").at("bootstrap").at("method"), "percentile");
  const RunAnalysisOptions back = json::parse(j.dump()).get<RunAnalysisOptions>();
  EXPECT_EQ(json(back), j);
  EXPECT_EQ(back.comparison.bootstrap.seed, 0xfedcba9876543210ULL);
}

TEST(StatsJsonTest, UnknownEnumNamesAreRejected) {
  EXPECT_THROW(json("sideways").get<Verdict>(), std::invalid_argument);
  EXPECT_THROW(json("mean").get<Estimator>(), std::invalid_argument);
  EXPECT_EQ(json("noisy").get<Verdict>(), Verdict::kNoisy);
}

}  // namespace
}  // namespace perfci::stats
