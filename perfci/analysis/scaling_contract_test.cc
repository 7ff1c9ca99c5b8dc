#include "perfci/analysis/scaling_contract.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>

namespace perfci::analysis {
namespace {

using contracts::Contract;
using contracts::ContractKind;
using contracts::Verdict;

Contract linear(const std::string& family = "engine/drain") {
  Contract c;
  c.kind = ContractKind::kScaling;
  c.family = family;
  c.max_exponent = 1.15;
  return c;
}

// Per-iteration Ir of a family at sizes 1k, 4k, 16k, 64k.
MetricSamples family(double (*cost)(double), const std::string& name = "engine/drain") {
  MetricSamples s;
  for (double n : {1000.0, 4000.0, 16000.0, 64000.0})
    s[name + "/" + std::to_string(static_cast<int>(n))] = {cost(n)};
  return s;
}

double linear_cost(double n) { return 5000 + 40 * n; }
double quadratic_drain(double n) { return 5000 + 40 * n + 0.01 * n * n; }

TEST(ScalingContractTest, LinearFamilyHolds) {
  auto r = check_scaling(linear(), family(linear_cost));
  EXPECT_EQ(r.verdict, Verdict::kOk) << r.message;
  ASSERT_TRUE(r.scaling);
  EXPECT_EQ(r.scaling->points.size(), 4u);
  EXPECT_LE(r.scaling->steepest, 1.0);
  EXPECT_NE(r.message.find("grows at most as n^"), std::string::npos) << r.message;
}

TEST(ScalingContractTest, QuadraticDrainBreaksNamingTheExponentAndSizes) {
  auto r = check_scaling(linear(), family(quadratic_drain));
  EXPECT_EQ(r.verdict, Verdict::kBroken) << r.message;
  ASSERT_TRUE(r.scaling);
  // The steepest segment is the top one, 16k..64k.
  EXPECT_EQ(r.scaling->from, 16000);
  EXPECT_EQ(r.scaling->to, 64000);
  const double expected = std::log(quadratic_drain(64000) / quadratic_drain(16000)) / std::log(4.0);
  EXPECT_NEAR(r.scaling->steepest, expected, 1e-9);
  EXPECT_GT(r.scaling->steepest, 1.5);
  const std::string want =
      fmt::format("grows as n^{:.2f} between 16k and 64k (bound 1.15", r.scaling->steepest);
  EXPECT_NE(r.message.find(want), std::string::npos) << r.message;
}

TEST(ScalingContractTest, OrderNLogNBoundsEachSegmentByItsOwnExponent) {
  Contract c = linear();
  c.max_exponent = 0;
  c.order = "n log n";
  auto nlogn = [](double n) { return 10 * n * std::log(n); };
  MetricSamples s;
  for (double n : {1000.0, 8000.0, 64000.0})
    s["engine/drain/" + std::to_string(int(n))] = {nlogn(n)};
  auto r = check_scaling(c, s);
  EXPECT_EQ(r.verdict, Verdict::kOk) << r.message;
  EXPECT_NE(r.message.find("n log n + 0.15"), std::string::npos) << r.message;
  c.order = "n";
  c.tolerance = 0.01;  // n log n is steeper than n by more than 1%
  EXPECT_EQ(check_scaling(c, s).verdict, Verdict::kBroken);
}

TEST(ScalingContractTest, OnlyTheFamilysSizedBenchmarksCount) {
  MetricSamples s = family(linear_cost);
  s["engine/drain_other/1000"] = {1};      // another family
  s["engine/drain/1000/real_time"] = {1};  // not "<family>/<n>"
  s["engine/drain"] = {1};
  auto r = check_scaling(linear(), s);
  ASSERT_TRUE(r.scaling);
  EXPECT_EQ(r.scaling->points.size(), 4u);
}

TEST(ScalingContractTest, TooFewSizesOrAFailedSizeIsAnError) {
  MetricSamples one{{"engine/drain/1000", {5}}};
  auto r = check_scaling(linear(), one);
  EXPECT_EQ(r.verdict, Verdict::kError);
  EXPECT_NE(r.message.find("needs two or more"), std::string::npos) << r.message;
  EXPECT_EQ(check_scaling(linear(), {}).verdict, Verdict::kError);
  MetricSamples failed = family(linear_cost);
  failed["engine/drain/4000"] = {};
  r = check_scaling(linear(), failed);
  EXPECT_EQ(r.verdict, Verdict::kError);
  EXPECT_NE(r.message.find("engine/drain/4000"), std::string::npos) << r.message;
}

TEST(ScalingContractTest, WallIsJudgedOnTheLowestSlopeItsSamplesAllow) {
  Contract c = linear();
  c.metric = "wall";
  // Noisy but linear: 1k ~ 1000 ns +-20%, 4k ~ 4000 ns +-20%. The medians'
  // slope could exceed 1.15 by chance; the lowest slope allowed cannot.
  MetricSamples s{{"engine/drain/1000", {800, 1000, 1200}},
                  {"engine/drain/4000", {3400, 4900, 5200}}};
  auto r = check_scaling(c, s);
  EXPECT_EQ(r.verdict, Verdict::kOk) << r.message;
  // Quadratic beyond any noise breaks it.
  s["engine/drain/4000"] = {15000, 16000, 17000};
  EXPECT_EQ(check_scaling(c, s).verdict, Verdict::kBroken);
  // One sample per size has no spread: refused, not judged.
  MetricSamples single{{"engine/drain/1000", {1000}}, {"engine/drain/4000", {4000}}};
  r = check_scaling(c, single);
  EXPECT_EQ(r.verdict, Verdict::kError);
  EXPECT_NE(r.message.find("3 or more"), std::string::npos) << r.message;
}

TEST(ScalingContractTest, AddsResultsOnlyForMeasuredContracts) {
  std::vector<Contract> list{linear(), linear("engine/absent")};
  list.push_back(Contract{});  // an inline contract: checked on the binary, not here
  std::optional<contracts::ContractReport> report;
  auto samples = [](const std::string& kind, const std::string&) {
    EXPECT_EQ(kind, "callgrind");
    return family(linear_cost);
  };
  add_scaling_results(report, list, "bin", samples, /*only_measured_families=*/true);
  ASSERT_TRUE(report);
  ASSERT_EQ(report->results.size(), 1u);
  EXPECT_EQ(report->results[0].verdict, Verdict::kOk);
  report.reset();
  add_scaling_results(report, list, "bin", samples, false);
  ASSERT_EQ(report->results.size(), 2u);
  EXPECT_EQ(report->results[1].verdict, Verdict::kError);  // engine/absent: not measured
  // An unreadable binary's report keeps its error alone.
  contracts::ContractReport unreadable;
  unreadable.error = "no DWARF";
  report = unreadable;
  add_scaling_results(report, list, "bin", samples, false);
  EXPECT_TRUE(report->results.empty());
}

TEST(ScalingContractTest, ResultRoundTripsThroughJson) {
  auto r = check_scaling(linear(), family(quadratic_drain));
  contracts::ContractReport report;
  report.binary = "bin";
  report.results.push_back(r);
  auto back = contracts::contract_report_from_json(report.to_json(), "x");
  ASSERT_EQ(back.results.size(), 1u);
  EXPECT_EQ(back.results[0].to_json(), r.to_json());
  EXPECT_EQ(back.results[0].contract.family, "engine/drain");
  ASSERT_TRUE(back.results[0].scaling);
  EXPECT_EQ(back.results[0].scaling->points, r.scaling->points);
}

}  // namespace
}  // namespace perfci::analysis
