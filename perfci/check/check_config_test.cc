#include "perfci/check/check_config.h"

#include <gtest/gtest.h>

#include "perfci/util/error.h"

namespace perfci::check {
namespace {

Config config_with(const std::string& extra) {
  Config c = parse_config(R"({"schema": "perfci.config/1", "suites": [{"name": "s", "binary": "b"}],
                              "meters": ["wall"])" +
                              extra + "}",
                          "/proj/perfci.json");
  c.path = "/proj/perfci.json";
  return c;
}

std::string error_of(const std::string& extra) {
  try {
    check_config_from(config_with(extra));
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(CheckConfig, DefaultsBesidePerfciJson) {
  CheckConfig c = check_config_from(config_with(""));
  EXPECT_EQ(c.baselines, "/proj/baselines");
  EXPECT_EQ(c.reports, "/proj/reports");
  EXPECT_EQ(c.meters, std::vector<std::string>{"wall"});
  EXPECT_TRUE(c.information_only.empty());
  EXPECT_DOUBLE_EQ(c.oracle_gap_threshold("callgrind"), kDefaultOracleGapThreshold);
  EXPECT_DOUBLE_EQ(c.policies.policy("x", "callgrind", "ir").threshold, 0.002);
}

TEST(CheckConfig, ReadsEveryField) {
  CheckConfig c = check_config_from(config_with(R"(, "metrics": {"callgrind": {"threshold": 0.01}},
    "check": {"baselines": "perf/baselines", "reports": "/tmp/r", "meters": ["callgrind"],
              "information_only": ["wall"], "libraries": ["libc"],
              "metrics": {"wall": {"threshold": 0.5}}, "oracle_gap": {"callgrind": 0.1}})"));
  EXPECT_EQ(c.baselines, "/proj/perf/baselines");
  EXPECT_EQ(c.reports, "/tmp/r");
  EXPECT_EQ(c.meters, std::vector<std::string>{"callgrind"});
  EXPECT_TRUE(c.information_only_kind("wall"));
  EXPECT_FALSE(c.information_only_kind("callgrind"));
  EXPECT_EQ(c.libraries, std::vector<std::string>{"libc"});
  // check.metrics replaces the top-level section: callgrind is back to its default.
  EXPECT_DOUBLE_EQ(c.policies.policy("x", "wall", "real_time_ns").threshold, 0.5);
  EXPECT_DOUBLE_EQ(c.policies.policy("x", "callgrind", "ir").threshold, 0.002);
  EXPECT_DOUBLE_EQ(c.oracle_gap_threshold("callgrind"), 0.1);
  EXPECT_DOUBLE_EQ(c.oracle_gap_threshold("wall"), kDefaultOracleGapThreshold);
}

TEST(CheckConfig, ErrorsNameTheField) {
  EXPECT_NE(error_of(R"(, "check": [])").find("/proj/perfci.json: check: expected an object"),
            std::string::npos);
  EXPECT_NE(error_of(R"(, "check": {"baseline": "x"})").find("check.baseline: unknown field"),
            std::string::npos);
  EXPECT_NE(error_of(R"(, "check": {"meters": ["cpu"]})").find("check.meters: unknown meter 'cpu'"),
            std::string::npos);
  EXPECT_NE(error_of(R"(, "check": {"information_only": ["ir"]})").find("unknown metric kind 'ir'"),
            std::string::npos);
  EXPECT_NE(error_of(R"(, "check": {"oracle_gap": {"callgrind": -1}})")
                .find("check.oracle_gap.callgrind"),
            std::string::npos);
  // The threshold syntax of metrics, the same here (issue 17).
  EXPECT_NE(error_of(R"(, "check": {"oracle_gap": {"wall": "50%"}})")
                .find("check.oracle_gap.wall: \"50%\" is a string; thresholds are numbers: write "
                      "0.5 for 50%"),
            std::string::npos);
  EXPECT_NE(error_of(R"(, "check": {"metrics": {"wall": {"threshold": "x"}}})")
                .find("metrics.wall.threshold"),
            std::string::npos);
  EXPECT_NE(
      error_of(R"(, "check": {"baselines": ""})").find("check.baselines: expected a folder name"),
      std::string::npos);
}

}  // namespace
}  // namespace perfci::check
