#include <gtest/gtest.h>

#include <set>

#include "perfci/baseline/baseline_fixtures.h"
#include "perfci/check/baseline_comparison.h"
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
  in.contracts.reset();
  in.oracle_pairs = {{"engine/", "sqlite/"}};  // as perfci.json's "pairs" would say
  in.commit = std::string(40, 'c');
  return in;
}

std::map<std::string, Values> with(const std::string& name, Values v) {
  auto m = kBase;
  m[name] = v;
  return m;
}

const perfci::BenchmarkReport& bench(const perfci::Report& r, const std::string& name) {
  for (const auto& b : r.benchmarks)
    if (b.run.name == name) return b;
  static perfci::BenchmarkReport none;
  ADD_FAILURE() << "no " << name;
  return none;
}

const MetricRun& metric(const perfci::Report& r, const std::string& name, const std::string& kind,
                        const std::string& m = "") {
  for (const auto& x : bench(r, name).run.metrics)
    if (x.kind == kind && (m.empty() || x.metric == m)) return x;
  static MetricRun none;
  ADD_FAILURE() << "no " << kind << " for " << name;
  return none;
}

TEST(BaselineComparison, TheSameNumbersPass) {
  perfci::Report r = compare_with_baseline(inputs(kBase), config());
  EXPECT_EQ(r.mode, "check");
  EXPECT_EQ(r.exit_code(), 0);
  EXPECT_EQ(r.check->outcome, stats::CheckOutcome::kPass);
  EXPECT_TRUE(r.check->findings.empty());
  EXPECT_EQ(r.benchmarks.size(), 4u);
  EXPECT_EQ(r.counts.unchanged, 4);
  EXPECT_EQ(metric(r, "engine/read", "callgrind").gate, stats::Gate::kGated);
  EXPECT_EQ(metric(r, "engine/read", "callgrind").a, std::vector<double>{10000.0});
  // Gaps for both workloads and all three metrics, all unchanged at 2.0x.
  ASSERT_EQ(r.oracle_gaps.size(), 6u);
  for (const auto& g : r.oracle_gaps) {
    EXPECT_DOUBLE_EQ(g.gap_a, 2.0);
    EXPECT_EQ(g.verdict, stats::Verdict::kUnchanged);
    EXPECT_EQ(g.gate, stats::Gate::kGated);
  }
}

TEST(BaselineComparison, OnePercentMoreInstructionsFailsNamingTheBenchmark) {
  perfci::Report r =
      compare_with_baseline(inputs(with("engine/write", {20200.0, 4000.0})), config());
  EXPECT_EQ(r.exit_code(), 1);
  ASSERT_EQ(r.check->findings.size(), 1u);
  EXPECT_EQ(r.check->findings[0], "engine/write: callgrind ir regressed +1.00% (threshold 0.2%)");
  EXPECT_EQ(perfci::benchmark_outcome(bench(r, "engine/write").run), stats::Outcome::kRegressed);
  EXPECT_EQ(r.counts.regressed, 1);
  EXPECT_EQ(r.verdict, stats::Outcome::kRegressed);
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

// Issue 18: allocations are gated from zero, and a callgrind metric the
// baseline has but this run did not measure (the cache simulation turned
// off) is an error, never a gate that quietly shrank.
TEST(BaselineComparison, AllocationsFromZeroAndALostCacheSimulation) {
  CheckInputs in = inputs(kBase);
  for (auto* r : {&in.baseline.results, &in.current})
    for (auto& b : r->benchmarks)
      if (b.callgrind) b.callgrind->allocations = Allocations{0, {}};
  in.current.benchmarks[0].callgrind->allocations = Allocations{2, {{"Executor::build()", 2}}};
  perfci::Report r = compare_with_baseline(in, config());
  EXPECT_EQ(r.exit_code(), 1);
  const MetricRun& m = metric(r, in.current.benchmarks[0].name, "callgrind", "allocations");
  EXPECT_EQ(m.decision.verdict, stats::Verdict::kRegressed);
  EXPECT_EQ(m.gate, stats::Gate::kGated);
  ASSERT_EQ(r.check->findings.size(), 1u);
  EXPECT_NE(r.check->findings[0].find("callgrind allocations regressed from 0"), std::string::npos)
      << r.check->findings[0];

  CheckInputs lost = inputs(kBase);
  for (auto& b : lost.baseline.results.benchmarks)
    if (b.callgrind) b.callgrind->cache = CacheCounts{1, 2, 0, 1};
  perfci::Report l = compare_with_baseline(lost, config());
  EXPECT_EQ(l.exit_code(), 2);
  ASSERT_FALSE(l.check->errors.empty());
  EXPECT_NE(l.check->errors[0].find("the baseline has callgrind estimated_cycles, l1_misses, "
                                    "ll_misses but this run did not measure them (the cache "
                                    "simulation is off"),
            std::string::npos)
      << l.check->errors[0];

  // Bytes the baseline gates and this run could not measure: the error
  // gives the meter's own reason.
  CheckInputs bytes = inputs(kBase);
  for (auto* r : {&bytes.baseline.results, &bytes.current})
    for (auto& b : r->benchmarks)
      if (b.callgrind) b.callgrind->allocations = Allocations{1, {}, 64.0, 1.0, ""};
  Allocations& unmeasured = *bytes.current.benchmarks[0].callgrind->allocations;
  unmeasured.bytes_per_iteration.reset();
  unmeasured.bytes_unmeasured = "the bytes run failed: exit 1";
  perfci::Report u = compare_with_baseline(bytes, config());
  EXPECT_EQ(u.exit_code(), 2);
  ASSERT_EQ(u.check->errors.size(), 1u);
  EXPECT_NE(u.check->errors[0].find("the baseline has callgrind allocated_bytes but this run did "
                                    "not measure it (bytes: the bytes run failed: exit 1)"),
            std::string::npos)
      << u.check->errors[0];
}

TEST(BaselineComparison, ACountInAnotherModeIsAnErrorNeverAComparison) {
  // engine/write lost its hook since the baseline: its Ir is now counted
  // hook-free, over the whole function Google Benchmark runs. The same
  // number must not pass, and a 40% cheaper one must not read as improved.
  for (double ir : {20000.0, 12000.0}) {
    CheckInputs in = inputs(with("engine/write", {ir, 4000.0}));
    for (auto& b : in.current.benchmarks)
      if (b.name == "engine/write") b.callgrind->mode = "process";
    auto r = compare_with_baseline(std::move(in), config());
    EXPECT_EQ(r.check->outcome, stats::CheckOutcome::kError) << ir;
    EXPECT_EQ(r.exit_code(), 2);
    ASSERT_EQ(r.check->errors.size(), 1u);
    EXPECT_EQ(r.check->errors[0],
              "benchmark engine/write: callgrind counted it by the hook (timed region) in the "
              "baseline and hook-free (whole process) here: not comparable; update the baseline "
              "(perfci baseline update)");
    for (const auto& m : bench(r, "engine/write").run.metrics) EXPECT_NE(m.kind, "callgrind");
    // The benchmarks whose mode held are still gated.
    EXPECT_EQ(metric(r, "engine/read", "callgrind").gate, stats::Gate::kGated);
  }
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
  EXPECT_EQ(metric(r, "engine/write", "callgrind").gate, stats::Gate::kAccepted);
  EXPECT_NE(metric(r, "engine/write", "callgrind").gate_reason.find("batched journal writes"),
            std::string::npos);
  EXPECT_EQ(perfci::benchmark_outcome(bench(r, "engine/write").run), stats::Outcome::kAccepted);
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
  // Nothing of the benchmarks' own could be gated: not a pass (issue 13).
  EXPECT_EQ(r.exit_code(), stats::exit_code(stats::CheckOutcome::kNotGated))
      << r.check->findings.size();
  EXPECT_EQ(r.check->outcome, stats::CheckOutcome::kNotGated);
  EXPECT_EQ(r.check->gated_metrics, 0);
  EXPECT_NE(r.check->not_gated_reason.find("callgrind: the toolchain differs"), std::string::npos)
      << r.check->not_gated_reason;
  EXPECT_EQ(metric(r, "engine/write", "callgrind").gate, stats::Gate::kInformation);
  EXPECT_EQ(metric(r, "engine/write", "callgrind").decision.verdict, stats::Verdict::kRegressed);
  EXPECT_EQ(perfci::benchmark_outcome(bench(r, "engine/write").run), stats::Outcome::kInformation);
  ASSERT_EQ(r.check->toolchain_differences.size(), 1u);
  EXPECT_EQ(r.check->toolchain_differences[0].fact, "compiler_version");
  std::string md = report::render_markdown(r);
  EXPECT_EQ(md.rfind("## perfci check: **not gated**", 0), 0u) << md;
  EXPECT_NE(md.find("**Not gated (exit 3):**"), std::string::npos) << md;
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

// The fallback of issue 13: the stored baseline cannot gate Ir here, a
// reference counted on this runner can, and then Ir is gated on it alone.
TEST(BaselineComparison, AnInRunnerReferenceGatesIrWhereTheBaselineCannot) {
  auto with_reference = [](std::map<std::string, Values> current,
                           std::map<std::string, Values> ref) {
    CheckInputs in = inputs(std::move(current));
    in.profile.toolchain.valgrind_view.facts["x86.cpu_features.isa_1"] = "0x3";
    in.reference = perfci::CheckReference{"abc123",
                                          std::string(40, 'a'),
                                          "its valgrind view x86.cpu_features.isa_1 0x7 -> 0x3",
                                          "/cache/abc/build",
                                          true,
                                          ""};
    in.reference_results = sample_results(ref);
    return in;
  };
  // The reference counts other Ir than the baseline (another CPU under
  // valgrind), 1% more here: the current run equals the reference, so it passes.
  auto here = with("engine/write", {20200.0, 4000.0});
  here["engine/read"] = {10100.0, 2000.0};
  auto pass = compare_with_baseline(with_reference(here, here), config({"wall"}));
  EXPECT_EQ(pass.exit_code(), 0) << (pass.check->findings.empty() ? "" : pass.check->findings[0]);
  EXPECT_EQ(pass.check->outcome, stats::CheckOutcome::kPass);
  EXPECT_EQ(pass.check->gated_metrics, 4);
  const MetricRun& ir = metric(pass, "engine/read", "callgrind");
  EXPECT_EQ(ir.gate, stats::Gate::kGated);
  EXPECT_EQ(ir.a, std::vector<double>{10100.0});  // the reference's, not the baseline's 10000
  ASSERT_EQ(pass.check->gates[0].kind, "callgrind");
  EXPECT_EQ(pass.check->gates[0].source, "reference");
  EXPECT_NE(pass.check->gates[0].reason.find("in-runner A/B against abc123"), std::string::npos);
  // Wall stays against the stored baseline (and information only here).
  EXPECT_EQ(metric(pass, "engine/read", "wall", "real_time_ns").a, std::vector<double>{2000.0});
  std::string md = report::render_markdown(pass);
  EXPECT_NE(md.find("Callgrind Ir is gated against `abc123`"), std::string::npos) << md;

  // +0.25% over the reference fails, naming the benchmark.
  auto slower = here;
  slower["engine/read"] = {10125.25, 2000.0};
  auto fail = compare_with_baseline(with_reference(slower, here), config({"wall"}));
  EXPECT_EQ(fail.exit_code(), 1);
  ASSERT_FALSE(fail.check->findings.empty());
  EXPECT_EQ(fail.check->findings[0].rfind("engine/read: callgrind ir regressed +0.25", 0), 0u)
      << fail.check->findings[0];

  // A benchmark the reference has no count for is an error, never one that
  // quietly drops out of the gate.
  auto partial = here;
  partial.erase("engine/read");
  auto missing = compare_with_baseline(with_reference(here, partial), config({"wall"}));
  EXPECT_EQ(missing.exit_code(), 2);
  ASSERT_FALSE(missing.check->errors.empty());
  EXPECT_NE(missing.check->errors[0].find("engine/read has a callgrind count here but none in the "
                                          "reference abc123 (not in it)"),
            std::string::npos)
      << missing.check->errors[0];

  // A reference that could not be measured gates nothing: not gated.
  CheckInputs broken = with_reference(here, here);
  broken.reference->error = "could not build abc123: no CMakeLists.txt";
  auto none = compare_with_baseline(std::move(broken), config({"wall"}));
  EXPECT_EQ(none.exit_code(), stats::exit_code(stats::CheckOutcome::kNotGated));
  EXPECT_NE(none.check->not_gated_reason.find("no in-runner reference either: could not build"),
            std::string::npos)
      << none.check->not_gated_reason;
}

// Every path: the headline, summary.outcome and the exit code say one thing,
// and "pass" always means something was gated (issue 13).
TEST(BaselineComparison, TheHeadlineTheOutcomeAndTheExitCodeAlwaysAgree) {
  std::vector<CheckInputs> cases;
  cases.push_back(inputs(kBase));                                   // pass
  cases.push_back(inputs(with("engine/read", {10200.0, 2000.0})));  // fail
  CheckInputs failed = inputs(kBase);
  failed.current.benchmarks[0].error = "crashed";
  cases.push_back(std::move(failed));  // error
  CheckInputs foreign = inputs(kBase);
  foreign.profile.toolchain.compiler = "clang";
  cases.push_back(std::move(foreign));                                   // not gated
  CheckInputs improved = inputs(with("engine/read", {9000.0, 2000.0}));  // pass, improved
  cases.push_back(std::move(improved));
  std::set<std::string> seen;
  for (auto& in : cases) {
    for (const auto& info : {std::vector<std::string>{}, std::vector<std::string>{"wall"}}) {
      CheckInputs copy = in;
      perfci::Report r = compare_with_baseline(std::move(copy), config(info));
      const json j = r;
      const std::string outcome = j["summary"]["outcome"];
      seen.insert(outcome);
      EXPECT_EQ(outcome, stats::to_string(stats::check_outcome_from_exit_code(r.exit_code())));
      EXPECT_EQ(j["summary"]["exit_code"], r.exit_code());
      EXPECT_EQ(j["check"]["outcome"], outcome);
      EXPECT_EQ(report::render_markdown(r).rfind("## perfci check: **" + outcome + "**", 0), 0u);
      const std::string verdict = j["summary"]["verdict"];
      if (outcome == "pass") {
        EXPECT_GT(j["check"]["gated_metrics"].get<int>(), 0);
        EXPECT_TRUE(verdict == "unchanged" || verdict == "improved" || verdict == "accepted")
            << verdict;
      }
      if (verdict == "information") {
        EXPECT_NE(outcome, "pass");
      }
      if (verdict == "regressed") {
        EXPECT_EQ(outcome, "fail");
      }
      if (verdict == "failed") {
        EXPECT_EQ(outcome, "error");
      }
      for (const auto& b : j["benchmarks"])
        for (const auto& m : b["metrics"]) {
          const std::string gate = m.value("gate", "");
          EXPECT_EQ(m["outcome"], gate == "information" ? std::string("information")
                                                        : m["decision"].get<std::string>());
          EXPECT_FALSE(m["unit"].get<std::string>().empty());
        }
    }
  }
  EXPECT_EQ(seen, (std::set<std::string>{"pass", "fail", "error", "not gated"}));
}

TEST(BaselineComparison, AnotherMachineKeepsIrGatedAndWallInformation) {
  CheckInputs in = inputs(with("engine/read", {10000.0, 9000.0}));  // wall 4.5x slower
  in.profile.machine.hostname = "elsewhere";
  // Nothing is information-only by configuration: the other machine alone
  // must keep the 4.5x slower wall time itself from failing the gate.
  auto r = compare_with_baseline(std::move(in), config());
  EXPECT_EQ(metric(r, "engine/read", "callgrind").gate, stats::Gate::kGated);
  const auto& wall = metric(r, "engine/read", "wall", "real_time_ns");
  EXPECT_EQ(wall.gate, stats::Gate::kInformation);
  EXPECT_NE(wall.gate_reason.find("another machine than the baseline's"), std::string::npos)
      << wall.gate_reason;
  // The oracle gap is measured within one run, so it stays gated on any
  // machine: engine/read fell 4.5x behind sqlite/read, and that alone fails.
  int wall_gaps = 0;
  for (const auto& g : r.oracle_gaps)
    if (g.metric.rfind("wall/", 0) == 0) {
      ++wall_gaps;
      EXPECT_EQ(g.gate, stats::Gate::kGated) << g.metric;
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
  // As a saved run holds them: read through the same reader as a report's.
  broken.contracts = contracts::contract_report_from_json(json::parse(R"({
      "schema": "perfci.contracts/1", "binary": "bench", "contracts": [
      {"kind": "inline", "name": "varint in seek", "caller": "seek", "callee": "get_varint",
       "benchmarks": [], "status": "broken", "message": "2 calls left", "inlined_copies": [],
       "remaining_calls": [{"address": "0x401a2c", "in": "seek", "to": "get_varint",
                            "kind": "call", "via": "direct"}]},
      {"kind": "layout", "type": "Cell", "max_bytes": 16, "benchmarks": [], "status": "ok",
       "message": "16 bytes", "size_bytes": 16}]})"),
                                                          "broken.json");
  auto b = compare_with_baseline(std::move(broken), config());
  EXPECT_EQ(b.exit_code(), 1);
  ASSERT_EQ(b.check->findings.size(), 1u);
  EXPECT_EQ(b.check->findings[0], "contract broken: varint in seek: 2 calls left");
  EXPECT_NE(report::render_markdown(b).find("### Contracts: 1 of 2 hold"), std::string::npos);

  CheckInputs unreadable = inputs(kBase);
  unreadable.contracts = contracts::contract_report_from_json(
      json::parse(R"({"schema": "perfci.contracts/1", "binary": "bench", "error": "no DWARF",
                      "contracts": []})"),
      "unreadable.json");
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
  perfci::Report back = perfci::report_from_json(j, "r.json");
  ASSERT_TRUE(back.check);
  EXPECT_EQ(back.exit_code(), 1);
  EXPECT_EQ(back.check->findings, r.check->findings);
  EXPECT_EQ(back.oracle_gaps[0].threshold, r.oracle_gaps[0].threshold);
  EXPECT_EQ(report::render_markdown(back), report::render_markdown(r));
  EXPECT_EQ(j["summary"]["exit_code"], 1);
}

}  // namespace
}  // namespace perfci::check
