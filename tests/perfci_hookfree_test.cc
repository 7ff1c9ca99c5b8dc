// The hook-free meters end to end (issue 21): plain Google Benchmark
// binaries (tests/fixtures/plain, no perfci include) measured by callgrind
// in process mode, the mode chosen and recorded, a -fno-inline style A/B
// explained by the function that appeared, and bad input refused clearly.
// Nothing here asserts a timing: callgrind counts are exact.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "perfci/model/results.h"
#include "perfci/util/files.h"
#include "perfci/util/subprocess.h"
#include "tests/perfci_cli_testing.h"
#include "tests/report_schema_check.h"

namespace perfci {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace perfci::testing;  // NOLINT(google-build-using-namespace)

struct Run {
  SubprocessResult process;
  RunResults results;
};

Run run_callgrind(const std::string& binary, const std::string& filter,
                  std::vector<std::string> extra = {}) {
  TempDir dir("perfci-hf");
  auto out = (dir.path() / "r.json").string();
  std::vector<std::string> args{"run",      "--binary", binary,  "--meter", "callgrind",
                                "--filter", filter,     "--out", out,       "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  Run r;
  r.process = perfci_cli(args);
  if (fs::exists(out)) {
    r.results = load_run_results(out);
    expect_valid(out, RESULTS_SCHEMA);
  }
  return r;
}

const FunctionCost* function(const CallgrindResult& c, const std::string& part) {
  for (const auto& f : c.functions)
    if (f.name.find(part) != std::string::npos) return &f;
  return nullptr;
}

// The first must-hold: Ir per iteration of an unmodified binary is
// identical over two runs, with setup fitted out and the profile of the
// same run naming the work function.
TEST(PerfciHookFree, CallgrindIrPerIterationIsIdenticalOverTwoRuns) {
  auto first = run_callgrind(PLAIN, "BM_checksum|BM_registered");
  auto second = run_callgrind(PLAIN, "BM_checksum|BM_registered");
  ASSERT_TRUE(first.process.ok()) << explain(first.process);
  ASSERT_TRUE(second.process.ok()) << explain(second.process);
  for (const char* name : {"BM_checksum", "BM_registered"}) {
    SCOPED_TRACE(name);
    const BenchmarkResult* a = first.results.find(name);
    const BenchmarkResult* b = second.results.find(name);
    ASSERT_TRUE(a && b && a->callgrind && b->callgrind);
    const CallgrindResult& c = *a->callgrind;
    EXPECT_EQ(c.mode, "process");
    EXPECT_EQ(c.fit_iterations, (std::vector<std::uint64_t>{10, 100}));
    EXPECT_EQ(c.iterations, 90u);
    EXPECT_GT(c.ir_per_iteration, 0);
    EXPECT_EQ(c.ir_per_iteration, b->callgrind->ir_per_iteration);
    EXPECT_EQ(c.total_ir, b->callgrind->total_ir);
    EXPECT_EQ(c.setup_ir, b->callgrind->setup_ir);
    EXPECT_EQ(c.entry, b->callgrind->entry);
    // The setup builds and fills a vector of >= 512 elements: at least one
    // instruction each, none of it in the per-iteration figure.
    ASSERT_TRUE(c.setup_ir.has_value());
    EXPECT_GE(*c.setup_ir, 512);
    // The loop is plain_checksum: nearly all of an iteration, per its own
    // inclusive cost over the same 90 iterations.
    const FunctionCost* work = function(c, "plain_checksum");
    ASSERT_NE(work, nullptr);
    EXPECT_LE(static_cast<double>(work->inclusive_ir), static_cast<double>(c.total_ir));
    EXPECT_GE(static_cast<double>(work->inclusive_ir), 0.9 * static_cast<double>(c.total_ir));
  }
  // BENCHMARK() runs a plain function, RegisterBenchmark with a capturing
  // lambda runs LambdaBenchmark<...>::Run: both are found.
  EXPECT_NE(first.results.find("BM_checksum")->callgrind->entry.find("BM_checksum("),
            std::string::npos);
  EXPECT_NE(first.results.find("BM_registered")->callgrind->entry.find("LambdaBenchmark"),
            std::string::npos);
  // 1024 against 512 elements: twice the work per iteration, within the
  // loop's constant part.
  const double ratio = first.results.find("BM_checksum")->callgrind->ir_per_iteration /
                       first.results.find("BM_registered")->callgrind->ir_per_iteration;
  EXPECT_NEAR(ratio, 2.0, 0.05);
}

// Auto picks the hook where the benchmark uses it and the hook-free mode
// where it does not (BM_empty_plain has no hook although the binary links
// it); either can be forced, and the results say which measured.
TEST(PerfciHookFree, ModeIsChosenRecordedAndCanBeForced) {
  auto autod =
      run_callgrind(FIXTURE_BENCH, "BM_sum|BM_empty_plain", {"--callgrind-iterations", "3"});
  ASSERT_TRUE(autod.process.ok()) << explain(autod.process);
  EXPECT_EQ(autod.results.find("BM_sum")->callgrind->mode, "hook");
  EXPECT_TRUE(autod.results.find("BM_sum")->callgrind->fit_iterations.empty());
  EXPECT_EQ(autod.results.find("BM_empty_plain")->callgrind->mode, "process");
  // Hook-free there are no bytes, and the result says why (never a 0).
  const Allocations& plain = *autod.results.find("BM_empty_plain")->callgrind->allocations;
  EXPECT_FALSE(plain.bytes_per_iteration);
  EXPECT_TRUE(has(plain.bytes_unmeasured, "need perfci::BenchHook's region"))
      << plain.bytes_unmeasured;
  EXPECT_EQ(autod.results.find("BM_sum")->callgrind->allocations->bytes_per_iteration, 0.0);

  auto forced = run_callgrind(FIXTURE_BENCH, "BM_sum", {"--callgrind-mode", "process"});
  ASSERT_TRUE(forced.process.ok()) << explain(forced.process);
  const CallgrindResult& p = *forced.results.find("BM_sum")->callgrind;
  EXPECT_EQ(p.mode, "process");
  // The same loop either way: the hook's one-iteration calls also count
  // the loop's start and finish (StartKeepRunning / FinishKeepRunning run
  // inside its region), which the fit separates out as setup.
  const CallgrindResult& h = *autod.results.find("BM_sum")->callgrind;
  EXPECT_LE(p.ir_per_iteration, h.ir_per_iteration);
  EXPECT_GE(p.ir_per_iteration, h.ir_per_iteration * 0.9);

  auto hook_on_plain = run_callgrind(PLAIN, "BM_checksum", {"--callgrind-mode", "hook"});
  EXPECT_EQ(hook_on_plain.process.exit_code, 2) << explain(hook_on_plain.process);
  ASSERT_NE(hook_on_plain.results.find("BM_checksum"), nullptr);
  EXPECT_TRUE(has(hook_on_plain.results.find("BM_checksum")->error, "the hook wrote no report"))
      << hook_on_plain.results.find("BM_checksum")->error;

  auto bad = perfci_cli({"run", "--binary", PLAIN, "--meter", "callgrind", "--callgrind-mode",
                         "guess", "--out", "/dev/null"});
  EXPECT_EQ(bad.exit_code, 2) << explain(bad);
  EXPECT_TRUE(has(bad.err_tail, "--callgrind-mode")) << bad.err_tail;
}

// The issue's -fno-inline case, hook-free: B keeps scale_add out of line,
// and the explanation names it as the function that appeared, and says how
// it was measured.
TEST(PerfciHookFree, AbOfANoinlineBuildNamesTheFunctionThatAppeared) {
  TempDir dir("perfci-hf-ab");
  auto out = dir.path() / "r.json";
  auto md = dir.path() / "r.md";
  auto r = perfci_cli({"ab", "--a", PLAIN, "--b", PLAIN_NOINLINE, "--meter", "callgrind",
                       "--filter", "BM_checksum", "--out", out.string(), "--md", md.string()});
  EXPECT_EQ(r.exit_code, 1) << explain(r);
  expect_valid_report(out);
  json rep = load(out);
  const json& b = bench(rep, "BM_checksum");
  EXPECT_EQ(b["outcome"], "regressed");
  ASSERT_TRUE(b.contains("explanation")) << b.dump(2);
  const json& e = b["explanation"];
  EXPECT_EQ(e["source"], "callgrind");
  EXPECT_TRUE(has(e["measured_by"].get<std::string>(), "hook-free (process mode)")) << e.dump(2);
  bool appeared = false;
  for (const auto& s : e["symbols"])
    appeared |= has(s["symbol"].get<std::string>(), "scale_add") && s["change"] == "appeared";
  EXPECT_TRUE(appeared) << e.dump(2);
  const std::string markdown = read_file(md);
  EXPECT_TRUE(has(markdown, "scale_add")) << markdown;
  EXPECT_TRUE(has(markdown, "measured by callgrind, hook-free (process mode)")) << markdown;
}

// Counters hook-free: per benchmark process, opened on the child and
// divided by the iterations its JSON reports, with what one iteration's
// process counts beside it. Software events count on any machine; a
// hardware event counts or says why not (this VM: unsupported), never 0.
TEST(PerfciHookFree, CountersCountTheWholeProcessAndSayWhatSetupAdds) {
  TempDir dir("perfci-hf-ctr");
  auto out = (dir.path() / "r.json").string();
  auto r = perfci_cli({"run", "--binary", PLAIN, "--meter", "counters", "--events",
                       "task-clock,page-faults,instructions", "--filter", "BM_checksum",
                       "--min-time", "0.01", "--out", out, "--quiet"});
  ASSERT_TRUE(r.ok()) << explain(r);
  expect_valid(out, RESULTS_SCHEMA);
  auto res = load_run_results(out);
  const BenchmarkResult* b = res.find("BM_checksum");
  ASSERT_NE(b, nullptr);
  EXPECT_GT(b->iterations, 0);
  ASSERT_EQ(b->counters.size(), 3u);
  for (const auto& c : b->counters) {
    SCOPED_TRACE(c.event);
    EXPECT_EQ(c.mode, "process");
    if (c.event != "instructions") {
      EXPECT_EQ(c.status, EventStatus::kOk);
    }
    if (has_value(c.status)) {
      ASSERT_TRUE(c.per_iteration.has_value());
      EXPECT_GT(*c.per_iteration, 0);
      ASSERT_TRUE(c.process_fixed.has_value());
      EXPECT_GT(*c.process_fixed, 0);
    } else {
      EXPECT_FALSE(c.per_iteration.has_value());
      EXPECT_NE(c.error, 0);
    }
  }
}

// The sampling profile hook-free: cpu-clock on the child from outside,
// symbolized from its ELF files; the loop's function is named. The binary
// is given through a symlink: /proc/PID/maps names it by its real path, and
// the profile must still find it there (snappy's was given relative).
TEST(PerfciHookFree, ProfileSamplesTheProcessFromOutside) {
  TempDir dir("perfci-hf-prof");
  auto out = (dir.path() / "r.json").string();
  const auto link = dir.path() / "bench";
  fs::create_symlink(PLAIN, link);
  auto r = perfci_cli({"run", "--binary", link.string(), "--meter", "profile", "--filter",
                       "BM_checksum", "--min-time", "0.3", "--out", out, "--quiet"});
  ASSERT_TRUE(r.ok()) << explain(r);
  expect_valid(out, RESULTS_SCHEMA);
  auto res = load_run_results(out);
  const BenchmarkResult* b = res.find("BM_checksum");
  ASSERT_TRUE(b && b->profile) << (b ? b->error : "missing");
  EXPECT_EQ(b->profile->mode, "process");
  EXPECT_EQ(b->profile->source, "cpu-clock");
  EXPECT_GT(b->profile->samples, 0u);
  // The loop's samples land in plain_checksum itself or, where the build
  // kept inline frames, in a callee inlined into it (seen in CI's build).
  bool named = false;
  for (const auto& s : b->profile->symbols) {
    named |= has(s.symbol, "plain_checksum") || has(s.inlined_into, "plain_checksum");
  }
  EXPECT_TRUE(named) << nlohmann::json(*b->profile).dump(2);
}

// A binary that is not Google Benchmark and a benchmark that crashes: each
// a clear error on the benchmark and exit code 2, nothing measured as zero.
TEST(PerfciHookFree, BadInputIsAClearError) {
  // /bin/echo "lists" one benchmark (its arguments) and runs without a
  // State ever being constructed.
  auto echo = run_callgrind("/bin/echo", ".*", {"--callgrind-mode", "process"});
  EXPECT_EQ(echo.process.exit_code, 2) << explain(echo.process);
  ASSERT_EQ(echo.results.benchmarks.size(), 1u) << explain(echo.process);
  EXPECT_FALSE(echo.results.benchmarks[0].callgrind.has_value());
  EXPECT_TRUE(has(echo.results.benchmarks[0].error, "not a Google Benchmark binary"))
      << echo.results.benchmarks[0].error;

  auto crash = run_callgrind(PLAIN_CRASH, "BM_crash|BM_checksum");
  EXPECT_EQ(crash.process.exit_code, 2) << explain(crash.process);
  const BenchmarkResult* c = crash.results.find("BM_crash");
  ASSERT_NE(c, nullptr);
  EXPECT_FALSE(c->callgrind.has_value());
  EXPECT_TRUE(has(c->error, "hook-free callgrind run of BM_crash")) << c->error;
  EXPECT_TRUE(has(c->error, "signal 6")) << c->error;
  ASSERT_TRUE(crash.results.find("BM_checksum")->callgrind.has_value());
}

}  // namespace
}  // namespace perfci
