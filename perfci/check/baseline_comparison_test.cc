#include "perfci/check/baseline_comparison.h"

#include <gtest/gtest.h>

#include "perfci/baseline/baseline_fixtures.h"
#include "perfci/report/markdown.h"

namespace perfci::check {
namespace {

using baseline::fixtures::sample_baseline;
using baseline::fixtures::sample_results;
using baseline::fixtures::Values;
using nlohmann::json;

const std::map<std::string, Values> kBase{{"engine/read", {10000.0, 2000.0}},
                                          {"sqlite/read", {5000.0, 1000.0}},
                                          {"engine/write", {20000.0, 4000.0}},
                                          {"sqlite/write", {10000.0, 2000.0}}};

CheckConfig config(std::vector<std::string> information_only = {}) {
  CheckConfig c;
  c.information_only = std::move(information_only);
  // One wall run against another: a generous threshold.
  c.policies =
      MetricPolicies::from_config(json::parse(R"({"metrics": {"wall": {"threshold": 0.5}}})"), "t");
  return c;
}

CheckInputs inputs(std::map<std::string, Values> current) {
  CheckInputs in;
  in.baseline = sample_baseline(kBase);
  in.baseline_file = "baselines/p/engine.json";
  in.profile = baseline::fixtures::sample_profile();
  in.settings = in.baseline.settings;
  in.current = sample_results(current);
  in.contracts = nullptr;
  in.commit = std::string(40, 'c');
  return in;
}

std::map<std::string, Values> with(const std::string& name, Values v) {
  auto m = kBase;
  m[name] = v;
  return m;
}

const report::BenchmarkReport& bench(const report::Report& r, const std::string& name) {
  for (const auto& b : r.benchmarks)
    if (b.run.name == name) return b;
  static report::BenchmarkReport none;
  ADD_FAILURE() << "no " << name;
  return none;
}

const MetricRun& metric(const report::Report& r, const std::string& name, const std::string& kind,
                        const std::string& m = "") {
  for (const auto& x : bench(r, name).run.metrics)
    if (x.kind == kind && (m.empty() || x.metric == m)) return x;
  static MetricRun none;
  ADD_FAILURE() << "no " << kind << " for " << name;
  return none;
}

TEST(BaselineComparison, TheSameNumbersPass) {
  report::Report r = compare_with_baseline(inputs(kBase), config());
  EXPECT_EQ(r.mode, "check");
  EXPECT_EQ(r.exit_code(), 0);
  EXPECT_EQ(r.check->exit_code, 0);
  EXPECT_TRUE(r.check->findings.empty());
  EXPECT_EQ(r.benchmarks.size(), 4u);
  EXPECT_EQ(r.counts.unchanged, 4);
  EXPECT_EQ(metric(r, "engine/read", "callgrind").gate, "gated");
  EXPECT_EQ(metric(r, "engine/read", "callgrind").a, std::vector<double>{10000.0});
  // Gaps for both workloads and all three metrics, all unchanged at 2.0x.
  ASSERT_EQ(r.oracle_gaps.size(), 6u);
  for (const auto& g : r.oracle_gaps) {
    EXPECT_DOUBLE_EQ(g.gap_a, 2.0);
    EXPECT_EQ(g.verdict, "unchanged");
    EXPECT_EQ(g.gate, "gated");
  }
}

TEST(BaselineComparison, OnePercentMoreInstructionsFailsNamingTheBenchmark) {
  report::Report r =
      compare_with_baseline(inputs(with("engine/write", {20200.0, 4000.0})), config());
  EXPECT_EQ(r.exit_code(), 1);
  ASSERT_EQ(r.check->findings.size(), 1u);
  EXPECT_EQ(r.check->findings[0], "engine/write: callgrind ir regressed +1.00% (threshold 0.2%)");
  EXPECT_EQ(report::benchmark_verdict(bench(r, "engine/write").run), "regressed");
  EXPECT_EQ(r.counts.regressed, 1);
  EXPECT_EQ(r.verdict, "regressed");
  // The baseline kept per-function costs: the report says where it grew.
  ASSERT_TRUE(bench(r, "engine/write").explanation);
  std::string md = report::render_markdown(r);
  EXPECT_NE(md.find("## perfci check: **fail**"), std::string::npos) << md;
  EXPECT_NE(
      md.find("| engine/write | callgrind ir | 20k | 20.2k | +1.00% | 0.2% | **regressed** |"),
      std::string::npos)
      << md;
  EXPECT_NE(md.find("### Why engine/write changed"), std::string::npos);
}

TEST(BaselineComparison, ChangesWithinTheThresholdPass) {
  auto r = compare_with_baseline(inputs(with("engine/write", {20030.0, 5000.0})), config());
  EXPECT_EQ(r.exit_code(), 0);
  EXPECT_EQ(metric(r, "engine/write", "callgrind").decision.verdict, stats::Verdict::kUnchanged);
  EXPECT_EQ(metric(r, "engine/write", "wall", "real_time_ns").decision.verdict,
            stats::Verdict::kUnchanged);
  EXPECT_NE(metric(r, "engine/write", "wall", "real_time_ns")
                .decision.reason.find("one run against the baseline's"),
            std::string::npos);
}

TEST(BaselineComparison, AnAcceptedEntryTurnsItIntoAccepted) {
  CheckInputs in = inputs(with("engine/write", {20200.0, 4000.0}));
  in.accepted = {{{"engine/write", "callgrind/ir", "ccccccc", "batched journal writes"},
                  std::string(40, 'c'),
                  false}};
  auto r = compare_with_baseline(std::move(in), config());
  EXPECT_EQ(r.exit_code(), 0);
  EXPECT_EQ(metric(r, "engine/write", "callgrind").gate, "accepted");
  EXPECT_NE(metric(r, "engine/write", "callgrind").gate_reason.find("batched journal writes"),
            std::string::npos);
  EXPECT_EQ(report::benchmark_verdict(bench(r, "engine/write").run), "accepted");
  EXPECT_EQ(r.counts.accepted, 1);
  ASSERT_EQ(r.check->accepted.size(), 1u);
  EXPECT_EQ(r.check->accepted[0].status, "applied");
  EXPECT_NE(report::render_markdown(r).find("| accepted |"), std::string::npos);
}

TEST(BaselineComparison, AStaleOrUnrelatedEntryAcceptsNothing) {
  CheckInputs in = inputs(with("engine/write", {20200.0, 4000.0}));
  in.accepted = {
      {{"engine/write", "callgrind/ir", "aaaaaaa", "old"}, std::string(40, 'a'), true},
      {{"engine/read", "callgrind/ir", "ccccccc", "unused"}, std::string(40, 'c'), false}};
  auto r = compare_with_baseline(std::move(in), config());
  EXPECT_EQ(r.exit_code(), 1);
  EXPECT_EQ(r.check->accepted[0].status, "stale");
  EXPECT_EQ(r.check->accepted[1].status, "unused");
}

TEST(BaselineComparison, AnotherToolchainMakesIrInformationButTheGapStillCounts) {
  CheckInputs in = inputs(with("engine/write", {21000.0, 4000.0}));  // +5% Ir: gap +5%
  in.profile.toolchain.compiler_version = "12.3.0";
  auto r = compare_with_baseline(std::move(in), config());
  EXPECT_EQ(r.exit_code(), 0) << r.check->findings.size();
  EXPECT_EQ(metric(r, "engine/write", "callgrind").gate, "information");
  EXPECT_EQ(metric(r, "engine/write", "callgrind").decision.verdict, stats::Verdict::kRegressed);
  EXPECT_EQ(report::benchmark_verdict(bench(r, "engine/write").run), "information");
  ASSERT_EQ(r.check->toolchain_differences.size(), 1u);
  EXPECT_EQ(r.check->toolchain_differences[0].fact, "compiler_version");
  std::string md = report::render_markdown(r);
  EXPECT_NE(md.find("regressed (information)"), std::string::npos) << md;
  EXPECT_NE(md.find("information only: the toolchain differs"), std::string::npos) << md;

  // A gap that moves beyond its own threshold fails on any toolchain.
  CheckInputs far = inputs(with("engine/write", {30000.0, 4000.0}));  // gap 2.0x -> 3.0x
  far.profile.toolchain.compiler_version = "12.3.0";
  auto f = compare_with_baseline(std::move(far), config());
  EXPECT_EQ(f.exit_code(), 1);
  ASSERT_EQ(f.check->findings.size(), 1u);
  EXPECT_NE(f.check->findings[0].find(
                "oracle gap of write (callgrind/ir): 2.00x -> 3.00x, +50.0% (threshold 25%)"),
            std::string::npos)
      << f.check->findings[0];
}

TEST(BaselineComparison, AnotherMachineKeepsIrGatedAndWallInformation) {
  CheckInputs in = inputs(with("engine/read", {10000.0, 9000.0}));  // wall 4.5x slower
  in.profile.machine.hostname = "elsewhere";
  // Nothing is information-only by configuration: the other machine alone
  // must keep the 4.5x slower wall time itself from failing the gate.
  auto r = compare_with_baseline(std::move(in), config());
  EXPECT_EQ(metric(r, "engine/read", "callgrind").gate, "gated");
  const auto& wall = metric(r, "engine/read", "wall", "real_time_ns");
  EXPECT_EQ(wall.gate, "information");
  EXPECT_NE(wall.gate_reason.find("another machine than the baseline's"), std::string::npos)
      << wall.gate_reason;
  // The oracle gap is measured within one run, so it stays gated on any
  // machine: engine/read fell 4.5x behind sqlite/read, and that alone fails.
  int wall_gaps = 0;
  for (const auto& g : r.oracle_gaps)
    if (g.metric.rfind("wall/", 0) == 0) {
      ++wall_gaps;
      EXPECT_EQ(g.gate, "gated") << g.metric;
    }
  EXPECT_GT(wall_gaps, 0);
  EXPECT_EQ(r.exit_code(), 1);
  ASSERT_FALSE(r.check->findings.empty());
  for (const auto& f : r.check->findings)
    EXPECT_EQ(f.rfind("oracle gap of read (wall/", 0), 0u) << f;
}

TEST(BaselineComparison, WallTimeIsGatedOnTheBaselinesOwnMachine) {
  auto r = compare_with_baseline(inputs(with("engine/read", {10000.0, 4000.0})),
                                 config());  // wall +100%
  EXPECT_EQ(r.exit_code(), 1);
  EXPECT_EQ(metric(r, "engine/read", "wall", "real_time_ns").decision.verdict,
            stats::Verdict::kRegressed);
}

TEST(BaselineComparison, FailedBenchmarksAndContractsDecideTheCode) {
  CheckInputs in = inputs(kBase);
  in.current.benchmarks[0].error = "killed by signal 11";
  auto r = compare_with_baseline(std::move(in), config());
  EXPECT_EQ(r.exit_code(), 2);
  EXPECT_EQ(r.counts.failed, 1);
  EXPECT_NE(r.check->errors[0].find("failed: killed by signal 11"), std::string::npos);

  CheckInputs broken = inputs(kBase);
  broken.contracts = json::parse(R"({"schema": "perfci.contracts/1", "contracts": [
      {"kind": "inline", "name": "varint in seek", "status": "broken", "message": "2 calls left"},
      {"kind": "layout", "status": "ok", "message": "16 bytes"}]})");
  auto b = compare_with_baseline(std::move(broken), config());
  EXPECT_EQ(b.exit_code(), 1);
  ASSERT_EQ(b.check->findings.size(), 1u);
  EXPECT_EQ(b.check->findings[0], "contract broken: varint in seek: 2 calls left");
  EXPECT_NE(report::render_markdown(b).find("### Contracts: 1 of 2 hold"), std::string::npos);

  CheckInputs unreadable = inputs(kBase);
  unreadable.contracts =
      json::parse(R"({"schema": "perfci.contracts/1", "error": "no DWARF", "contracts": []})");
  EXPECT_EQ(compare_with_baseline(std::move(unreadable), config()).exit_code(), 2);
}

TEST(BaselineComparison, NewAndMissingBenchmarksAreListed) {
  auto current = kBase;
  current.erase("sqlite/write");
  current["engine/new"] = {100.0, 10.0};
  auto r = compare_with_baseline(inputs(current), config());
  EXPECT_EQ(r.exit_code(), 0);
  EXPECT_EQ(r.check->new_benchmarks, std::vector<std::string>{"engine/new"});
  EXPECT_EQ(r.check->missing_benchmarks, std::vector<std::string>{"sqlite/write"});
}

TEST(BaselineComparison, NothingComparedIsAnError) {
  CheckInputs in = inputs({{"engine/read", {std::nullopt, 2000.0}}});
  in.baseline = sample_baseline({{"engine/read", {10000.0, std::nullopt}}});
  auto r = compare_with_baseline(std::move(in), config());
  EXPECT_EQ(r.exit_code(), 2);
  ASSERT_EQ(r.check->errors.size(), 1u);
  EXPECT_NE(r.check->errors[0].find("nothing was compared"), std::string::npos);
}

TEST(BaselineComparison, TheReportRoundTripsThroughJson) {
  auto r = compare_with_baseline(inputs(with("engine/write", {20200.0, 4000.0})), config());
  json j = r;
  report::Report back = report::report_from_json(j, "r.json");
  ASSERT_TRUE(back.check);
  EXPECT_EQ(back.exit_code(), 1);
  EXPECT_EQ(back.check->findings, r.check->findings);
  EXPECT_EQ(back.oracle_gaps[0].threshold, r.oracle_gaps[0].threshold);
  EXPECT_EQ(report::render_markdown(back), report::render_markdown(r));
  EXPECT_EQ(j["summary"]["exit_code"], 1);
}

}  // namespace
}  // namespace perfci::check
