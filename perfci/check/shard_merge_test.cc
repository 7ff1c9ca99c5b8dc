#include "perfci/check/shard_merge.h"

#include <gtest/gtest.h>

#include <csignal>

#include "perfci/check/oracle_gap_gate.h"
#include "perfci/util/error.h"

namespace perfci::check {
namespace {

// The plan of a suite of engine/{a,b,c} and sqlite/{a,b,c}, a with its
// oracle in shard 1, b in 2, c in 3.
ShardPlan plan() {
  ShardPlan p;
  p.count = 3;
  for (const char* w : {"a", "b", "c"})
    for (const char* side : {"engine/", "sqlite/"})
      p.entries.push_back({std::string(side) + w, w[0] - 'a' + 1, {2.0, "measured"}});
  return p;
}

MetricRun ir(double change, stats::Gate gate = stats::Gate::kGated) {
  MetricRun m;
  m.kind = "callgrind";
  m.metric = "ir";
  m.a = {1000};
  m.b = {1000 * (1 + change)};
  m.decision.verdict = change > 0.002 ? stats::Verdict::kRegressed : stats::Verdict::kUnchanged;
  m.first_decision = m.decision;
  m.gate = gate;
  return m;
}

OracleGapRules rules() {
  OracleGapRules r;
  r.pairs = {{"engine/", "sqlite/"}};
  r.config.oracle_gap = {{"callgrind", 0.25}};
  return r;
}

// Part k of one sharded check of `p`; the benchmarks of `changes` moved
// by that much (and regressed: each adds its finding).
ReportPart part(int k, const ShardPlan& p = plan(),
                const std::map<std::string, double>& changes = {{"engine/b", 0.10}}) {
  Report r;
  r.mode = "check";
  r.created = "2026-12-02T10:00:0" + std::to_string(k) + "Z";
  r.machine = {{"hostname", "runner-" + std::to_string(k)}, {"cpu_model", "cpu"}};
  r.b.commit = "c0ffee";
  r.settings = {{"command", "check"},
                {"shard", std::to_string(k) + "/3"},
                {"oracle_gap", oracle_gap_rules_json(rules())}};
  r.shard = ShardSection{{k, p.count}, p};
  CheckSection c;
  c.suite = "engine";
  c.profile = "x86_64-debian12-gcc12-release";
  c.baseline_profile = c.profile;
  c.baseline_file = "baselines/x/engine.json";
  c.baseline_commit = "beef";
  c.gates = {{"callgrind", stats::Gate::kGated, "", "baseline"}};
  c.findings = {"contract X is broken"};  // every part checks the one binary
  for (const auto& name : p.names_of(k)) {
    BenchmarkReport b;
    b.run.name = name;
    auto it = changes.find(name);
    double change = it == changes.end() ? 0 : it->second;
    b.run.metrics.push_back(ir(change));
    if (change > 0.002)
      c.findings.push_back(name + ": callgrind ir regressed +" + std::to_string(change));
    r.benchmarks.push_back(std::move(b));
    ++c.gated_metrics;
  }
  // The gaps this part could judge itself, as check would.
  std::vector<BenchmarkRun> runs;
  for (const auto& b : r.benchmarks) runs.push_back(b.run);
  r.oracle_gaps = gate_oracle_gaps(
      runs, rules(), [](const std::string&, const std::string&) { return false; }, c.findings);
  c.accepted = {{"engine/c", "callgrind/ir", "abc", "why", k == 3 ? "applied" : "unused"}};
  c.outcome = stats::CheckOutcome::kFail;
  r.check = c;
  r.elapsed_seconds = 10.0 * k;
  return {"part" + std::to_string(k) + ".json", r};
}

std::string error_of(std::vector<ReportPart> parts) {
  try {
    merge_check_parts(std::move(parts));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(MergeCheckParts, JoinsThePartsInThePlansOrderWithOneVerdict) {
  Report r = merge_check_parts({part(3), part(1), part(2)});
  ASSERT_EQ(r.benchmarks.size(), 6u);
  std::vector<std::string> names;
  for (const auto& b : r.benchmarks) names.push_back(b.run.name);
  EXPECT_EQ(names, (std::vector<std::string>{"engine/a", "sqlite/a", "engine/b", "sqlite/b",
                                             "engine/c", "sqlite/c"}));
  EXPECT_FALSE(r.shard);
  ASSERT_TRUE(r.merged);
  EXPECT_EQ(r.merged->parts.size(), 3u);
  EXPECT_EQ(r.merged->parts[0].hostname, "runner-1");
  EXPECT_EQ(r.merged->parts[1].benchmarks, (std::vector<std::string>{"engine/b", "sqlite/b"}));
  EXPECT_DOUBLE_EQ(r.merged->parts[2].expected_seconds, 4.0);
  EXPECT_EQ(r.counts.regressed, 1);
  EXPECT_EQ(r.counts.unchanged, 5);
  EXPECT_EQ(r.check->gated_metrics, 6);
  EXPECT_EQ(r.check->outcome, stats::CheckOutcome::kFail);
  EXPECT_EQ(r.exit_code(), 1);
  // The contract finding all three parts repeat is there once.
  EXPECT_EQ(r.check->findings,
            (std::vector<std::string>{"contract X is broken",
                                      "engine/b: callgrind ir regressed +0.100000"}));
  EXPECT_EQ(r.check->gates.size(), 1u);
  ASSERT_EQ(r.oracle_gaps.size(), 3u);
  EXPECT_EQ(r.oracle_gaps[0].workload, "a");
  ASSERT_EQ(r.check->accepted.size(), 1u);
  EXPECT_EQ(r.check->accepted[0].status, "applied");
  EXPECT_DOUBLE_EQ(r.elapsed_seconds, 30);
  EXPECT_FALSE(r.settings.contains("shard"));
}

TEST(MergeCheckParts, PassesOnlyWhenEveryRuleOfCheckSaysSo) {
  auto clean = [](int k) {
    ReportPart p = part(k);
    p.report.check->findings.clear();
    for (auto& b : p.report.benchmarks) b.run.metrics = {ir(0)};
    return p;
  };
  EXPECT_EQ(merge_check_parts({clean(1), clean(2), clean(3)}).check->outcome,
            stats::CheckOutcome::kPass);
  // Nothing gated anywhere: not gated (exit 3), never pass.
  auto ungated = [&](int k) {
    ReportPart p = clean(k);
    for (auto& b : p.report.benchmarks) b.run.metrics = {ir(0, stats::Gate::kInformation)};
    p.report.check->not_gated_reason = "callgrind: another valgrind view";
    return p;
  };
  Report none = merge_check_parts({ungated(1), ungated(2), ungated(3)});
  EXPECT_EQ(none.check->outcome, stats::CheckOutcome::kNotGated);
  EXPECT_EQ(none.check->gated_metrics, 0);
  EXPECT_NE(none.check->not_gated_reason.find("shard 2/3: callgrind"), std::string::npos);
  // One part's error makes the whole an error.
  ReportPart broken = clean(2);
  broken.report.check->errors = {"benchmark engine/b failed"};
  EXPECT_EQ(merge_check_parts({clean(1), broken, clean(3)}).exit_code(), 2);
}

TEST(MergeCheckParts, AGapWhosePairRanInTwoPartsIsJudgedByTheMerge) {
  // engine/a in shard 1, sqlite/a in shard 2: neither part has the gap.
  ShardPlan split = plan();
  split.entries[1].shard = 2;  // sqlite/a
  split.entries[3].shard = 1;  // sqlite/b
  std::map<std::string, double> changes{{"engine/a", 0.30}};
  std::vector<ReportPart> parts{part(1, split, changes), part(2, split, changes),
                                part(3, split, changes)};
  EXPECT_TRUE(parts[0].report.oracle_gaps.empty());
  EXPECT_TRUE(parts[1].report.oracle_gaps.empty());
  ASSERT_EQ(parts[2].report.oracle_gaps.size(), 1u);  // c: both in shard 3
  Report r = merge_check_parts(parts);
  ASSERT_EQ(r.oracle_gaps.size(), 3u);
  EXPECT_EQ(r.oracle_gaps[0].workload, "a");
  EXPECT_NEAR(r.oracle_gaps[0].change, 0.30, 1e-12);
  EXPECT_EQ(r.oracle_gaps[0].verdict, stats::Verdict::kRegressed);
  EXPECT_EQ(r.oracle_gaps[0].gate, stats::Gate::kGated);
  EXPECT_NE(std::find_if(r.check->findings.begin(), r.check->findings.end(),
                         [](const std::string& f) { return f.rfind("oracle gap of a ", 0) == 0; }),
            r.check->findings.end());
  // Accepted by an entry for engine/a: accepted, and the entry is applied.
  for (auto& p : parts)
    p.report.check->accepted = {{"engine/a", "callgrind/ir", "abc", "why", "unused"}};
  for (auto& p : parts)
    std::erase_if(p.report.check->findings,
                  [](const std::string& f) { return f.rfind("engine/a", 0) == 0; });
  Report accepted = merge_check_parts(parts);
  EXPECT_EQ(accepted.oracle_gaps[0].gate, stats::Gate::kAccepted);
  EXPECT_EQ(accepted.check->accepted[0].status, "applied");
  // Parts without the rules (older ones) cannot be merged into a verdict on gaps.
  for (auto& p : parts) p.report.settings.erase("oracle_gap");
  try {
    merge_check_parts(parts);
    ADD_FAILURE() << "merged parts without settings.oracle_gap";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("settings.oracle_gap"), std::string::npos) << e.what();
  }
}

TEST(MergeCheckParts, GatesThatDifferBetweenMachinesAreKeptPerPart) {
  ReportPart other = part(2);
  other.report.check->gates = {
      {"callgrind", stats::Gate::kGated, "against 1234 built here", "reference"}};
  Report r = merge_check_parts({part(1), other, part(3)});
  ASSERT_EQ(r.check->gates.size(), 2u);
  EXPECT_EQ(r.check->gates[0].reason, "shards 1/3 (runner-1), 3/3 (runner-3)");
  EXPECT_EQ(r.check->gates[1].reason, "shard 2/3 (runner-2): against 1234 built here");
}

TEST(MergeCheckParts, RefusesWhatIsNotOneRun) {
  EXPECT_NE(error_of({}).find("needs the partial reports"), std::string::npos);
  EXPECT_NE(error_of({part(1), part(3)}).find("shard(s) 2/3 missing"), std::string::npos);
  EXPECT_NE(error_of({part(1), part(2), part(2), part(3)}).find("shard 2/3 is given twice"),
            std::string::npos);

  ReportPart other_commit = part(2);
  other_commit.report.b.commit = "deadbeef";
  EXPECT_NE(error_of({part(1), other_commit, part(3)}).find("the commit"), std::string::npos);
  ReportPart other_profile = part(2);
  other_profile.report.check->profile = "x86_64-debian12-clang14-release";
  EXPECT_NE(error_of({part(1), other_profile, part(3)}).find("the profile"), std::string::npos);
  ReportPart other_settings = part(3);
  other_settings.report.settings["timeout_s"] = 5;
  EXPECT_NE(error_of({part(1), part(2), other_settings}).find("the settings"), std::string::npos);
  ReportPart other_plan = part(2);
  other_plan.report.shard->plan.entries[0].cost.seconds = 9;
  EXPECT_NE(error_of({part(1), other_plan, part(3)}).find("plans differ"), std::string::npos);
  ReportPart other_count = part(2);
  other_count.report.shard->spec.count = 4;
  EXPECT_NE(error_of({part(1), other_count, part(3)}).find("the shard count"), std::string::npos);

  ReportPart stray = part(1);
  stray.report.benchmarks.push_back(part(2).report.benchmarks[0]);
  EXPECT_NE(error_of({stray, part(2), part(3)}).find("engine/b is not in its shard 1/3"),
            std::string::npos);

  ReportPart cut = part(2);
  cut.report.incomplete = Incomplete{SIGINT, 0, 1, "benchmarks"};
  EXPECT_NE(error_of({part(1), cut, part(3)}).find("re-run that shard"), std::string::npos);

  ReportPart whole = part(1);
  whole.report.shard.reset();
  EXPECT_NE(error_of({whole, part(2), part(3)}).find("not a partial report"), std::string::npos);
  ReportPart ab = part(1);
  ab.report.mode = "ab";
  EXPECT_NE(error_of({ab, part(2), part(3)}).find("mode \"ab\""), std::string::npos);
}

TEST(MergeCheckParts, AMergedReportSurvivesJsonAndIsNotAPart) {
  Report r = merge_check_parts({part(1), part(2), part(3)});
  nlohmann::json j = r;
  Report back = report_from_json(j, "merged.json");
  ASSERT_TRUE(back.merged);
  EXPECT_EQ(back.merged->plan, r.merged->plan);
  EXPECT_EQ(back.merged->parts.size(), 3u);
  EXPECT_EQ(back.exit_code(), 1);
  EXPECT_NE(error_of({{"merged.json", back}}).find("not a partial report"), std::string::npos);
  // A part survives JSON too, plan and all.
  nlohmann::json pj = part(2).report;
  Report p2 = report_from_json(pj, "part2.json");
  ASSERT_TRUE(p2.shard);
  EXPECT_EQ(p2.shard->spec, (ShardSpec{2, 3}));
  EXPECT_EQ(p2.shard->plan, plan());
  EXPECT_EQ(pj["shard"]["benchmarks"], (nlohmann::json{"engine/b", "sqlite/b"}));
}

}  // namespace
}  // namespace perfci::check
