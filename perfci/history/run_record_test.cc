// Records built from a check report (side A the stored baseline), an A/B
// report (sample_report), results and saved files; the key is the same live
// and from the saved file; parents come from git.
#include "perfci/history/run_record.h"

#include <gtest/gtest.h>

#include "perfci/analysis/sample_report.h"
#include "perfci/baseline/baseline_fixtures.h"
#include "perfci/check/baseline_comparison.h"
#include "perfci/util/error.h"
#include "perfci/util/files.h"
#include "perfci/util/subprocess.h"

namespace perfci::history {
namespace {

namespace fs = std::filesystem;
using baseline::fixtures::Values;
using nlohmann::json;

const Point* find(const SideRecord& s, const std::string& bench, const std::string& kind) {
  for (const auto& p : s.points)
    if (p.benchmark == bench && p.kind == kind) return &p;
  return nullptr;
}

perfci::Report check_report() {
  const std::map<std::string, Values> base{{"engine/read", {10000.0, 2000.0}},
                                           {"engine/write", {20000.0, 4000.0}}};
  auto current = base;
  current["engine/write"] = {20200.0, 4000.0};
  check::CheckInputs in;
  in.baseline = baseline::fixtures::sample_baseline(base);
  in.baseline_file = "baselines/p/engine.json";
  in.profile = baseline::fixtures::sample_profile();
  in.settings = in.baseline.settings;
  in.current = baseline::fixtures::sample_results(current);
  in.commit = std::string(40, 'c');
  in.settings_json = {{"command", "check"}, {"suite", "engine"}, {"branch", "feature"}};
  check::CheckConfig config;
  config.policies =
      MetricPolicies::from_config(json::parse(R"({"metrics": {"wall": {"threshold": 0.5}}})"), "t");
  return check::compare_with_baseline(std::move(in), config);
}

TEST(RunRecord, ContentKeyIsFnv1a64OfTheCompactDump) {
  // FNV-1a 64 of the three bytes "a" with its quotes, computed independently.
  EXPECT_EQ(content_key(json("a")), "fnv1a64:d4272417d7c77eea");
  EXPECT_EQ(content_key(json::parse(R"({"b": 1, "a": 2})")),
            content_key(json::parse(R"({"a":2,"b":1})")));
  EXPECT_NE(content_key(json::parse(R"({"a": 1})")), content_key(json::parse(R"({"a": 2})")));
}

TEST(RunRecord, ACheckReportRecordsTheBaselineAsAAndThisRunAsB) {
  const perfci::Report rep = check_report();
  ASSERT_TRUE(rep.check);
  const RunRecord r = record_from_report(rep, "check");
  EXPECT_EQ(r.command, "check");
  EXPECT_EQ(r.outcome, "fail");
  EXPECT_EQ(r.branch, "feature");
  EXPECT_EQ(r.suite, rep.check->suite);
  EXPECT_EQ(r.created, rep.created);
  EXPECT_EQ(r.key, content_key(json(rep)));
  ASSERT_EQ(r.sides.size(), 2u);
  const SideRecord& a = r.sides[0];
  const SideRecord& b = r.sides[1];
  EXPECT_EQ(a.label, "A");
  EXPECT_EQ(a.commit, std::string(40, 'a'));  // the baseline's commit
  EXPECT_EQ(a.profile, rep.check->baseline_profile);
  EXPECT_EQ(b.label, "B");
  EXPECT_EQ(b.commit, std::string(40, 'c'));
  EXPECT_EQ(b.profile, rep.check->profile);
  EXPECT_FALSE(b.profile.empty());
  const Point* ir_a = find(a, "engine/write", "callgrind");
  const Point* ir_b = find(b, "engine/write", "callgrind");
  ASSERT_TRUE(ir_a && ir_b);
  EXPECT_EQ(ir_a->median, 20000.0);
  EXPECT_EQ(ir_b->median, 20200.0);
  EXPECT_EQ(ir_b->n, 1);
  EXPECT_TRUE(ir_b->deterministic);
  EXPECT_FALSE(ir_b->lo);
  EXPECT_EQ(ir_b->unit, "instructions/iteration");
  bool regressed = false;
  for (const auto& c : r.comparisons)
    if (c.benchmark == "engine/write" && c.kind == "callgrind") {
      regressed = true;
      EXPECT_EQ(c.decision, "regressed");
      EXPECT_EQ(c.gate, "gated");
      EXPECT_EQ(c.outcome, "regressed");
      EXPECT_NEAR(c.estimate, 1.01, 1e-12);
    }
  EXPECT_TRUE(regressed);
}

TEST(RunRecord, AnAbReportRecordsBothSidesWithMediansAndIntervals) {
  const perfci::Report rep = analysis::testing::sample_report();
  const RunRecord r = record_from_report(rep, "compare");
  EXPECT_EQ(r.command, "compare");
  EXPECT_EQ(r.outcome, std::string(stats::to_string(rep.verdict)));
  EXPECT_EQ(r.cpu_model, "Test CPU");
  EXPECT_EQ(r.branch, "");
  ASSERT_EQ(r.sides.size(), 2u);
  const SideRecord& a = r.sides[0];
  const SideRecord& b = r.sides[1];
  EXPECT_EQ(a.commit, std::string(40, 'a'));
  EXPECT_EQ(a.revision, "HEAD~1");
  EXPECT_EQ(b.commit, std::string(40, 'b'));
  EXPECT_TRUE(b.dirty);
  EXPECT_EQ(a.profile, "");  // an A/B report names no profile
  const Point* wall_a = find(a, "engine/point_lookup", "wall");
  ASSERT_TRUE(wall_a);
  EXPECT_EQ(wall_a->n, 10);
  EXPECT_FALSE(wall_a->deterministic);
  // The median of 1000, 1012, 995, 1003, 990, 1007, 1001, 998, 1010, 994.
  EXPECT_DOUBLE_EQ(wall_a->median, 1000.5);
  ASSERT_TRUE(wall_a->lo && wall_a->hi);
  EXPECT_LE(*wall_a->lo, wall_a->median);
  EXPECT_GE(*wall_a->hi, wall_a->median);
  const Point* ir_b = find(b, "engine/point_lookup", "callgrind");
  ASSERT_TRUE(ir_b);
  EXPECT_EQ(ir_b->median, 22000);
  EXPECT_TRUE(ir_b->deterministic);
  // The failed benchmark has no point, and no comparison.
  EXPECT_FALSE(find(a, "engine/<crash>", "wall"));
  EXPECT_EQ(r.comparisons.size(), 4u);
  ASSERT_EQ(r.contracts.size(), 4u);
  EXPECT_EQ(r.contracts[0].side, "A");
  EXPECT_EQ(r.contracts[0].status, "ok");
  EXPECT_EQ(r.contracts[2].side, "B");
  EXPECT_EQ(r.contracts[2].status, "broken");
  EXPECT_EQ(r.contracts[2].name, "varint inlined into seek");
}

TEST(RunRecord, ASavedReportHasTheKeyOfTheLiveOne) {
  TempDir dir("perfci-history");
  const perfci::Report rep = check_report();
  const fs::path file = dir.path() / "r.json";
  save_report(rep, file.string());
  const RunRecord live = record_from_report(rep, "check");
  const RunRecord saved = record_from_file(file);
  EXPECT_EQ(saved.key, live.key);
  EXPECT_EQ(saved.command, "check");  // settings.command
  EXPECT_EQ(saved.source, file.string());
  EXPECT_EQ(saved.sides.size(), live.sides.size());
  EXPECT_EQ(saved.sides[1].points.size(), live.sides[1].points.size());

  const perfci::Report ab = analysis::testing::sample_report();
  const fs::path ab_file = dir.path() / "ab.json";
  save_report(ab, ab_file.string());
  EXPECT_EQ(record_from_file(ab_file).key, record_from_report(ab, "ab").key);
  EXPECT_EQ(record_from_file(ab_file).command, "ab");  // no settings.command: the mode
}

TEST(RunRecord, ResultsAreOneUnlabelledSide) {
  TempDir dir("perfci-history");
  RunResults res = baseline::fixtures::sample_results({{"engine/read", {10000.0, 2000.0}}});
  const RunRecord r = record_from_results(res, std::string(40, 'd'), true, "p");
  EXPECT_EQ(r.command, "run");
  ASSERT_EQ(r.sides.size(), 1u);
  EXPECT_EQ(r.sides[0].label, "");
  EXPECT_EQ(r.sides[0].commit, std::string(40, 'd'));
  EXPECT_TRUE(r.sides[0].dirty);
  const Point* ir = find(r.sides[0], "engine/read", "callgrind");
  ASSERT_TRUE(ir);
  EXPECT_EQ(ir->median, 10000.0);
  const fs::path file = dir.path() / "results.json";
  save_run_results(res, file.string());
  const RunRecord saved = record_from_file(file);
  EXPECT_EQ(saved.key, r.key);
  EXPECT_EQ(saved.sides[0].points.size(), r.sides[0].points.size());
  EXPECT_EQ(saved.created.size(), std::string("2026-01-02T03:04:05Z").size());
}

TEST(RunRecord, AFileOfAnotherKindIsAnErrorNamingIt) {
  TempDir dir("perfci-history");
  const fs::path bad = dir.path() / "bad.json";
  write_file_atomic(bad, "{not json");
  const fs::path other = dir.path() / "other.json";
  write_file_atomic(other, R"({"schema": "perfci.baseline/1"})");
  for (const fs::path& p : {bad, other, dir.path() / "missing.json"}) {
    try {
      record_from_file(p);
      ADD_FAILURE() << p;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(p.string()), std::string::npos) << e.what();
    }
  }
}

std::string git(const fs::path& repo, std::vector<std::string> args) {
  SubprocessOptions o;
  o.argv = {"git", "-C", repo.string(), "-c", "user.name=t", "-c", "user.email=t@example.com"};
  o.argv.insert(o.argv.end(), args.begin(), args.end());
  auto r = run_subprocess(o);
  EXPECT_TRUE(r.ok()) << r.err_tail;
  std::string out = r.out;
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

TEST(RunRecord, ParentsComeFromGit) {
  TempDir dir("perfci-history");
  git(dir.path(), {"init", "-q"});
  git(dir.path(), {"commit", "-q", "--allow-empty", "-m", "one"});
  const std::string first = git(dir.path(), {"rev-parse", "HEAD"});
  git(dir.path(), {"commit", "-q", "--allow-empty", "-m", "two"});
  const std::string second = git(dir.path(), {"rev-parse", "HEAD"});
  RunRecord r;
  r.sides = {{"A", "", first, "", false, "", {}},
             {"B", "", second, "", false, "", {}},
             {"C", "", std::string(40, 'e'), "", false, "", {}},
             {"D", "", "", "", false, "", {}}};
  fill_parents(r, dir.path());
  EXPECT_EQ(r.sides[0].parent, "");  // a root commit
  EXPECT_EQ(r.sides[1].parent, first);
  EXPECT_EQ(r.sides[2].parent, "");  // unknown to git
  EXPECT_EQ(r.sides[3].parent, "");
}

}  // namespace
}  // namespace perfci::history
