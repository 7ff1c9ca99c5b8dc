// End to end: `perfci baseline update` and `perfci check` as a project uses
// them, on a throw-away project folder (a git repository with a perfci.json)
// whose "build" holds the fixture binaries of tests/fixtures/ab: A is the
// reference, B does 10% more work in BM_hash. Only callgrind Ir is compared,
// so every verdict here is deterministic; no timing is asserted.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "perfci/util/files.h"
#include "perfci/util/subprocess.h"
#include "tests/git_project_testing.h"
#include "tests/perfci_cli_testing.h"
#include "tests/report_schema_check.h"

namespace perfci {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace perfci::testing;  // NOLINT(google-build-using-namespace)

json config_json(int callgrind_iterations = 2) {
  return json::parse(R"({"schema": "perfci.config/1",
    "build": {"preset": "release", "targets": ["bench"]},
    "suites": [{"name": "fx", "binary": "bench", "callgrind": {"iterations": 2}}],
    "check": {"meters": ["callgrind"]},
    "metrics": {"callgrind": {"threshold": 0.002}}})")
      .patch(json::array({{{"op", "replace"},
                           {"path", "/suites/0/callgrind/iterations"},
                           {"value", callgrind_iterations}}}));
}

// A project folder: a git repository whose build/ holds one of the fixtures.
class PerfciCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = dir_.path() / "project";
    // The default build folder of the "release" preset: build/release.
    fs::create_directories(root_ / "build" / "release");
    write_config(config_json());
    write_file_atomic(root_ / ".gitignore", "/build/\n/reports/\n");
    use_binary(FX_A);
    git(root_, {"init", "-q"});
    git(root_, {"add", "."});
    git(root_, {"commit", "-q", "-m", "project"});
  }

  void write_config(const json& config) {
    write_file_atomic(root_ / "perfci.json", config.dump(2) + "\n");
  }

  void use_binary(const char* fixture) {
    fs::copy_file(fixture, root_ / "build" / "release" / "bench",
                  fs::copy_options::overwrite_existing);
  }

  SubprocessResult perfci(std::vector<std::string> args) {
    SubprocessOptions o;
    o.argv = {PERFCI_BINARY};
    o.argv.insert(o.argv.end(), args.begin(), args.end());
    o.argv.insert(o.argv.end(), {"--no-build", "--quiet"});
    o.cwd = root_.string();
    o.unset_env = {"GITHUB_ACTIONS"};
    o.timeout = std::chrono::minutes(10);
    return run_subprocess(o);
  }

  fs::path baseline_file() const {
    for (const auto& profile : fs::directory_iterator(root_ / "baselines"))
      return profile.path() / "fx.json";
    return {};
  }

  TempDir dir_{"perfci-check"};
  fs::path root_;
};

TEST_F(PerfciCheck, BaselineThenPassThenRegressionThenAcceptedThenUpdated) {
  // No baseline yet: exit 2 with the command that makes one.
  auto none = perfci({"check"});
  EXPECT_EQ(none.exit_code, 2) << explain(none);
  EXPECT_TRUE(has(none.err_tail, "no baseline for profile")) << none.err_tail;
  EXPECT_TRUE(has(none.err_tail, "baseline update")) << none.err_tail;
  EXPECT_TRUE(has(none.err_tail, "--reason")) << none.err_tail;

  auto made = perfci({"baseline", "update"});
  ASSERT_EQ(made.exit_code, 0) << explain(made);
  fs::path file = baseline_file();
  ASSERT_TRUE(fs::exists(file)) << explain(made);
  json stored = json::parse(read_file(file));
  EXPECT_EQ(stored["schema"], "perfci.baseline/1");
  EXPECT_EQ(stored["provenance"]["commit"], head(root_));
  EXPECT_EQ(stored["provenance"]["reason"],
            "first baseline for " + file.parent_path().filename().string());
  EXPECT_EQ(stored["results"]["benchmarks"].size(), 3u);
  EXPECT_FALSE(stored["profile"]["toolchain"]["producer"].get<std::string>().empty());

  // Replacing it needs a reason; without one nothing changes.
  std::string before = read_file(file);
  auto no_reason = perfci({"baseline", "update"});
  EXPECT_EQ(no_reason.exit_code, 2) << explain(no_reason);
  EXPECT_TRUE(has(no_reason.err_tail, "needs --reason")) << no_reason.err_tail;
  EXPECT_EQ(read_file(file), before);

  auto pass = perfci({"check"});
  EXPECT_EQ(pass.exit_code, 0) << explain(pass);
  for (const char* name : {"latest.json", "latest.md", "latest.html"})
    EXPECT_TRUE(fs::exists(root_ / "reports" / name));
  // reports/<commit>.json, "-dirty" when the tree has changes (here: the new baselines/).
  EXPECT_TRUE(fs::exists(root_ / "reports" / (head(root_) + "-dirty.json")));
  expect_valid_report(root_ / "reports" / "latest.json");
  json report = json::parse(read_file(root_ / "reports" / "latest.json"));
  EXPECT_EQ(report["mode"], "check");
  EXPECT_EQ(report["summary"]["exit_code"], 0);
  EXPECT_EQ(report["check"]["gates"][0]["gate"], "gated");
  EXPECT_TRUE(has(read_file(root_ / "reports" / "latest.md"), "## perfci check: **pass**"));

  // B: BM_hash does 10% more work. The check fails and names it.
  use_binary(FX_B);
  auto fail = perfci({"check"});
  EXPECT_EQ(fail.exit_code, 1) << explain(fail);
  EXPECT_TRUE(has(fail.err_tail, "FAIL: BM_hash: callgrind ir regressed +9.")) << fail.err_tail;
  EXPECT_FALSE(has(fail.err_tail, "BM_sort")) << fail.err_tail;
  expect_valid_report(root_ / "reports" / "latest.json");
  report = json::parse(read_file(root_ / "reports" / "latest.json"));
  EXPECT_EQ(report["summary"]["regressed"], 1);
  std::string md = read_file(root_ / "reports" / "latest.md");
  EXPECT_TRUE(has(md, "| BM_hash | callgrind ir |")) << md;
  EXPECT_TRUE(has(md, "**regressed**")) << md;
  EXPECT_TRUE(has(md, "### Why BM_hash changed")) << md;

  // The commit that makes the change, and an entry that accepts it.
  write_file_atomic(root_ / "CHANGE", "BM_hash does 10% more work\n");
  git(root_, {"add", "CHANGE"});
  git(root_, {"commit", "-q", "-m", "more hashing"});
  json config = config_json();
  config["accepted"] = {{{"benchmark", "BM_hash"},
                         {"metric", "callgrind/ir"},
                         {"commit", head(root_).substr(0, 12)},
                         {"reason", "more hashing on purpose"}}};
  write_config(config);
  auto accepted = perfci({"check"});
  EXPECT_EQ(accepted.exit_code, 0) << explain(accepted);
  report = json::parse(read_file(root_ / "reports" / "latest.json"));
  EXPECT_EQ(report["summary"]["accepted"], 1);
  EXPECT_EQ(report["check"]["accepted"][0]["status"], "applied");
  EXPECT_TRUE(has(read_file(root_ / "reports" / "latest.md"), "| accepted |"));

  // An entry naming a commit outside HEAD's history is refused.
  config["accepted"][0]["commit"] = "0123456789abcdef0123456789abcdef01234567";
  write_config(config);
  auto bogus = perfci({"check"});
  EXPECT_EQ(bogus.exit_code, 2) << explain(bogus);
  EXPECT_TRUE(has(bogus.err_tail, "accepted[0].commit")) << bogus.err_tail;

  // Or the baseline moves, with its reason; the check passes again.
  write_config(config_json());
  auto updated = perfci({"baseline", "update", "--reason", "BM_hash does 10% more work (CHANGE)"});
  ASSERT_EQ(updated.exit_code, 0) << explain(updated);
  EXPECT_EQ(json::parse(read_file(file))["provenance"]["reason"],
            "BM_hash does 10% more work (CHANGE)");
  auto green = perfci({"check"});
  EXPECT_EQ(green.exit_code, 0) << explain(green);
}

// A check split across three jobs (issue 17): each part measures its share
// of the plan, and `perfci merge` gives the verdicts of one unsharded check.
TEST_F(PerfciCheck, ThreeShardsMergedGiveTheVerdictsOfOneCheck) {
  auto made = perfci({"baseline", "update", "--reason", "start"});
  ASSERT_EQ(made.exit_code, 0) << explain(made);
  // The baseline records what each benchmark cost: the plan's input.
  json stored = json::parse(read_file(baseline_file()));
  for (const auto& b : stored["results"]["benchmarks"])
    EXPECT_GT(b["cost_s"]["callgrind"].get<double>(), 0) << b.dump();

  use_binary(FX_B);  // BM_hash regressed
  auto whole = perfci({"check"});
  ASSERT_EQ(whole.exit_code, 1) << explain(whole);
  json one = json::parse(read_file(root_ / "reports" / "latest.json"));

  std::vector<std::string> parts;
  std::set<std::string> measured;
  for (int k = 1; k <= 3; ++k) {
    std::string spec = std::to_string(k) + "/3";
    auto part = perfci({"check", "--shard", spec});
    std::string file =
        (root_ / "reports" / ("latest.shard-" + std::to_string(k) + "-of-3.json")).string();
    ASSERT_TRUE(fs::exists(file)) << explain(part);
    expect_valid_report(file);
    json j = json::parse(read_file(file));
    EXPECT_EQ(j["shard"]["index"], k);
    EXPECT_EQ(j["shard"]["plan"].size(), 3u);
    // One benchmark each; its exit code is its own part's verdict.
    ASSERT_EQ(j["benchmarks"].size(), 1u) << j.dump();
    std::string name = j["benchmarks"][0]["name"];
    EXPECT_TRUE(measured.insert(name).second) << name << " measured twice";
    EXPECT_EQ(part.exit_code, name == "BM_hash" ? 1 : 0) << explain(part);
    EXPECT_TRUE(
        has(read_file(root_ / "reports" / ("latest.shard-" + std::to_string(k) + "-of-3.md")),
            "(shard " + spec + ")"));
    parts.push_back(file);
  }
  EXPECT_EQ(measured, (std::set<std::string>{"BM_hash", "BM_sort", "BM_sum"}));
  // The partial reports left the whole suite's latest.json alone.
  EXPECT_EQ(json::parse(read_file(root_ / "reports" / "latest.json"))["created"], one["created"]);

  auto merge = [&](std::vector<std::string> files, const fs::path& out) {
    SubprocessOptions o;
    o.argv = {PERFCI_BINARY, "merge", "--quiet", "--out", out.string()};
    o.argv.insert(o.argv.end(), files.begin(), files.end());
    o.cwd = root_.string();
    o.unset_env = {"GITHUB_ACTIONS"};
    return run_subprocess(o);
  };
  auto merged = merge({parts[2], parts[0], parts[1]}, dir_.path() / "merged");
  EXPECT_EQ(merged.exit_code, 1) << explain(merged);
  EXPECT_TRUE(has(merged.err_tail, "FAIL: BM_hash: callgrind ir regressed +9.")) << merged.err_tail;
  fs::path merged_file = dir_.path() / "merged" / "latest.json";
  expect_valid_report(merged_file);
  json all = json::parse(read_file(merged_file));
  EXPECT_EQ(all["merged"]["parts"].size(), 3u);
  EXPECT_FALSE(all.contains("shard"));
  EXPECT_EQ(all["summary"], one["summary"]);
  EXPECT_EQ(all["check"]["outcome"], one["check"]["outcome"]);
  EXPECT_EQ(all["check"]["gated_metrics"], one["check"]["gated_metrics"]);
  EXPECT_EQ(all["check"]["findings"], one["check"]["findings"]);
  ASSERT_EQ(all["benchmarks"].size(), one["benchmarks"].size());
  for (std::size_t i = 0; i < one["benchmarks"].size(); ++i) {
    const json& x = one["benchmarks"][i];
    const json& y = all["benchmarks"][i];
    EXPECT_EQ(y["name"], x["name"]);
    EXPECT_EQ(y["outcome"], x["outcome"]);
    EXPECT_EQ(y["metrics"][0]["decision"], x["metrics"][0]["decision"]) << x["name"];
    EXPECT_EQ(y["metrics"][0]["outcome"], x["metrics"][0]["outcome"]) << x["name"];
    // Callgrind Ir is deterministic: the same counts, not merely the same verdict.
    EXPECT_EQ(y["metrics"][0]["samples"], x["metrics"][0]["samples"]) << x["name"];
  }
  EXPECT_TRUE(has(read_file(dir_.path() / "merged" / "latest.md"),
                  "Merged by `perfci merge` from 3 shards"));

  // A missing part, a part given twice, a file that is not a part: exit 2.
  auto missing = merge({parts[0], parts[2]}, dir_.path() / "x");
  EXPECT_EQ(missing.exit_code, 2) << explain(missing);
  EXPECT_TRUE(has(missing.err_tail, "shard(s) 2/3 missing")) << missing.err_tail;
  auto twice = merge({parts[0], parts[1], parts[1], parts[2]}, dir_.path() / "x");
  EXPECT_EQ(twice.exit_code, 2) << explain(twice);
  EXPECT_TRUE(has(twice.err_tail, "shard 2/3 is given twice")) << twice.err_tail;
  auto whole_report = merge({(root_ / "reports" / "latest.json").string()}, dir_.path() / "x");
  EXPECT_EQ(whole_report.exit_code, 2) << explain(whole_report);
  EXPECT_TRUE(has(whole_report.err_tail, "not a partial report")) << whole_report.err_tail;
  EXPECT_FALSE(fs::exists(dir_.path() / "x" / "latest.json"));

  // Bad --shard values fail before anything is built or measured.
  for (const char* bad : {"0/3", "4/3", "3", "a/b"}) {
    auto r = perfci({"check", "--shard", bad});
    EXPECT_EQ(r.exit_code, 2) << bad << ": " << explain(r);
    EXPECT_TRUE(has(r.err_tail, "--shard")) << r.err_tail;
  }
  auto too_many = perfci({"check", "--shard", "1/4"});
  EXPECT_EQ(too_many.exit_code, 2) << explain(too_many);
  EXPECT_TRUE(has(too_many.err_tail, "into 4 shards")) << too_many.err_tail;
}

TEST_F(PerfciCheck, CorruptMissingAndForeignBaselines) {
  auto made = perfci({"baseline", "update", "--reason", "start"});
  ASSERT_EQ(made.exit_code, 0) << explain(made);
  fs::path file = baseline_file();
  std::string good = read_file(file);

  // Half a file: exit 2 naming the file and the problem; the file stays as it is.
  write_file_atomic(file, good.substr(0, good.size() / 2));
  auto corrupt = perfci({"check"});
  EXPECT_EQ(corrupt.exit_code, 2) << explain(corrupt);
  EXPECT_TRUE(has(corrupt.err_tail, file.string())) << corrupt.err_tail;
  EXPECT_TRUE(has(corrupt.err_tail, "not valid JSON")) << corrupt.err_tail;
  EXPECT_EQ(read_file(file).size(), good.size() / 2);

  json broken = json::parse(good);
  broken["results"]["benchmarks"][1]["callgrind"]["total_ir"] = -5;
  write_file_atomic(file, broken.dump());
  auto field = perfci({"check"});
  EXPECT_EQ(field.exit_code, 2) << explain(field);
  EXPECT_TRUE(has(field.err_tail, "results.benchmarks[1].callgrind.total_ir")) << field.err_tail;

  // A missing baseline given by name.
  auto missing = perfci({"check", "--baseline", (dir_.path() / "elsewhere").string()});
  EXPECT_EQ(missing.exit_code, 2) << explain(missing);
  EXPECT_TRUE(has(missing.err_tail, "no baseline for profile")) << missing.err_tail;
  EXPECT_TRUE(has(missing.err_tail, "baseline update")) << missing.err_tail;

  // A baseline from another toolchain: Ir is information only, even though
  // B regressed, and with nothing else gated the check is "not gated" (exit
  // 3), never a pass. The fallback tried to rebuild the baseline's commit
  // here, and this project (prebuilt fixtures) cannot be built: it says so.
  json foreign = json::parse(good);
  foreign["profile"]["toolchain"]["compiler_version"] = "11.3.0";
  write_file_atomic(file, foreign.dump(2));
  use_binary(FX_B);
  auto other = perfci({"check"});
  EXPECT_EQ(other.exit_code, 3) << explain(other);
  EXPECT_TRUE(has(other.err_tail, "perfci check: not gated (exit 3, 0 gated metric(s))"))
      << other.err_tail;
  std::string md = read_file(root_ / "reports" / "latest.md");
  EXPECT_TRUE(has(md, "## perfci check: **not gated**")) << md;
  EXPECT_TRUE(has(
      md, "information only: the toolchain differs from the baseline's: compiler_version 11.3.0"))
      << md;
  EXPECT_TRUE(has(md, "no in-runner reference either: could not build or measure")) << md;
  EXPECT_TRUE(has(md, "regressed (information)")) << md;
  expect_valid_report(root_ / "reports" / "latest.json");
  json not_gated = json::parse(read_file(root_ / "reports" / "latest.json"));
  EXPECT_EQ(not_gated["summary"]["outcome"], "not gated");
  EXPECT_EQ(not_gated["summary"]["exit_code"], 3);
  EXPECT_EQ(json::parse(read_file(file)), foreign);  // check never writes a baseline
  // With the fallback switched off, the reason says that instead.
  json no_fallback = config_json();
  no_fallback["check"]["fallback"] = "none";
  write_config(no_fallback);
  auto off = perfci({"check"});
  EXPECT_EQ(off.exit_code, 3) << explain(off);
  EXPECT_TRUE(has(read_file(root_ / "reports" / "latest.md"), "check.fallback is \"none\""));
  write_config(config_json());

  // Other suite settings: nothing comparable, exit 2 with the remedy.
  write_config(config_json(3));
  auto settings = perfci({"check"});
  EXPECT_EQ(settings.exit_code, 2) << explain(settings);
  EXPECT_TRUE(has(settings.err_tail, "callgrind iterations")) << settings.err_tail;

  // A broken perfci.json: exit 2 naming the field.
  json bad = config_json();
  bad["check"]["gate"] = true;
  write_config(bad);
  auto config = perfci({"check"});
  EXPECT_EQ(config.exit_code, 2) << explain(config);
  EXPECT_TRUE(has(config.err_tail, "check.gate: unknown field")) << config.err_tail;
}

// A CI runner whose CPU differs from the baseline machine's (here: AVX-512
// and another model edited into the baseline) but whose valgrind view is the
// same: the program under callgrind saw the same CPU, so Ir stays gated
// against the stored baseline, and 0.25% more instructions fail (issue 13).
TEST_F(PerfciCheck, AnotherHostCpuWithTheSameValgrindViewStillGatesIr) {
  auto made = perfci({"baseline", "update", "--reason", "start"});
  ASSERT_EQ(made.exit_code, 0) << explain(made);
  fs::path file = baseline_file();
  json edited = json::parse(read_file(file));
  ASSERT_TRUE(edited["profile"]["toolchain"]["valgrind_view"].contains("facts"))
      << edited["profile"]["toolchain"].dump();
  auto& features = edited["profile"]["toolchain"]["cpu_features"];
  for (const char* f : {"avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512cd", "fsrm"})
    if (std::find(features.begin(), features.end(), f) == features.end()) features.push_back(f);
  features.erase(std::remove(features.begin(), features.end(), "sse2"), features.end());
  edited["profile"]["machine"]["cpu_model"] = "Some Other CPU @ 3.0GHz";
  write_file_atomic(file, edited.dump(2));

  auto same = perfci({"check"});
  EXPECT_EQ(same.exit_code, 0) << explain(same);
  json report = json::parse(read_file(root_ / "reports" / "latest.json"));
  EXPECT_EQ(report["check"]["gates"][0]["kind"], "callgrind");
  EXPECT_EQ(report["check"]["gates"][0]["gate"], "gated");
  EXPECT_EQ(report["check"]["gates"][0]["source"], "baseline");
  EXPECT_FALSE(report["check"].contains("reference"));
  EXPECT_EQ(report["summary"]["outcome"], "pass");
  EXPECT_GT(report["check"]["gated_metrics"].get<int>(), 0);
  bool host_shown = false;
  for (const auto& d : report["check"]["machine_differences"])
    host_shown |= d["fact"] == "cpu_features (host)";
  EXPECT_TRUE(host_shown) << report["check"].dump();

  use_binary(FX_B025);
  auto fail = perfci({"check"});
  EXPECT_EQ(fail.exit_code, 1) << explain(fail);
  EXPECT_TRUE(has(fail.err_tail, "FAIL: BM_hash: callgrind ir regressed +0.2")) << fail.err_tail;
  EXPECT_FALSE(has(fail.err_tail, "FAIL: BM_sort")) << fail.err_tail;
}

TEST_F(PerfciCheck, AFailingBenchmarkWritesNoBaseline) {
  // The faulty fixture crashes BM_crash from its second run on; the first
  // is spent here.
  use_binary(FX_FAULTY);
  SubprocessOptions once;
  once.argv = {(root_ / "build" / "release" / "bench").string(), "--benchmark_filter=BM_crash",
               "--benchmark_min_time=0.001"};
  ASSERT_TRUE(run_subprocess(once).ok());
  json config = config_json();
  config["suites"][0]["filter"] = "BM_ok|BM_crash";
  write_config(config);
  auto first = perfci({"baseline", "update"});
  EXPECT_EQ(first.exit_code, 2) << explain(first);
  EXPECT_TRUE(has(first.err_tail, "BM_crash")) << first.err_tail;
  EXPECT_FALSE(fs::exists(root_ / "baselines"));
}

TEST_F(PerfciCheck, ABrokenContractWritesNoBaseline) {
  // mix_rounds is noinline in the fixture: an "absent" contract on it breaks.
  json config = config_json();
  config["contracts"] = json::array(
      {{{"kind", "absent"}, {"name", "no out-of-line mixer"}, {"symbol", "*mix_rounds"}}});
  write_config(config);
  auto update = perfci({"baseline", "update"});
  EXPECT_EQ(update.exit_code, 1) << explain(update);
  EXPECT_TRUE(has(update.err_tail, "contract broken: no out-of-line mixer")) << update.err_tail;
  EXPECT_TRUE(has(update.err_tail, "a baseline must hold a state perfci check passes"))
      << update.err_tail;
  EXPECT_FALSE(fs::exists(root_ / "baselines"));
}

// A real project this time, built by perfci: the stored baseline's valgrind
// view differs from this runner's (a CPU valgrind presents otherwise), so
// the stored Ir cannot gate. check falls back to building the baseline's
// commit here and gating on that in-runner A/B: it passes on the unchanged
// tree and fails on 1% more work, naming the function (issue 13).
TEST(PerfciCheckFallback, AnotherValgrindViewIsGatedByAnInRunnerReference) {
  TempDir dir("perfci-fallback");
  fs::path repo = dir.path() / "repo";
  fs::create_directories(repo);
  write_hooked_project(repo, 4000);
  git(repo, {"init", "-q"});
  git(repo, {"add", "."});
  git(repo, {"commit", "-q", "-m", "one"});
  const std::string first = head(repo);
  auto cli = [&](std::vector<std::string> args) {
    SubprocessOptions o;
    o.argv = {PERFCI_BINARY};
    o.argv.insert(o.argv.end(), args.begin(), args.end());
    o.argv.push_back("--quiet");
    o.cwd = repo.string();
    o.unset_env = {"GITHUB_ACTIONS"};
    o.timeout = std::chrono::minutes(15);
    return run_subprocess(o);
  };
  auto made = cli({"baseline", "update", "--reason", "start"});
  ASSERT_EQ(made.exit_code, 0) << explain(made);
  fs::path file;
  for (const auto& profile : fs::directory_iterator(repo / "baselines"))
    file = profile.path() / "tiny.json";
  json edited = json::parse(read_file(file));
  auto& facts = edited["profile"]["toolchain"]["valgrind_view"]["facts"];
  ASSERT_TRUE(facts.contains("dl_hwcap")) << facts.dump();
  facts["x86.cpu_features.isa_1"] = "0x1";  // the baseline machine's valgrind showed x86-64-v1
  // That machine counted 10% fewer instructions: only a check that really
  // uses the reference, not these numbers, can pass below.
  for (auto& b : edited["results"]["benchmarks"])
    if (b.contains("callgrind")) {
      b["callgrind"]["ir_per_iteration"] = b["callgrind"]["ir_per_iteration"].get<double>() * 0.9;
      b["callgrind"]["total_ir"] =
          static_cast<std::uint64_t>(b["callgrind"]["total_ir"].get<double>() * 0.9);
    }
  write_file_atomic(file, edited.dump(2));
  // A revision that is none is refused before anything is measured.
  auto bad = cli({"check", "--reference", "no-such-revision"});
  EXPECT_EQ(bad.exit_code, 2) << explain(bad);
  EXPECT_TRUE(has(bad.err_tail, "unknown revision")) << bad.err_tail;
  auto self = cli({"check", "--reference", "WORKTREE"});
  EXPECT_EQ(self.exit_code, 2) << explain(self);

  auto same = cli({"check"});
  EXPECT_EQ(same.exit_code, 0) << explain(same);
  json report = json::parse(read_file(repo / "reports" / "latest.json"));
  EXPECT_EQ(report["check"]["gates"][0]["source"], "reference") << report["check"]["gates"].dump();
  ASSERT_TRUE(report["check"].contains("reference"));
  EXPECT_EQ(report["check"]["reference"]["commit"], first);
  EXPECT_EQ(report["check"]["reference"]["error"], "");
  EXPECT_TRUE(has(report["check"]["reference"]["why"].get<std::string>(),
                  "valgrind view x86.cpu_features.isa_1"));
  EXPECT_EQ(report["summary"]["outcome"], "pass");
  EXPECT_TRUE(fs::exists(repo / ".perfci-cache" / "worktrees" / first / "build" / "bench"));

  write_hooked_project(repo, 4040);
  git(repo, {"commit", "-q", "-am", "one percent more work"});
  auto slower = cli({"check"});
  EXPECT_EQ(slower.exit_code, 1) << explain(slower);
  EXPECT_TRUE(has(slower.err_tail, "FAIL: BM_work: callgrind ir regressed +")) << slower.err_tail;
  report = json::parse(read_file(repo / "reports" / "latest.json"));
  EXPECT_TRUE(report["check"]["reference"]["reused"].get<bool>());
  std::string md = read_file(repo / "reports" / "latest.md");
  EXPECT_TRUE(has(md, "Callgrind Ir is gated against `" + first + "`")) << md;
  EXPECT_TRUE(has(md, "work(unsigned long)")) << md;
}

}  // namespace
}  // namespace perfci
