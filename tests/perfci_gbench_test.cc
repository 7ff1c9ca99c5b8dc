// End to end: perfci and Google Benchmark's JSON format (issue 17).
// - google/benchmark's own tools/compare.py reads `perfci run --format
//   gbench` output and perfci's plain results file;
// - `perfci ab --a-json/--b-json` compares two engine_bench --benchmark_out
//   files unpaired: a copy with every time scaled by 1.10 is flagged, the
//   same file on both sides (an A/A without noise) flags nothing;
// - `perfci report` renders one Google Benchmark file, or compares two.
// Nothing here asserts a timing: the 10% is made by scaling one real file,
// and a verdict is asserted where the data decide it whatever the machine
// did (see ScaledCopyIsFlagged).
#include <gtest/gtest.h>

#include <algorithm>
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

SubprocessResult run(std::vector<std::string> argv, const fs::path& cwd) {
  SubprocessOptions o;
  o.argv = std::move(argv);
  o.cwd = cwd.string();
  o.timeout = std::chrono::minutes(10);
  return run_subprocess(o);
}

const json* metric(const json& b, const std::string& name) {
  for (const auto& m : b["metrics"])
    if (m["metric"] == name) return &m;
  return nullptr;
}

// ---- compare.py on perfci's output ------------------------------------

class CompareOnPerfciOutput : public ::testing::Test {
 protected:
  TempDir dir{"perfci-gbench"};
  fs::path write(const std::string& name, const std::vector<std::string>& extra) {
    fs::path out = dir.path() / name;
    std::vector<std::string> args{
        "run",        "--binary", FIXTURE_BENCH, "--filter", "BM_sum|BM_empty_plain",
        "--min-time", "0.01",     "--quiet",     "--out",    out.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    auto r = perfci_cli(args, dir.path());
    EXPECT_TRUE(r.ok()) << explain(r);
    return out;
  }
  SubprocessResult compare(const fs::path& a, const fs::path& b) {
    return run({"/usr/bin/python3", COMPARE_PY, "--no-color", "benchmarks", a.string(), b.string()},
               dir.path());
  }
};

TEST_F(CompareOnPerfciOutput, ReadsRunFormatGbench) {
  const fs::path a = write("a.json", {"--format", "gbench"});
  const fs::path b = write("b.json", {"--format", "gbench"});
  const json j = load(a);
  EXPECT_EQ(j["context"]["json_schema_version"], 1);
  EXPECT_TRUE(j["context"].contains("library_build_type")) << "the binary's own context";
  ASSERT_EQ(j["benchmarks"].size(), 2u);
  for (const auto& row : j["benchmarks"]) {
    EXPECT_EQ(row["run_type"], "iteration");
    EXPECT_EQ(row["time_unit"], "ns");
    EXPECT_GT(row["real_time"].get<double>(), 0);
    EXPECT_GT(row["cpu_time"].get<double>(), 0);
  }
  auto r = compare(a, b);
  ASSERT_EQ(r.exit_code, 0) << explain(r);
  // compare.py's table: a header, a row per benchmark, and its geomean row.
  EXPECT_NE(r.out.find("Benchmark"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("BM_sum"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("BM_empty_plain"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("OVERALL_GEOMEAN"), std::string::npos) << r.out;
  std::cout << "compare.py on perfci run --format gbench:\n" << r.out;
}

TEST_F(CompareOnPerfciOutput, ReadsThePlainResultsFile) {
  const fs::path a = write("a.json", {});
  EXPECT_EQ(load(a)["schema"], "perfci.results/1");
  auto r = compare(a, a);
  ASSERT_EQ(r.exit_code, 0) << explain(r);
  EXPECT_NE(r.out.find("BM_sum"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("OVERALL_GEOMEAN"), std::string::npos) << r.out;
}

TEST_F(CompareOnPerfciOutput, FormatGbenchWithoutWallTimesIsAClearError) {
  auto r = perfci_cli({"run", "--binary", FIXTURE_BENCH, "--filter", "BM_sum", "--meter",
                       "callgrind", "--callgrind-iterations", "2", "--format", "gbench", "--out",
                       (dir.path() / "x.json").string()},
                      dir.path());
  EXPECT_EQ(r.exit_code, 2) << explain(r);
  EXPECT_NE(r.err_tail.find("perfci: error: --format gbench needs the wall meter"),
            std::string::npos)
      << r.err_tail;
  EXPECT_FALSE(fs::exists(dir.path() / "x.json"));
}

// ---- ab --a-json / --b-json on engine_bench files ----------------------

// One real engine_bench --benchmark_out file with repetitions, shared by the
// tests below (it takes a few seconds).
class EngineBenchFiles : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir("perfci-gbench-engine");
    a_ = dir_->path() / "a.json";
    auto r = run({ENGINE_BENCH, "--benchmark_filter=^engine/(point_lookup|index_range)$",
                  "--benchmark_repetitions=12", "--benchmark_min_time=0.02",
                  // The first repetition is otherwise the slow one (cold caches).
                  "--benchmark_min_warmup_time=0.05", "--benchmark_out=" + a_.string(),
                  "--benchmark_out_format=json"},
                 dir_->path());
    ASSERT_TRUE(r.ok()) << explain(r);
    // B: the same file with every time 10% higher, the known change.
    json j = load(a_);
    for (auto& row : j["benchmarks"]) {
      row["real_time"] = row["real_time"].get<double>() * 1.10;
      row["cpu_time"] = row["cpu_time"].get<double>() * 1.10;
    }
    b_ = dir_->path() / "b.json";
    write_file_atomic(b_, j.dump(2));
  }
  static void TearDownTestSuite() { delete dir_; }
  static double spread(const std::string& name) {  // max / min of A's real times
    double lo = 1e300, hi = 0;
    const json file = load(a_);
    for (const auto& row : file["benchmarks"])
      if (row["run_name"] == name && row.value("run_type", "") == "iteration") {
        lo = std::min(lo, row["real_time"].get<double>());
        hi = std::max(hi, row["real_time"].get<double>());
      }
    return hi / lo;
  }
  static TempDir* dir_;
  static fs::path a_, b_;
};
TempDir* EngineBenchFiles::dir_ = nullptr;
fs::path EngineBenchFiles::a_, EngineBenchFiles::b_;

TEST_F(EngineBenchFiles, ScaledCopyIsFlaggedUnpaired) {
  const fs::path out = dir_->path() / "r10.json";
  const fs::path md = dir_->path() / "r10.md";
  auto r =
      perfci_cli({"ab", "--a-json", a_.string(), "--b-json", b_.string(), "--out", out.string(),
                  "--md", md.string(), "--html", (dir_->path() / "r10.html").string(), "--quiet"},
                 dir_->path());
  expect_valid_report(out);
  const json rep = load(out);
  EXPECT_EQ(rep["run"]["pairing"], "unpaired");
  EXPECT_EQ(rep["settings"]["pairing"], "unpaired");
  EXPECT_EQ(rep["run"]["pairs"], 0);
  EXPECT_EQ(rep["run"]["order"], "") << "nothing was interleaved";
  int decided = 0;
  for (const std::string name : {"engine/point_lookup", "engine/index_range"}) {
    const json& b = bench(rep, name);
    const json* rt = metric(b, "real_time_ns");
    ASSERT_NE(rt, nullptr) << name;
    const json& c = (*rt)["comparison"];
    EXPECT_EQ(c["test"]["name"], "mann-whitney-u");
    EXPECT_EQ(c["test"]["n_a"], 12);
    EXPECT_EQ(c["test"]["n_b"], 12);
    EXPECT_TRUE(c["ratios"].empty()) << "no per-pair ratios in an unpaired comparison";
    // Every b_j / a_i is 1.1 * a_j / a_i: their median is 1.1 exactly.
    EXPECT_NEAR(c["ratio"].get<double>(), 1.10, 1e-9) << name;
    std::cout << name << ": B/A " << c["ratio"] << " [" << c["interval"]["lo"] << ", "
              << c["interval"]["hi"] << "], p " << c["test"]["p_value"] << ", " << (*rt)["outcome"]
              << "; A's max/min " << spread(name) << "\n";
    // When A's samples spread less than 10%, every B sample lies above every
    // A sample: the separation, and so the verdict, are the data's, not the
    // machine's. A wider spread (a loaded machine) can leave it undecided,
    // never unchanged or improved.
    if (spread(name) < 1.10) {
      EXPECT_EQ((*rt)["outcome"], "regressed") << (*rt)["reason"];
      ++decided;
    } else {
      EXPECT_TRUE((*rt)["outcome"] == "regressed" || (*rt)["outcome"] == "noisy")
          << (*rt)["reason"];
    }
  }
  EXPECT_EQ(r.exit_code, rep["summary"]["regressed"].get<int>() > 0 ? 1 : 0) << explain(r);
  if (decided > 0) {
    EXPECT_EQ(r.exit_code, 1) << explain(r);
  }
  const std::string text = read_file(md);
  EXPECT_NE(text.find("Unpaired: two Google Benchmark files measured apart, not interleaved"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find(" pairs after "), std::string::npos) << "no pair-based wording:\n" << text;
  EXPECT_NE(text.find("repetitions A / B"), std::string::npos) << text;
}

TEST_F(EngineBenchFiles, SameFileOnBothSidesFlagsNothing) {
  // An A/A without noise between the sides: the same file twice.
  const fs::path out = dir_->path() / "raa.json";
  auto r = perfci_cli(
      {"ab", "--a-json", a_.string(), "--b-json", a_.string(), "--out", out.string(), "--quiet"},
      dir_->path());
  EXPECT_EQ(r.exit_code, 0) << explain(r);
  expect_valid_report(out);
  const json rep = load(out);
  EXPECT_EQ(rep["summary"]["regressed"], 0);
  EXPECT_EQ(rep["summary"]["improved"], 0);
  EXPECT_EQ(rep["summary"]["failed"], 0);
  // Nothing is flagged: unchanged, or noisy where the repetitions spread
  // too much to exclude a change of the threshold's size (an interval around
  // 1 that reaches beyond 3%), never regressed or improved.
  for (const auto& b : rep["benchmarks"])
    for (const auto& m : b["metrics"]) {
      EXPECT_TRUE(m["outcome"] == "unchanged" || m["outcome"] == "noisy")
          << b["name"] << " " << m["metric"] << ": " << m["outcome"];
      EXPECT_DOUBLE_EQ(m["comparison"]["ratio"].get<double>(), 1.0);
      EXPECT_DOUBLE_EQ(m["comparison"]["test"]["p_value"].get<double>(), 1.0);
    }
}

TEST_F(EngineBenchFiles, OneRepetitionEachCannotDecide) {
  // The first repetition of each benchmark alone, on both sides.
  json one = load(a_);
  json rows = json::array();
  for (const auto& row : one["benchmarks"])
    if (row.value("run_type", "") == "iteration" && row.value("repetition_index", 0) == 0)
      rows.push_back(row);
  one["benchmarks"] = rows;
  json scaled = one;
  for (auto& row : scaled["benchmarks"]) row["real_time"] = row["real_time"].get<double>() * 1.5;
  write_file_atomic(dir_->path() / "one_a.json", one.dump());
  write_file_atomic(dir_->path() / "one_b.json", scaled.dump());
  const fs::path out = dir_->path() / "rone.json";
  auto r = perfci_cli({"ab", "--a-json", (dir_->path() / "one_a.json").string(), "--b-json",
                       (dir_->path() / "one_b.json").string(), "--out", out.string(), "--quiet"},
                      dir_->path());
  EXPECT_EQ(r.exit_code, 0) << explain(r);
  const json rep = load(out);
  EXPECT_EQ(rep["summary"]["regressed"], 0) << "one sample a side proves nothing";
  const json* rt = metric(bench(rep, "engine/point_lookup"), "real_time_ns");
  ASSERT_NE(rt, nullptr);
  EXPECT_EQ((*rt)["outcome"], "noisy");
  EXPECT_NE((*rt)["reason"].get<std::string>().find("too few repetitions"), std::string::npos)
      << (*rt)["reason"];
}

TEST_F(EngineBenchFiles, ReportRendersOneFileAndComparesTwo) {
  auto one = perfci_cli({"report", a_.string()}, dir_->path());
  ASSERT_EQ(one.exit_code, 0) << explain(one);
  EXPECT_NE(one.out.find("## Google Benchmark file"), std::string::npos) << one.out;
  EXPECT_NE(one.out.find("| engine/point_lookup | 12 |"), std::string::npos) << one.out;
  auto two = perfci_cli({"report", a_.string(), b_.string()}, dir_->path());
  ASSERT_EQ(two.exit_code, 0) << explain(two);
  EXPECT_NE(two.out.find("Unpaired"), std::string::npos) << two.out;
  EXPECT_NE(two.out.find("engine/point_lookup"), std::string::npos) << two.out;
}

// Repetition i of 12 of `name`, as Google Benchmark writes it, t ns each.
json repetition(const std::string& name, int i, double t) {
  return {{"name", name},      {"run_name", name},      {"run_type", "iteration"},
          {"repetitions", 12}, {"repetition_index", i}, {"iterations", 1000},
          {"real_time", t},    {"cpu_time", t},         {"time_unit", "ns"}};
}

// The same A/B on fixed numbers, so its verdicts are the same on every
// machine: 12 repetitions spread over +-5%, B the same 10% higher; a
// benchmark whose B equals A stays unflagged.
TEST(PerfciGbenchFixed, KnownTenPercentIsRegressedAndAnEqualBenchmarkIsNot) {
  TempDir dir("perfci-gbench-fixed");
  auto file = [](double scale_slow) {
    json f = {{"context", {{"library_build_type", "release"}}}, {"benchmarks", json::array()}};
    const double spread[] = {0.95, 1.04, 0.99, 1.02, 0.97, 1.05,
                             1.00, 0.96, 1.03, 0.98, 1.01, 0.995};
    for (const char* name : {"BM_slow", "BM_same"})
      for (int i = 0; i < 12; ++i) {
        const double t = 1000 * spread[i] * (std::string(name) == "BM_slow" ? scale_slow : 1.0);
        f["benchmarks"].push_back(repetition(name, i, t));
      }
    return f;
  };
  write_file_atomic(dir.path() / "a.json", file(1.0).dump());
  write_file_atomic(dir.path() / "b.json", file(1.10).dump());
  const fs::path out = dir.path() / "r.json";
  auto r = perfci_cli({"ab", "--a-json", (dir.path() / "a.json").string(), "--b-json",
                       (dir.path() / "b.json").string(), "--out", out.string(), "--quiet"},
                      dir.path());
  EXPECT_EQ(r.exit_code, 1) << explain(r);
  expect_valid_report(out);
  const json rep = load(out);
  EXPECT_TRUE(rep["warnings"].empty()) << rep["warnings"];
  const json* slow = metric(bench(rep, "BM_slow"), "real_time_ns");
  ASSERT_NE(slow, nullptr);
  EXPECT_EQ((*slow)["outcome"], "regressed") << (*slow)["reason"];
  EXPECT_NEAR((*slow)["comparison"]["ratio"].get<double>(), 1.10, 1e-9);
  const json* same = metric(bench(rep, "BM_same"), "real_time_ns");
  ASSERT_NE(same, nullptr);
  EXPECT_NE((*same)["outcome"], "regressed");
  EXPECT_NE((*same)["outcome"], "improved");
  EXPECT_EQ(rep["summary"]["regressed"], 1);
}

// Two processes differ by their memory layout and machine state, which the
// repetitions inside one file cannot measure (engine_bench A/A files of two
// processes differed by up to 8%, tightly). A 4% shift with a tight spread
// is what such an A/A looks like: not claimed under the default unpaired
// threshold (5%, whole interval beyond it), claimed with a lower one.
TEST(PerfciGbenchFixed, AShiftWithinTheUnpairedThresholdIsNotClaimed) {
  TempDir dir("perfci-gbench-floor");
  auto file = [](double scale) {
    json f = {{"context", {{"library_build_type", "release"}}}, {"benchmarks", json::array()}};
    for (int i = 0; i < 12; ++i) {
      const double t = 1000 * scale * (1 + 0.001 * (i % 4));
      f["benchmarks"].push_back(repetition("BM_x", i, t));
    }
    return f;
  };
  write_file_atomic(dir.path() / "a.json", file(1.0).dump());
  write_file_atomic(dir.path() / "b.json", file(1.04).dump());
  auto verdict = [&](std::vector<std::string> extra) {
    const fs::path out = dir.path() / "r.json";
    std::vector<std::string> args{"ab",
                                  "--a-json",
                                  (dir.path() / "a.json").string(),
                                  "--b-json",
                                  (dir.path() / "b.json").string(),
                                  "--out",
                                  out.string(),
                                  "--quiet"};
    args.insert(args.end(), extra.begin(), extra.end());
    auto r = perfci_cli(args, dir.path());
    expect_valid_report(out);
    const json rep = load(out);
    const json* m = metric(bench(rep, "BM_x"), "real_time_ns");
    EXPECT_NE(m, nullptr);
    return std::pair{r.exit_code, m ? (*m)["outcome"].get<std::string>() : ""};
  };
  auto [rc, outcome] = verdict({});
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(outcome, "unchanged");
  auto [rc3, outcome3] = verdict({"--unpaired-threshold", "0.03"});
  EXPECT_EQ(rc3, 1);
  EXPECT_EQ(outcome3, "regressed");
  // The flag means nothing to paired trials: refused there.
  auto paired =
      perfci_cli({"ab", "--a", "x", "--b", "y", "--unpaired-threshold", "0.03"}, dir.path());
  EXPECT_EQ(paired.exit_code, 2);
  EXPECT_NE(paired.err_tail.find("--unpaired-threshold applies to --a-json/--b-json only"),
            std::string::npos)
      << paired.err_tail;
}

TEST(PerfciGbenchErrors, BadInputIsExitTwoWithAClearMessage) {
  TempDir dir("perfci-gbench-bad");
  const fs::path agg = dir.path() / "agg.json";
  write_file_atomic(agg, R"({"context": {}, "benchmarks": [{"name": "BM_x_mean",
    "run_name": "BM_x", "run_type": "aggregate", "aggregate_name": "mean", "iterations": 3,
    "real_time": 1.0, "cpu_time": 1.0, "time_unit": "ns"}]})");
  auto r = perfci_cli({"ab", "--a-json", agg.string(), "--b-json", agg.string()}, dir.path());
  EXPECT_EQ(r.exit_code, 2) << explain(r);
  EXPECT_NE(r.err_tail.find("perfci: error: "), std::string::npos) << r.err_tail;
  EXPECT_NE(r.err_tail.find("aggregate rows (mean, median, ...) only"), std::string::npos)
      << r.err_tail;

  r = perfci_cli({"ab", "--a-json", agg.string(), "--b-json", agg.string(), "--pairs", "5"},
                 dir.path());
  EXPECT_EQ(r.exit_code, 2) << explain(r);
  EXPECT_NE(r.err_tail.find("--pairs does not apply to --a-json/--b-json"), std::string::npos)
      << r.err_tail;

  r = perfci_cli({"ab", "--a-json", agg.string(), "--a", "x"}, dir.path());
  EXPECT_EQ(r.exit_code, 2) << explain(r);

  // A file given where a binary belongs names the flags that take it.
  r = perfci_cli({"ab", "--a", agg.string(), "--b", agg.string()}, dir.path());
  EXPECT_EQ(r.exit_code, 2) << explain(r);
  EXPECT_NE(r.err_tail.find("is a JSON file, not a benchmark binary"), std::string::npos)
      << r.err_tail;
  EXPECT_NE(r.err_tail.find("--a-json A.json --b-json B.json"), std::string::npos) << r.err_tail;

  r = perfci_cli({"ab", "--a-json", agg.string()}, dir.path());
  EXPECT_EQ(r.exit_code, 2) << explain(r);
  EXPECT_NE(r.err_tail.find("--a-json and --b-json go together"), std::string::npos) << r.err_tail;

  r = perfci_cli(
      {"ab", "--a-json", (dir.path() / "missing.json").string(), "--b-json", agg.string()},
      dir.path());
  EXPECT_EQ(r.exit_code, 2) << explain(r);

  // A benchmark that failed in B (SkipWithError) is a failed benchmark, not
  // a zero: exit 2.
  const char* ok_row = R"({"name": "BM_x", "run_name": "BM_x", "run_type": "iteration",
    "repetition_index": %d, "iterations": 10, "real_time": %d, "cpu_time": %d, "time_unit": "ns"})";
  json a = {{"context", json::object()}, {"benchmarks", json::array()}};
  for (int i = 0; i < 6; ++i) {
    char buf[512];
    std::snprintf(buf, sizeof buf, ok_row, i, 100 + i, 100 + i);
    a["benchmarks"].push_back(json::parse(buf));
  }
  json b = {{"context", json::object()},
            {"benchmarks",
             {{{"name", "BM_x"},
               {"run_name", "BM_x"},
               {"run_type", "iteration"},
               {"error_occurred", true},
               {"error_message", "no database"},
               {"iterations", 0},
               {"real_time", 0},
               {"cpu_time", 0},
               {"time_unit", "ns"}}}}};
  write_file_atomic(dir.path() / "a.json", a.dump());
  write_file_atomic(dir.path() / "b.json", b.dump());
  const fs::path out = dir.path() / "r.json";
  r = perfci_cli({"ab", "--a-json", (dir.path() / "a.json").string(), "--b-json",
                  (dir.path() / "b.json").string(), "--out", out.string(), "--quiet"},
                 dir.path());
  EXPECT_EQ(r.exit_code, 2) << explain(r);
  const json rep = load(out);
  EXPECT_EQ(rep["summary"]["failed"], 1);
  EXPECT_NE(bench(rep, "BM_x")["error"].get<std::string>().find("B: the benchmark reported an "
                                                                "error: no database"),
            std::string::npos);
}

}  // namespace
}  // namespace perfci
