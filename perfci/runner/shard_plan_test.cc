#include "perfci/runner/shard_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>

#include "perfci/util/error.h"

namespace perfci {
namespace {

std::map<std::string, ShardCost> measured(const std::map<std::string, double>& seconds) {
  std::map<std::string, ShardCost> out;
  for (const auto& [n, s] : seconds) out[n] = {s, "measured"};
  return out;
}

double mean(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

TEST(PlanShards, EveryBenchmarkInExactlyOneShardInTheBinarysOrder) {
  std::vector<std::string> names{"a", "b", "c", "d", "e", "f", "g"};
  auto plan = plan_shards(
      names, measured({{"a", 5}, {"b", 1}, {"c", 4}, {"d", 2}, {"e", 3}, {"f", 3}, {"g", 2}}), 3);
  ASSERT_EQ(plan.entries.size(), names.size());
  std::vector<std::string> seen;
  for (int k = 1; k <= 3; ++k) {
    auto part = plan.names_of(k);
    EXPECT_FALSE(part.empty()) << "shard " << k;
    EXPECT_TRUE(std::is_sorted(part.begin(), part.end())) << "shard " << k;
    seen.insert(seen.end(), part.begin(), part.end());
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, names);
  // 20 s in all: LPT gives 7/7/6 here (a+g, c+d+b, e+f).
  auto s = plan.shard_seconds();
  EXPECT_DOUBLE_EQ(s[0] + s[1] + s[2], 20);
  EXPECT_DOUBLE_EQ(*std::max_element(s.begin(), s.end()), 7);
}

TEST(PlanShards, TheSameInputsGiveTheSamePlan) {
  std::vector<std::string> names;
  std::map<std::string, double> seconds;
  for (int i = 0; i < 40; ++i) {
    names.push_back("bench/" + std::to_string(i));
    seconds[names.back()] = 1 + (i * 37 % 11);  // ties on purpose
  }
  auto first = plan_shards(names, measured(seconds), 4);
  for (int round = 0; round < 3; ++round)
    EXPECT_EQ(plan_shards(names, measured(seconds), 4), first);
}

TEST(PlanShards, BalancedWithinAFewPercentOnSkewedCosts) {
  // A suite shaped like the engine's: a few heavy benchmarks, many light.
  std::vector<std::string> names;
  std::map<std::string, double> seconds;
  for (int i = 0; i < 30; ++i) {
    names.push_back("b" + std::to_string(i));
    seconds[names.back()] = i < 4 ? 20.0 + i : 1.0 + 0.25 * i;
  }
  auto plan = plan_shards(names, measured(seconds), 3);
  auto s = plan.shard_seconds();
  double m = mean(s);
  for (double x : s) {
    EXPECT_LE(x, 1.05 * m);
    EXPECT_GE(x, 0.95 * m);
  }
}

TEST(PlanShards, UnknownCostsTakeTheMedianAndNoCostsSplitByCount) {
  auto plan = plan_shards({"a", "b", "c", "new"}, measured({{"a", 1}, {"b", 2}, {"c", 9}}), 2);
  EXPECT_EQ(plan.entries[3].cost, (ShardCost{2, "median"}));

  auto by_count = plan_shards({"a", "b", "c", "d", "e"}, {}, 2);
  for (const auto& e : by_count.entries) EXPECT_EQ(e.cost, (ShardCost{1, "none"}));
  EXPECT_EQ(by_count.names_of(1), (std::vector<std::string>{"a", "c", "e"}));
  EXPECT_EQ(by_count.names_of(2), (std::vector<std::string>{"b", "d"}));
}

TEST(PlanShards, ZeroCostBenchmarksAreDealtRound) {
  // Benchmarks no meter of this run measures cost nothing; they must not
  // all land on one shard.
  auto plan =
      plan_shards({"a", "b", "c", "d"}, measured({{"a", 0}, {"b", 0}, {"c", 0}, {"d", 0}}), 2);
  EXPECT_EQ(plan.names_of(1).size(), 2u);
  EXPECT_EQ(plan.names_of(2).size(), 2u);
}

TEST(PlanShards, RefusesMoreShardsThanBenchmarksAndDuplicateNames) {
  EXPECT_THROW(plan_shards({"a", "b"}, {}, 3), Error);
  EXPECT_THROW(plan_shards({"a", "a", "b"}, {}, 2), Error);
  EXPECT_THROW(plan_shards({"a"}, {}, 0), Error);
  EXPECT_NO_THROW(plan_shards({"a"}, {}, 1));
}

TEST(ExpectedCosts, MeasuredWhereCostSExistsEstimatedElseAndOnlyTheMetersOfThisRun) {
  RunResults past;
  BenchmarkResult a;
  a.name = "a";
  a.iterations = 1000;
  a.real_time_ns = 2e5;  // 0.2 s timed
  a.callgrind = CallgrindResult{5, 50'000'000, 1e7, {}};
  a.cost_s = {{"wall", 0.3}, {"callgrind", 4.0}};
  BenchmarkResult b = a;
  b.name = "b";
  b.cost_s.clear();  // a baseline from before cost_s
  BenchmarkResult failed = a;
  failed.name = "failed";
  failed.error = "crashed";
  past.benchmarks = {a, b, failed};

  MeasureOptions o;
  o.meters = {"wall", "callgrind"};
  o.callgrind_filter = "^(a|b)$";
  auto costs = expected_costs({"a", "b", "failed", "absent"}, o, &past);
  ASSERT_EQ(costs.size(), 2u);
  EXPECT_EQ(costs["a"], (ShardCost{4.3, "measured"}));
  EXPECT_EQ(costs["b"].source, "estimated");
  EXPECT_DOUBLE_EQ(costs["b"].seconds, 0.2 + 1.0 + 2e-8 * 50'000'000);

  o.meters = {"callgrind"};
  o.callgrind_filter = "^a$";  // b is measured by no meter: it costs nothing
  costs = expected_costs({"a", "b"}, o, &past);
  EXPECT_EQ(costs["a"], (ShardCost{4.0, "measured"}));
  EXPECT_EQ(costs["b"], (ShardCost{0, "measured"}));

  EXPECT_TRUE(expected_costs({"a"}, o, nullptr).empty());
  o.callgrind_filter = "(";
  EXPECT_THROW(expected_costs({"a"}, o, &past), Error);
}

}  // namespace
}  // namespace perfci
