#include "perfci/check/shard_merge.h"

#include <gtest/gtest.h>

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

MetricRun ir(stats::Verdict verdict, stats::Gate gate = stats::Gate::kGated) {
  MetricRun m;
  m.kind = "callgrind";
  m.metric = "ir";
  m.a = {1000};
  m.b = {verdict == stats::Verdict::kRegressed ? 1100.0 : 1000.0};
  m.decision.verdict = verdict;
  m.first_decision = m.decision;
  m.gate = gate;
  return m;
}

// Part k of one sharded check; shard 2's engine/b regressed.
ReportPart part(int k) {
  Report r;
  r.mode = "check";
  r.created = "2026-12-02T10:00:0" + std::to_string(k) + "Z";
  r.machine = {{"hostname", "runner-" + std::to_string(k)}, {"cpu_model", "cpu"}};
  r.b.commit = "c0ffee";
  r.settings = {{"command", "check"}, {"shard", std::to_string(k) + "/3"}};
  r.shard = ShardSection{{k, 3}, plan()};
  CheckSection c;
  c.suite = "engine";
  c.profile = "x86_64-debian12-gcc12-release";
  c.baseline_profile = c.profile;
  c.baseline_file = "baselines/x/engine.json";
  c.baseline_commit = "beef";
  c.gates = {{"callgrind", stats::Gate::kGated, "", "baseline"}};
  c.findings = {"contract X is broken"};  // every part checks the one binary
  for (const auto& name : r.shard->plan.names_of(k)) {
    BenchmarkReport b;
    b.run.name = name;
    bool regressed = name == "engine/b";
    b.run.metrics.push_back(ir(regressed ? stats::Verdict::kRegressed : stats::Verdict::kUnchanged));
    if (regressed) c.findings.push_back("engine/b: callgrind ir regressed +10.0%");
    r.benchmarks.push_back(std::move(b));
    ++c.gated_metrics;
  }
  OracleGap g;
  g.workload = std::string(1, static_cast<char>('a' + k - 1));
  g.benchmark = "engine/" + g.workload;
  g.oracle = "sqlite/" + g.workload;
  r.oracle_gaps.push_back(g);
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
  EXPECT_EQ(r.check->findings, (std::vector<std::string>{"contract X is broken",
                                                         "engine/b: callgrind ir regressed +10.0%"}));
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
    for (auto& b : p.report.benchmarks) b.run.metrics = {ir(stats::Verdict::kUnchanged)};
    return p;
  };
  EXPECT_EQ(merge_check_parts({clean(1), clean(2), clean(3)}).check->outcome,
            stats::CheckOutcome::kPass);
  // Nothing gated anywhere: not gated (exit 3), never pass.
  auto ungated = [&](int k) {
    ReportPart p = clean(k);
    for (auto& b : p.report.benchmarks)
      b.run.metrics = {ir(stats::Verdict::kUnchanged, stats::Gate::kInformation)};
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

TEST(MergeCheckParts, GatesThatDifferBetweenMachinesAreKeptPerPart) {
  ReportPart other = part(2);
  other.report.check->gates = {{"callgrind", stats::Gate::kGated, "against 1234 built here",
                                "reference"}};
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
