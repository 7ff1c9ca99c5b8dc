#include "perfci/runner/metric_policy.h"

#include <gtest/gtest.h>

#include "perfci/util/error.h"

namespace perfci {
namespace {

TEST(MetricPolicies, DefaultsPerKind) {
  MetricPolicies p;
  EXPECT_DOUBLE_EQ(p.policy("x", "wall", "real_time_ns").threshold, 0.03);
  EXPECT_DOUBLE_EQ(p.policy("x", "counters", "instructions").threshold, 0.01);
  auto cg = p.policy("x", "callgrind", "ir");
  EXPECT_DOUBLE_EQ(cg.threshold, 0.002);
  EXPECT_TRUE(cg.deterministic);
  EXPECT_FALSE(p.policy("x", "wall", "real_time_ns").deterministic);
  EXPECT_EQ(p.policy("x", "wall", "real_time_ns").direction, stats::Direction::kHigherIsWorse);
}

TEST(MetricPolicies, MostSpecificEntryWins) {
  auto config = nlohmann::json::parse(R"({"metrics": {
    "wall": {"threshold": 0.05, "per_benchmark": {"engine/tpcc.*": 0.1}},
    "counters": {"per_metric": {"context-switches": 0.25},
                 "per_benchmark": {"engine/point_lookup": 0.02}}}})");
  auto p = MetricPolicies::from_config(config, "perfci.json");
  EXPECT_DOUBLE_EQ(p.policy("engine/read_join", "wall", "real_time_ns").threshold, 0.05);
  EXPECT_DOUBLE_EQ(p.policy("engine/tpcc_lite", "wall", "real_time_ns").threshold, 0.1);
  // The regex must match the whole name.
  EXPECT_DOUBLE_EQ(p.policy("sqlite/engine/tpcc_lite", "wall", "real_time_ns").threshold, 0.05);
  EXPECT_DOUBLE_EQ(p.policy("engine/x", "counters", "context-switches").threshold, 0.25);
  EXPECT_DOUBLE_EQ(p.policy("engine/x", "counters", "instructions").threshold, 0.01);
  EXPECT_DOUBLE_EQ(p.policy("engine/point_lookup", "counters", "context-switches").threshold, 0.02);
  EXPECT_DOUBLE_EQ(p.policy("engine/x", "callgrind", "ir").threshold, 0.002);
}

TEST(MetricPolicies, MissingSectionMeansDefaults) {
  auto p = MetricPolicies::from_config(nlohmann::json::object(), "perfci.json");
  EXPECT_DOUBLE_EQ(p.policy("b", "wall", "cpu_time_ns").threshold, 0.03);
}

TEST(MetricPolicies, BadInputNamesTheField) {
  auto expect_error = [](const char* text, const std::string& fragment) {
    try {
      MetricPolicies::from_config(nlohmann::json::parse(text), "perfci.json");
      ADD_FAILURE() << "accepted " << text;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  expect_error(R"({"metrics": {"wall": {"threshold": -1}}})", "metrics.wall.threshold");
  expect_error(R"({"metrics": {"wall": {"threshold": "3%"}}})", "metrics.wall.threshold");
  expect_error(R"({"metrics": {"speed": {}}})", "unknown metric kind");
  expect_error(R"({"metrics": {"wall": {"treshold": 0.1}}})", "metrics.wall.treshold");
  expect_error(R"({"metrics": {"wall": {"per_benchmark": {"(": 0.1}}}})", "not a valid regex");
  expect_error(R"({"metrics": []})", "expected an object");
  // One syntax everywhere (issue 17): a percentage is refused with the
  // number to write instead, wherever a threshold is read.
  expect_error(R"({"metrics": {"wall": {"threshold": "3%"}}})",
               "perfci.json: metrics.wall.threshold: \"3%\" is a string; thresholds are "
               "numbers: write 0.03 for 3%");
  expect_error(R"({"metrics": {"callgrind": {"per_metric": {"ir": "0.2%"}}}})",
               "write 0.002 for 0.2%");
  expect_error(R"({"metrics": {"wall": {"threshold": 10}}})",
               "expected a number in [0, 10), the relative change (0.03 is 3%), got 10");
}

}  // namespace
}  // namespace perfci
