#include "perfci/baseline/baseline.h"

#include <gtest/gtest.h>

#include "perfci/baseline/baseline_fixtures.h"
#include "perfci/util/error.h"

namespace perfci::baseline {
namespace {

using nlohmann::json;

std::string error_of(const std::string& text) {
  try {
    parse_baseline(text, "baselines/p/engine.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

json sample_json() {
  return baseline_to_json(fixtures::sample_baseline({{"engine/a", {1000.0, 50.0}}}));
}

TEST(Baseline, RoundTrips) {
  Baseline b = fixtures::sample_baseline(
      {{"engine/a", {1000.0, 50.0}}, {"sqlite/a", {500.0, std::nullopt}}});
  Baseline c = parse_baseline(baseline_to_json(b).dump(), "x.json");
  EXPECT_EQ(c.profile.id, b.profile.id);
  EXPECT_EQ(c.provenance.commit, std::string(40, 'a'));
  EXPECT_EQ(c.provenance.reason, "first baseline");
  EXPECT_EQ(c.settings.args, (std::vector<std::string>{"--scale=0.1"}));
  EXPECT_EQ(c.settings.callgrind_iterations, 3);
  EXPECT_FALSE(c.settings.min_time);
  ASSERT_EQ(c.results.benchmarks.size(), 2u);
  EXPECT_DOUBLE_EQ(c.results.find("engine/a")->callgrind->ir_per_iteration, 1000.0);
  EXPECT_FALSE(c.results.find("sqlite/a")->real_time_ns);
  EXPECT_FALSE(c.contracts.has_value());
}

TEST(Baseline, ATruncatedFileIsNamedWithItsProblem) {
  std::string text = sample_json().dump(2);
  std::string e = error_of(text.substr(0, text.size() / 2));
  EXPECT_NE(e.find("baselines/p/engine.json: not valid JSON (truncated or edited by hand?)"),
            std::string::npos)
      << e;
  EXPECT_NE(error_of("").find("not valid JSON"), std::string::npos);
  EXPECT_NE(error_of("[1]").find("baselines/p/engine.json: expected a JSON object"),
            std::string::npos);
}

TEST(Baseline, FieldErrorsSayWhere) {
  json j = sample_json();
  j["schema"] = "perfci.baseline/0";
  EXPECT_NE(error_of(j.dump()).find(
                "schema: is \"perfci.baseline/0\", this perfci reads \"perfci.baseline/1\""),
            std::string::npos);

  j = sample_json();
  j["provenance"]["commit"] = "abc";
  EXPECT_NE(error_of(j.dump()).find(
                "baselines/p/engine.json: provenance.commit: expected a full 40-digit"),
            std::string::npos);

  j = sample_json();
  j["provenance"].erase("reason");
  EXPECT_NE(error_of(j.dump()).find("provenance.reason: missing"), std::string::npos);

  j = sample_json();
  j["settings"]["callgrind_iterations"] = 0;
  EXPECT_NE(error_of(j.dump()).find("baselines/p/engine.json: settings.callgrind_iterations: "
                                    "expected 1 to 1000000"),
            std::string::npos);

  j = sample_json();
  j["results"]["benchmarks"][0]["callgrind"]["ir_per_iteration"] = "many";
  EXPECT_NE(error_of(j.dump()).find(
                "results.benchmarks[0].callgrind.ir_per_iteration: expected a number"),
            std::string::npos);

  j = sample_json();
  j["results"]["benchmarks"] = json::array();
  EXPECT_NE(error_of(j.dump()).find("results.benchmarks: empty"), std::string::npos);

  j = sample_json();
  j["results"]["benchmarks"][0]["error"] = "crashed";
  EXPECT_NE(error_of(j.dump()).find("benchmark engine/a failed"), std::string::npos);

  j = sample_json();
  j["results"]["benchmarks"].push_back(j["results"]["benchmarks"][0]);
  EXPECT_NE(error_of(j.dump()).find("appears twice"), std::string::npos);

  j = sample_json();
  j["contracts"] = json::array();
  EXPECT_NE(error_of(j.dump()).find("contracts: expected null or a perfci.contracts/1 object"),
            std::string::npos);
}

}  // namespace
}  // namespace perfci::baseline
