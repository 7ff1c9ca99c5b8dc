// End to end: `perfci ab`, `aa`, `compare` and `report` as a user calls
// them, on the fixture binaries of tests/fixtures/ab (one source; B does 10%
// more work in BM_hash). Verdicts are asserted only where no load can change
// them (issue 23): callgrind Ir, and wall time of the "recorded" fixtures,
// which report manual times from a fixed sequence. Tests that run real
// clock trials assert the shape of the run (pairs, samples, the report),
// never its wall-time verdict.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "perfci/util/files.h"
#include "perfci/util/subprocess.h"
#include "tests/perfci_cli_testing.h"
#include "tests/report_schema_check.h"

namespace perfci {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace perfci::testing;  // NOLINT(google-build-using-namespace)

const json* metric(const json& b, const std::string& kind, const std::string& name) {
  for (const auto& m : b["metrics"])
    if (m["kind"] == kind && m["metric"] == name) return &m;
  return nullptr;
}

TEST(PerfciAb, CallgrindFindsTheSlowdownInExactlyOneBenchmark) {
  TempDir dir("perfci-ab");
  auto out = dir.path() / "r.json";
  auto r = perfci_cli({"ab", "--a", FX_A, "--b", FX_B, "--meter", "callgrind",
                       "--callgrind-iterations", "3", "--out", out.string(), "--md",
                       (dir.path() / "r.md").string(), "--html", (dir.path() / "r.html").string()});
  EXPECT_EQ(r.exit_code, 1) << explain(r);
  expect_valid_report(out);
  json rep = load(out);
  EXPECT_EQ(rep["schema"], "perfci.report/1");
  EXPECT_EQ(rep["mode"], "ab");
  EXPECT_EQ(rep["summary"]["verdict"], "regressed");
  EXPECT_EQ(rep["summary"]["regressed"], 1);
  EXPECT_EQ(rep["summary"]["unchanged"], 2);
  const json& hash = bench(rep, "BM_hash");
  EXPECT_EQ(hash["outcome"], "regressed");
  const json* ir = metric(hash, "callgrind", "ir");
  ASSERT_NE(ir, nullptr);
  EXPECT_NEAR((*ir)["comparison"]["ratio"].get<double>(), 1.10, 0.01);
  // Why: the work function's own cost grew by the same 10%.
  ASSERT_TRUE(hash.contains("explanation"));
  EXPECT_EQ(hash["explanation"]["source"], "callgrind");
  bool mix_grew = false;
  for (const auto& s : hash["explanation"]["symbols"])
    if (s["symbol"].get<std::string>().find("mix_rounds") != std::string::npos &&
        s["change"] == "grew")
      mix_grew = true;
  EXPECT_TRUE(mix_grew) << hash["explanation"].dump(2);
  for (const char* name : {"BM_sort", "BM_sum"}) {
    EXPECT_EQ(bench(rep, name)["outcome"], "unchanged") << name;
    EXPECT_NEAR((*metric(bench(rep, name), "callgrind", "ir"))["comparison"]["ratio"].get<double>(),
                1.0, 0.001);
  }
  // Both sides identified.
  EXPECT_FALSE(rep["a"]["build_id"].get<std::string>().empty());
  EXPECT_NE(rep["a"]["build_id"], rep["b"]["build_id"]);
  EXPECT_TRUE(rep["machine"].contains("cpu_model"));
  // Markdown on stdout and in the file, regression first.
  std::string md = read_file(dir.path() / "r.md");
  EXPECT_EQ(r.out, md);
  EXPECT_LT(md.find("| BM_hash |"), md.find("| BM_sort |"));
  EXPECT_NE(md.find("### Why BM_hash regressed"), std::string::npos);
  EXPECT_NE(read_file(dir.path() / "r.html").find("<svg class=\"plot\""), std::string::npos);

  // `perfci report` renders the saved report the same way.
  auto again = perfci_cli({"report", out.string(), "--format", "md"});
  EXPECT_EQ(again.exit_code, 0) << explain(again);
  EXPECT_EQ(again.out, md);
  auto html = perfci_cli({"report", out.string(), "--format", "html"});
  EXPECT_EQ(html.exit_code, 0) << explain(html);
  EXPECT_NE(html.out.find("<!DOCTYPE html>"), std::string::npos);
}

// An A/B split in two (issue 17): each part runs its share; `perfci merge`
// adjusts the p-values over all of them and gives the unsharded verdicts.
TEST(PerfciAb, TwoShardsMergedGiveTheVerdictsOfOneAb) {
  TempDir dir("perfci-ab-shards");
  auto ab = [&](std::vector<std::string> extra, const fs::path& out) {
    std::vector<std::string> args{
        "ab", FX_A,      "--b",   FX_B,        "--meter", "callgrind", "--callgrind-iterations",
        "2",  "--quiet", "--out", out.string()};
    args.insert(args.begin() + 1, "--a");
    args.insert(args.end(), extra.begin(), extra.end());
    return perfci_cli(args);
  };
  auto whole = ab({}, dir.path() / "whole.json");
  ASSERT_EQ(whole.exit_code, 1) << explain(whole);
  std::vector<std::string> parts;
  for (int k = 1; k <= 2; ++k) {
    fs::path out = dir.path() / ("part" + std::to_string(k) + ".json");
    auto r = ab({"--shard", std::to_string(k) + "/2"}, out);
    ASSERT_TRUE(fs::exists(out)) << explain(r);
    expect_valid_report(out);
    json rep = load(out);
    EXPECT_EQ(rep["shard"]["index"], k);
    EXPECT_EQ(rep["shard"]["plan"].size(), 3u);
    EXPECT_EQ(rep["benchmarks"].size(), rep["shard"]["benchmarks"].size());
    EXPECT_NE(read_file(out).find("\"shard\": \"" + std::to_string(k) + "/2\""), std::string::npos);
    parts.push_back(out.string());
  }
  auto merged = perfci_cli(
      {"merge", "--quiet", "--out", (dir.path() / "merged").string(), parts[1], parts[0]});
  EXPECT_EQ(merged.exit_code, 1) << explain(merged);
  fs::path file = dir.path() / "merged" / "latest.json";
  expect_valid_report(file);
  json all = load(file);
  json one = load(dir.path() / "whole.json");
  EXPECT_EQ(all["summary"], one["summary"]);
  EXPECT_EQ(all["mode"], "ab");
  EXPECT_EQ(all["merged"]["parts"].size(), 2u);
  for (const char* name : {"BM_hash", "BM_sort", "BM_sum"}) {
    EXPECT_EQ(bench(all, name)["outcome"], bench(one, name)["outcome"]) << name;
    EXPECT_EQ((*metric(bench(all, name), "callgrind", "ir"))["samples"],
              (*metric(bench(one, name), "callgrind", "ir"))["samples"])
        << name;
  }
  EXPECT_TRUE(bench(all, "BM_hash").contains("explanation"));
  std::string md = read_file(dir.path() / "merged" / "latest.md");
  EXPECT_NE(md.find("Merged by `perfci merge` from 2 shards"), std::string::npos) << md;

  // A part of another run (other sides) is refused, naming the difference.
  fs::path other = dir.path() / "other.json";
  auto r =
      perfci_cli({"ab", "--a", FX_A, "--b", FX_A, "--meter", "callgrind", "--callgrind-iterations",
                  "2", "--quiet", "--shard", "2/2", "--out", other.string()});
  ASSERT_TRUE(fs::exists(other)) << explain(r);
  auto mixed = perfci_cli(
      {"merge", "--quiet", "--out", (dir.path() / "x").string(), parts[0], other.string()});
  EXPECT_EQ(mixed.exit_code, 2) << explain(mixed);
  EXPECT_NE(mixed.err_tail.find("not parts of one sharded run"), std::string::npos)
      << mixed.err_tail;
}

TEST(PerfciAb, AaOfOneBinaryIsUnchangedEverywhereAndMeasuresNoise) {
  TempDir dir("perfci-aa");
  auto out = dir.path() / "aa.json";
  auto r = perfci_cli({"aa", FX_A, "--meter", "wall,callgrind", "--callgrind-iterations", "2",
                       "--pairs", "6", "--confirm-pairs", "10", "--min-time", "0.01", "--seed", "3",
                       "--out", out.string(), "--quiet"});
  // Real clock trials: exit 0 or 1 is the machine's verdict; 2 would be perfci's error.
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << explain(r);
  expect_valid_report(out);
  json rep = load(out);
  EXPECT_EQ(rep["mode"], "aa");
  EXPECT_EQ(rep["run"]["pairs"], 6);
  // Whether a wall metric became a suspect depends on this machine's load;
  // the run's accounting does not: confirmation runs exactly for suspects.
  const int confirmed = rep["run"]["confirmation_pairs"].get<int>();
  EXPECT_TRUE(confirmed == 0 || confirmed == 10) << confirmed;
  for (const char* name : {"BM_hash", "BM_sort", "BM_sum"}) {
    const json& b = bench(rep, name);
    const json* ir = metric(b, "callgrind", "ir");
    ASSERT_NE(ir, nullptr) << name;
    EXPECT_EQ((*ir)["outcome"], "unchanged") << name;
    const json* wall = metric(b, "wall", "real_time_ns");
    ASSERT_NE(wall, nullptr) << name;
    EXPECT_EQ((*wall)["samples"]["a"].size(), 6u);
    ASSERT_TRUE(wall->contains("noise")) << name;
    EXPECT_GE((*wall)["noise"]["pair_noise"].get<double>(), 0);
  }
}

// A fresh copy of a fixture: its run counters (recorded times, faults)
// start at zero, so every run of the test sees the same sequence.
// The recorded fixtures' benchmarks use manual time, which Google Benchmark
// names "BM_hash/manual_time".
fs::path fixture_copy(const TempDir& dir, const char* fixture, const std::string& name) {
  fs::path copy = dir.path() / name;
  fs::copy_file(fixture, copy);
  fs::permissions(copy, fs::perms::owner_all);
  return copy;
}

TEST(PerfciAb, WallTimeFindsASlowdownAndConfirmsIt) {
  TempDir dir("perfci-abw");
  write_file_atomic(dir.path() / "perfci.json", R"({"schema": "perfci.config/1",
    "suites": [{"name": "fx", "binary": "unused"}],
    "metrics": {"wall": {"threshold": 0.03}}})");
  auto a = fixture_copy(dir, FX_REC_A, "rec_a");
  auto b = fixture_copy(dir, FX_REC_B, "rec_b");
  auto out = dir.path() / "w.json";
  auto r =
      perfci_cli({"ab", "--a", a.string(), "--b", b.string(), "--config",
                  (dir.path() / "perfci.json").string(), "--meter", "wall", "--pairs", "12",
                  "--confirm-pairs", "10", "--min-time", "0.01", "--out", out.string(), "--quiet"});
  EXPECT_EQ(r.exit_code, 1) << explain(r);
  expect_valid_report(out);
  json rep = load(out);
  const json& hash = bench(rep, "BM_hash/manual_time");
  EXPECT_EQ(hash["outcome"], "regressed");
  // Real time is the recorded one: +10% +-4%, in every pair, on any machine.
  const json* real = metric(hash, "wall", "real_time_ns");
  ASSERT_NE(real, nullptr);
  EXPECT_EQ((*real)["outcome"], "regressed") << (*real)["reason"];
  EXPECT_EQ((*real)["first_decision"]["verdict"], "regressed");
  ASSERT_TRUE(real->contains("confirmation"));
  EXPECT_EQ((*real)["confirmation"]["samples"]["a"].size(), 10u);
  EXPECT_EQ((*real)["confirmation"]["decision"]["verdict"], "regressed");
  EXPECT_NE((*real)["reason"].get<std::string>().find("confirmed by 10 fresh pairs"),
            std::string::npos)
      << (*real)["reason"];
  EXPECT_EQ(rep["run"]["pairs"], 12);
  EXPECT_EQ(rep["run"]["confirmation_pairs"], 10);
  // No profiling meter was asked for: callgrind ran on the regressed benchmark
  // alone so that the report can still say where the time went.
  ASSERT_TRUE(hash.contains("explanation"));
  EXPECT_EQ(hash["explanation"]["source"], "callgrind");
  EXPECT_FALSE(hash["explanation"]["symbols"].empty());
  for (const char* name : {"BM_sort/manual_time", "BM_sum/manual_time"}) {
    const json* rt = metric(bench(rep, name), "wall", "real_time_ns");
    ASSERT_NE(rt, nullptr) << name;
    EXPECT_NE((*rt)["outcome"], "regressed") << name << ": " << (*rt)["reason"];
    EXPECT_NE((*rt)["outcome"], "improved") << name << ": " << (*rt)["reason"];
  }
}

// An A/A goes through the same pipeline as an A/B, confirmation included:
// with the recorded +-2% trial noise, no real-time verdict may claim a change.
TEST(PerfciAb, AaOfRecordedTimesClaimsNoChange) {
  TempDir dir("perfci-aar");
  auto a = fixture_copy(dir, FX_REC_A, "rec_a");
  auto out = dir.path() / "aa.json";
  auto r = perfci_cli({"aa", a.string(), "--meter", "wall", "--pairs", "10", "--min-time", "0.01",
                       "--out", out.string(), "--quiet"});
  json rep = load(out);
  for (const char* name : {"BM_hash/manual_time", "BM_sort/manual_time", "BM_sum/manual_time"}) {
    const json* rt = metric(bench(rep, name), "wall", "real_time_ns");
    ASSERT_NE(rt, nullptr) << name;
    EXPECT_TRUE((*rt)["outcome"] == "unchanged" || (*rt)["outcome"] == "noisy")
        << name << ": " << (*rt)["reason"];
    ASSERT_TRUE(rt->contains("noise")) << name;
  }
  EXPECT_NE(r.exit_code, 2) << explain(r);
}

TEST(PerfciAb, ABudgetRunsPairsUntilItIsSpentButAtLeastTheMinimum) {
  TempDir dir("perfci-budget");
  auto out = dir.path() / "b.json";
  auto r = perfci_cli({"aa", FX_A, "--filter", "BM_sort", "--meter", "wall", "--budget", "1s",
                       "--min-time", "0.01", "--out", out.string(), "--quiet"});
  // Real clock trials: the verdict (exit 0 or 1) is the machine's; the run's
  // shape is not. An error (exit 2) would be perfci's.
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << explain(r);
  json rep = load(out);
  expect_valid_report(out);
  EXPECT_EQ(rep["settings"]["budget_s"], 1);
  // One second is less than a pair takes here: the minimum of 5 pairs still runs.
  EXPECT_GE(rep["run"]["pairs"].get<int>(), 5);
  EXPECT_EQ(rep["benchmarks"].size(), 1u);
  const json* rt = metric(bench(rep, "BM_sort"), "wall", "real_time_ns");
  ASSERT_NE(rt, nullptr);
  EXPECT_EQ((*rt)["samples"]["a"].size(), rep["run"]["pairs"].get<std::size_t>());
}

TEST(PerfciAbErrors, MissingBinaryUnknownFilterAndBadReport) {
  TempDir dir("perfci-abe");
  auto missing = perfci_cli({"ab", "--a", (dir.path() / "nope").string(), "--b", FX_A, "--quiet"});
  EXPECT_EQ(missing.exit_code, 2) << explain(missing);
  EXPECT_NE(missing.err_tail.find("does not exist"), std::string::npos) << missing.err_tail;

  auto filter =
      perfci_cli({"ab", "--a", FX_A, "--b", FX_B, "--filter", "BM_no_such_thing", "--quiet"});
  EXPECT_EQ(filter.exit_code, 2) << explain(filter);
  EXPECT_NE(filter.err_tail.find("selects no benchmark"), std::string::npos) << filter.err_tail;

  auto pairs = perfci_cli({"ab", "--a", FX_A, "--b", FX_B, "--pairs", "0", "--quiet"});
  EXPECT_EQ(pairs.exit_code, 2) << explain(pairs);
  auto budget = perfci_cli({"ab", "--a", FX_A, "--b", FX_B, "--budget", "soon", "--quiet"});
  EXPECT_EQ(budget.exit_code, 2) << explain(budget);
  EXPECT_NE(budget.err_tail.find("not a duration"), std::string::npos) << budget.err_tail;

  auto report = perfci_cli({"report", (dir.path() / "missing.json").string()});
  EXPECT_EQ(report.exit_code, 2) << explain(report);
  write_file_atomic(dir.path() / "other.json", R"({"schema": "perfci.results/1"})");
  auto other = perfci_cli({"report", (dir.path() / "other.json").string()});
  EXPECT_EQ(other.exit_code, 2) << explain(other);
  EXPECT_NE(other.err_tail.find("perfci.report/1"), std::string::npos) << other.err_tail;
}

fs::path faulty_copy(const TempDir& dir) { return fixture_copy(dir, FX_FAULTY, "faulty_bench"); }

TEST(PerfciAbErrors, ABenchmarkThatCrashesInATrialIsMarkedFailed) {
  TempDir dir("perfci-crash");
  auto copy = faulty_copy(dir);
  auto out = dir.path() / "c.json";
  auto r = perfci_cli({"aa", copy.string(), "--filter", "BM_ok|BM_crash", "--meter", "wall",
                       "--pairs", "2", "--min-time", "0.01", "--out", out.string(), "--quiet"});
  EXPECT_EQ(r.exit_code, 2) << explain(r);
  EXPECT_NE(r.err_tail.find("BM_crash"), std::string::npos) << r.err_tail;
  EXPECT_NE(r.err_tail.find("fixture: deliberate crash"), std::string::npos) << r.err_tail;
  expect_valid_report(out);
  json rep = load(out);
  EXPECT_EQ(rep["summary"]["verdict"], "failed");
  const json& crash = bench(rep, "BM_crash");
  EXPECT_EQ(crash["outcome"], "failed");
  std::string error = crash["error"];
  EXPECT_NE(error.find("signal 6"), std::string::npos) << error;
  EXPECT_NE(error.find("fixture: deliberate crash"), std::string::npos) << error;
  // The other benchmark was measured in every pair.
  const json& ok = bench(rep, "BM_ok");
  EXPECT_FALSE(ok.contains("error"));
  EXPECT_EQ((*metric(ok, "wall", "real_time_ns"))["samples"]["a"].size(), 2u);
}

TEST(PerfciAbErrors, ABenchmarkThatHangsTimesOut) {
  TempDir dir("perfci-hang");
  auto copy = faulty_copy(dir);
  auto out = dir.path() / "h.json";
  auto r =
      perfci_cli({"aa", copy.string(), "--filter", "BM_ok|BM_hang", "--meter", "wall", "--pairs",
                  "1", "--min-time", "0.01", "--timeout", "3s", "--out", out.string(), "--quiet"});
  EXPECT_EQ(r.exit_code, 2) << explain(r);
  json rep = load(out);
  const json& hang = bench(rep, "BM_hang");
  EXPECT_EQ(hang["outcome"], "failed");
  EXPECT_NE(hang["error"].get<std::string>().find("timed out"), std::string::npos) << hang["error"];
  EXPECT_NE(r.err_tail.find("timed out"), std::string::npos) << r.err_tail;
  // Measured in its one pair: too few to decide, but not failed.
  EXPECT_FALSE(bench(rep, "BM_ok").contains("error"));
  EXPECT_EQ((*metric(bench(rep, "BM_ok"), "wall", "real_time_ns"))["samples"]["a"].size(), 1u);
}

void git(const fs::path& repo, std::vector<std::string> args) {
  SubprocessOptions o;
  o.argv = {
      "git", "-C", repo.string(), "-c", "user.name=perfci", "-c", "user.email=perfci@example.com"};
  o.argv.insert(o.argv.end(), args.begin(), args.end());
  auto r = run_subprocess(o);
  ASSERT_TRUE(r.ok()) << format_command(o.argv) << ": " << r.describe() << r.err_tail;
}

void write_tiny_project(const fs::path& repo, int rounds) {
  write_file_atomic(repo / "CMakeLists.txt", R"(cmake_minimum_required(VERSION 3.25)
project(tiny LANGUAGES CXX)
find_package(benchmark REQUIRED)
add_executable(bench bench.cc)
target_link_libraries(bench PRIVATE benchmark::benchmark_main)
)");
  write_file_atomic(repo / "bench.cc", R"(#include <benchmark/benchmark.h>
#include <cstdint>
static void BM_work(benchmark::State& state) {
  for (auto _ : state) {
    std::uint64_t x = 1;
    for (int i = 0; i < )" + std::to_string(rounds) +
                                           R"(; ++i) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; }
    benchmark::DoNotOptimize(x);
  }
}
BENCHMARK(BM_work);
)");
  write_file_atomic(repo / "perfci.json", R"({"schema": "perfci.config/1",
  "build": {"preset": "release", "targets": ["bench"]},
  "suites": [{"name": "tiny", "binary": "bench"}]})");
}

TEST(PerfciCompare, BuildsBothRevisionsInWorktreesAndReusesThem) {
  TempDir dir("perfci-compare");
  fs::path repo = dir.path() / "repo";
  fs::create_directories(repo);
  git(repo, {"init", "-q"});
  write_tiny_project(repo, 1000);
  git(repo, {"add", "."});
  git(repo, {"commit", "-q", "-m", "one"});
  write_tiny_project(repo, 2000);
  git(repo, {"commit", "-q", "-am", "two"});

  std::vector<std::string> args{"compare", "HEAD~1",
                                "HEAD",    "--meter",
                                "wall",    "--pairs",
                                "2",       "--confirm-pairs",
                                "0",       "--min-time",
                                "0.01",    "--quiet",
                                "--cache", (dir.path() / "cache").string()};
  auto first_args = args;
  first_args.insert(first_args.end(), {"--out", (dir.path() / "1.json").string()});
  auto first = perfci_cli(first_args, repo);
  ASSERT_TRUE(first.exit_code == 0 || first.exit_code == 1) << explain(first);
  json one = load(dir.path() / "1.json");
  EXPECT_EQ(one["a"]["revision"], "HEAD~1");
  EXPECT_EQ(one["b"]["revision"], "HEAD");
  EXPECT_EQ(one["a"]["commit"].get<std::string>().size(), 40u);
  EXPECT_NE(one["a"]["commit"], one["b"]["commit"]);
  EXPECT_FALSE(one["a"]["build"]["reused"].get<bool>());
  EXPECT_FALSE(one["b"]["build"]["reused"].get<bool>());
  EXPECT_TRUE(
      fs::exists(dir.path() / "cache" / one["a"]["commit"].get<std::string>() / "build" / "bench"));
  EXPECT_EQ(bench(one, "BM_work")["metrics"][0]["samples"]["a"].size(), 2u);

  auto second_args = args;
  second_args.insert(second_args.end(), {"--out", (dir.path() / "2.json").string()});
  auto second = perfci_cli(second_args, repo);
  ASSERT_TRUE(second.exit_code == 0 || second.exit_code == 1) << explain(second);
  json two = load(dir.path() / "2.json");
  EXPECT_TRUE(two["a"]["build"]["reused"].get<bool>());
  EXPECT_TRUE(two["b"]["build"]["reused"].get<bool>());
  EXPECT_EQ(two["a"]["build_id"], one["a"]["build_id"]);

  // Not revisions: refused with a message, nothing built.
  for (std::vector<std::string> bad :
       {std::vector<std::string>{"compare", "--", "--upload-pack=touch x", "HEAD"},
        {"compare", ";rm -rf /", "HEAD"},
        {"compare", "HEAD", "no-such-branch"}}) {
    auto r = perfci_cli(bad, repo);
    EXPECT_EQ(r.exit_code, 2) << explain(r);
    EXPECT_NE(r.err_tail.find("revision"), std::string::npos) << r.err_tail;
  }
  EXPECT_FALSE(fs::exists(repo / "x"));
}

}  // namespace
}  // namespace perfci
