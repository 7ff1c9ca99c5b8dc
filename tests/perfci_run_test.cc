// End to end: `perfci run` and `perfci env` on the fixture benchmark binary
// (tests/fixtures/bench), as a user would call them.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "perfci/counters/pmu_info.h"
#include "perfci/model/results.h"
#include "perfci/util/files.h"
#include "perfci/util/subprocess.h"

namespace perfci {
namespace {

SubprocessResult perfci_cli(std::vector<std::string> args) {
  SubprocessOptions o;
  o.argv = {PERFCI_BINARY};
  for (auto& a : args) o.argv.push_back(std::move(a));
  o.timeout = std::chrono::minutes(5);
  return run_subprocess(o);
}

RunResults run_fixture(const std::vector<std::string>& extra, const std::string& out) {
  std::vector<std::string> args{"run", "--binary", FIXTURE_BENCH, "--out", out, "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  auto r = perfci_cli(args);
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.err_tail;
  return load_run_results(out);
}

TEST(PerfciRun, WallAndSoftwareCountersPerIteration) {
  TempDir dir;
  auto res = run_fixture({"--meter", "wall,counters", "--events",
                          "task-clock,page-faults,context-switches,instructions,cycles", "--filter",
                          "BM_sum|BM_transactions|BM_empty_plain", "--min-time", "0.01"},
                         (dir.path() / "r.json").string());
  EXPECT_EQ(res.schema, "perfci.results/1");
  ASSERT_EQ(res.benchmarks.size(), 3u);
  const BenchmarkResult* sum = res.find("BM_sum");
  ASSERT_NE(sum, nullptr);
  EXPECT_FALSE(sum->failed()) << sum->error;
  EXPECT_GT(sum->iterations, 0);
  EXPECT_GT(*sum->real_time_ns, 0);
  const CounterResult* tc = sum->counter("task-clock");
  ASSERT_NE(tc, nullptr);
  ASSERT_TRUE(has_value(tc->status)) << to_string(tc->status);
  EXPECT_GT(*tc->per_iteration, 0);
  EXPECT_TRUE(has_value(sum->counter("page-faults")->status));
  const CounterResult* ins = sum->counter("instructions");
  ASSERT_NE(ins, nullptr);
  if (!hardware_pmu_present()) {
    // These VMs: the hardware event is reported as such, never as a zero.
    EXPECT_EQ(ins->status, EventStatus::kUnsupported);
    EXPECT_EQ(ins->error, ENOENT);
    EXPECT_FALSE(ins->per_iteration.has_value());
  } else {
    EXPECT_TRUE(has_value(ins->status));
  }
  const BenchmarkResult* txn = res.find("BM_transactions");
  ASSERT_NE(txn, nullptr);
  EXPECT_EQ(txn->transactions_per_iteration, 4.0);
  ASSERT_TRUE(txn->counter("task-clock")->per_transaction.has_value());
  EXPECT_NEAR(*txn->counter("task-clock")->per_transaction * 4,
              *txn->counter("task-clock")->per_iteration,
              1e-6 * *txn->counter("task-clock")->per_iteration);
  // Without the hook the benchmark's whole process is counted hook-free
  // (issue 21), and says so; the hooked ones are the hook's region.
  EXPECT_EQ(tc->mode, "hook");
  const BenchmarkResult* plain = res.find("BM_empty_plain");
  ASSERT_EQ(plain->counters.size(), 5u) << plain->error;
  for (const auto& c : plain->counters) {
    EXPECT_EQ(c.mode, "process") << c.event;
    EXPECT_EQ(has_value(c.status), c.per_iteration.has_value()) << c.event;
  }
  ASSERT_TRUE(has_value(plain->counter("task-clock")->status));
  EXPECT_GT(*plain->counter("task-clock")->process_fixed, 0);
  EXPECT_TRUE(res.environment.contains("hardware_pmu"));
  EXPECT_TRUE(res.environment.contains("build"));
}

TEST(PerfciRun, CallgrindCountsAreIdenticalAcrossRuns) {
  TempDir dir;
  std::vector<std::string> args{
      "--meter", "callgrind", "--filter", "BM_sum|BM_transactions", "--callgrind-iterations", "3"};
  auto a = run_fixture(args, (dir.path() / "a.json").string());
  auto b = run_fixture(args, (dir.path() / "b.json").string());
  ASSERT_EQ(a.benchmarks.size(), 2u);
  for (std::size_t i = 0; i < a.benchmarks.size(); ++i) {
    const auto& x = a.benchmarks[i];
    const auto& y = b.benchmarks[i];
    ASSERT_TRUE(x.callgrind && y.callgrind) << x.error << y.error;
    EXPECT_EQ(x.callgrind->iterations, 3u);
    EXPECT_EQ(x.callgrind->total_ir, y.callgrind->total_ir) << x.name;
    EXPECT_EQ(x.callgrind->ir_per_iteration, y.callgrind->ir_per_iteration) << x.name;
    ASSERT_EQ(x.callgrind->functions.size(), y.callgrind->functions.size());
    for (std::size_t k = 0; k < x.callgrind->functions.size(); ++k) {
      EXPECT_EQ(x.callgrind->functions[k].name, y.callgrind->functions[k].name);
      EXPECT_EQ(x.callgrind->functions[k].self_ir, y.callgrind->functions[k].self_ir);
    }
  }
  // Only the loop is counted: fixture_sum over 4096 ints dominates BM_sum.
  const auto& sum = *a.find("BM_sum")->callgrind;
  EXPECT_GT(sum.ir_per_iteration, 4096.0);
  ASSERT_FALSE(sum.functions.empty());
  EXPECT_NE(sum.functions[0].name.find("fixture_sum"), std::string::npos) << sum.functions[0].name;
  // Inclusive: at -O0 the vector iterator's helpers are calls of their own.
  EXPECT_GT(static_cast<double>(sum.functions[0].inclusive_ir),
            0.9 * static_cast<double>(sum.total_ir));
}

// Issue 18: bytes per iteration from the native run with the allocation
// counter preloaded, beside callgrind's allocation count, both exact; a
// region that allocates nothing reads 0 (a measurement); without the
// counter library the result says bytes were not measured, and gives no
// figure.
TEST(PerfciRun, AllocatedBytesAreExactAndNeverAZeroWhereNotMeasured) {
  TempDir dir;
  const std::vector<std::string> args{
      "--meter", "callgrind", "--filter", "BM_allocate|BM_sum", "--callgrind-iterations", "3"};
  auto res = run_fixture(args, (dir.path() / "a.json").string());
  const BenchmarkResult* alloc = res.find("BM_allocate");
  ASSERT_TRUE(alloc && alloc->callgrind && alloc->callgrind->allocations) << alloc->error;
  const Allocations& a = *alloc->callgrind->allocations;
  EXPECT_EQ(a.per_iteration, 4.0);
  ASSERT_TRUE(a.bytes_per_iteration) << a.bytes_unmeasured;
  EXPECT_EQ(*a.bytes_per_iteration, 1472.0);
  EXPECT_EQ(a.counted_per_iteration, 4.0);
  EXPECT_TRUE(a.bytes_unmeasured.empty());
  std::map<std::string, double> values;
  for (const auto& v : metric_values(*alloc)) values[v.metric] = v.value;
  EXPECT_EQ(values["allocated_bytes"], 1472.0);

  const Allocations& none = *res.find("BM_sum")->callgrind->allocations;
  EXPECT_EQ(none.per_iteration, 0.0);
  EXPECT_EQ(none.bytes_per_iteration, 0.0);

  SubprocessOptions o;
  o.argv = {PERFCI_BINARY, "run",   "--binary",
            FIXTURE_BENCH, "--out", (dir.path() / "b.json").string(),
            "--quiet"};
  o.argv.insert(o.argv.end(), args.begin(), args.end());
  o.set_env["PERFCI_ALLOC_COUNTER"] = (dir.path() / "no-such-counter.so").string();
  o.timeout = std::chrono::minutes(5);
  auto r = run_subprocess(o);
  ASSERT_TRUE(r.ok()) << r.describe() << r.err_tail;
  auto missing = load_run_results((dir.path() / "b.json").string());
  const Allocations& m = *missing.find("BM_allocate")->callgrind->allocations;
  EXPECT_EQ(m.per_iteration, 4.0);  // callgrind's count does not need it
  EXPECT_FALSE(m.bytes_per_iteration);
  EXPECT_NE(m.bytes_unmeasured.find("libperfci_alloc_counter.so was not found"), std::string::npos)
      << m.bytes_unmeasured;
  for (const auto& v : metric_values(*missing.find("BM_allocate")))
    EXPECT_NE(v.metric, "allocated_bytes");
}

TEST(PerfciRun, ProfileNamesTheHotFunction) {
  TempDir dir;
  auto res = run_fixture({"--meter", "profile", "--filter", "BM_sum", "--min-time", "0.3"},
                         (dir.path() / "p.json").string());
  const auto* sum = res.find("BM_sum");
  ASSERT_NE(sum, nullptr);
  ASSERT_TRUE(sum->profile) << sum->error;
  EXPECT_EQ(sum->profile->source, "cpu-clock");
  EXPECT_GT(sum->profile->samples, 0u);
  // At -O0 the vector iterator's helpers are functions of their own and
  // share the samples; fixture_sum still takes a large part of them.
  auto share_of = [](const ProfileResult& p, const std::string& needle) {
    double share = 0;
    for (const auto& s : p.symbols)
      if (s.symbol.find(needle) != std::string::npos) share += s.share;
    return share;
  };
  EXPECT_GT(share_of(*sum->profile, "fixture_sum"), 0.1) << nlohmann::json(*sum->profile).dump();

  auto cg = run_fixture({"--meter", "profile", "--profile-source", "callgrind", "--filter",
                         "BM_sum", "--callgrind-iterations", "2"},
                        (dir.path() / "c.json").string());
  ASSERT_TRUE(cg.find("BM_sum")->profile);
  EXPECT_EQ(cg.find("BM_sum")->profile->source, "callgrind");
  EXPECT_GT(share_of(*cg.find("BM_sum")->profile, "fixture_sum"), 0.1);
}

TEST(PerfciRun, ACrashingBenchmarkIsMarkedFailedAndTheOthersGoOn) {
  TempDir dir;
  auto out = (dir.path() / "r.json").string();
  auto r = perfci_cli({"run", "--binary", FIXTURE_BENCH, "--filter", "BM_sum|BM_crash_on_purpose",
                       "--min-time", "0.01", "--out", out, "--quiet"});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(r.err_tail.find("1 of 2 benchmarks failed"), std::string::npos) << r.err_tail;
  auto res = load_run_results(out);
  EXPECT_FALSE(res.find("BM_sum")->failed());
  EXPECT_NE(res.find("BM_crash_on_purpose")->error.find("signal 6"), std::string::npos)
      << res.find("BM_crash_on_purpose")->error;
}

TEST(PerfciRun, BadInputIsAClearErrorWithExitCode2) {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  std::vector<Case> cases{
      {{"run", "--binary", "/nonexistent/bench"}, "/nonexistent/bench does not exist"},
      {{"run", "--binary", FIXTURE_BENCH, "--filter", "NoSuchBenchmark"}, "selects no benchmark"},
      {{"run", "--binary", FIXTURE_BENCH, "--meter", "wall,speed"}, "unknown meter 'speed'"},
      {{"run", "--binary", FIXTURE_BENCH, "--meter", "counters", "--events", "task-clock,bogus-ev"},
       "unknown event 'bogus-ev'"},
      {{"run", "--config", "/nonexistent/perfci.json", "--build-dir", "/tmp"},
       "/nonexistent/perfci.json"},
  };
  for (const auto& c : cases) {
    auto r = perfci_cli(c.args);
    EXPECT_EQ(r.exit_code, 2) << format_command(c.args) << ": " << r.describe();
    EXPECT_NE(r.err_tail.find(c.message), std::string::npos)
        << format_command(c.args) << "\nstderr: " << r.err_tail;
  }
}

// The command line's habits (issue 17): --version, the unknown subcommand,
// one error prefix for CLI11's parse errors and perfci's own.
TEST(PerfciCli, VersionFlagPrintsWhatTheVersionCommandPrints) {
  auto flag = perfci_cli({"--version"});
  auto command = perfci_cli({"version"});
  ASSERT_TRUE(flag.ok()) << flag.describe() << flag.err_tail;
  ASSERT_TRUE(command.ok()) << command.describe();
  EXPECT_EQ(flag.out, command.out);
  EXPECT_EQ(flag.out.rfind("perfci ", 0), 0u) << flag.out;
}

TEST(PerfciCli, AnUnknownSubcommandIsNamedWithTheList) {
  const std::string list =
      "version, run, env, contracts, ab, aa, compare, report, check, baseline, merge, bisect, "
      "history";
  auto r = perfci_cli({"bogus", "--flag"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err_tail.rfind(
                "perfci: error: unknown subcommand 'bogus'; the subcommands are " + list + "\n", 0),
            0u)
      << r.err_tail;
  auto none = perfci_cli({});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_EQ(none.err_tail.rfind("perfci: error: a subcommand is required: " + list + "\n", 0), 0u)
      << none.err_tail;
}

TEST(PerfciCli, EveryErrorStartsWithOnePrefix) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"run", "--timeout", "soon"},
        std::vector<std::string>{"run", "--no-such-flag"},
        std::vector<std::string>{"run", "--binary", "/nonexistent/bench"},
        std::vector<std::string>{"--no-such-flag"}, std::vector<std::string>{"baseline"}}) {
    auto r = perfci_cli(args);
    EXPECT_EQ(r.exit_code, 2) << format_command(args);
    EXPECT_EQ(r.err_tail.rfind("perfci: error: ", 0), 0u) << format_command(args) << "\n"
                                                          << r.err_tail;
  }
}

// `run` used to take a "3%" that `ab` refused: one syntax for both now.
TEST(PerfciCli, AThresholdMeansTheSameToRunAsToAb) {
  TempDir dir;
  const std::string config = (dir.path() / "perfci.json").string();
  write_file_atomic(config, R"({"schema": "perfci.config/1",
    "suites": [{"name": "s", "binary": "bench"}],
    "metrics": {"wall": {"threshold": "3%"}}})");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"run", "--config", config, "--binary", FIXTURE_BENCH},
        std::vector<std::string>{"ab", "--config", config, "--a", FIXTURE_BENCH, "--b",
                                 FIXTURE_BENCH}}) {
    auto r = perfci_cli(args);
    EXPECT_EQ(r.exit_code, 2) << format_command(args);
    EXPECT_NE(r.err_tail.find("metrics.wall.threshold: \"3%\" is a string; thresholds are "
                              "numbers: write 0.03 for 3%"),
              std::string::npos)
        << format_command(args) << "\n"
        << r.err_tail;
  }
}

TEST(PerfciEnv, ReportsEventStatusesAsTextAndJson) {
  auto r = perfci_cli({"env", "--json", "--events", "instructions,cycles,task-clock,page-faults",
                       "--binary", FIXTURE_BENCH});
  ASSERT_TRUE(r.ok()) << r.describe() << r.err_tail;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["hardware_pmu"].get<bool>(), hardware_pmu_present());
  ASSERT_EQ(j["events"].size(), 4u);
  for (const auto& e : j["events"]) {
    if (e["software"].get<bool>()) {
      EXPECT_EQ(e["status"], "ok") << e.dump();
    } else if (!hardware_pmu_present()) {
      EXPECT_EQ(e["status"], "unsupported") << e.dump();
      EXPECT_EQ(e["errno"], ENOENT);
    }
  }
  EXPECT_FALSE(j["build"]["build_id"].get<std::string>().empty());
  auto text = perfci_cli({"env", "--events", "instructions,task-clock"});
  ASSERT_TRUE(text.ok());
  EXPECT_NE(text.out.find("perf_event_paranoid"), std::string::npos);
  EXPECT_NE(text.out.find("task-clock"), std::string::npos);
  EXPECT_NE(text.out.find(hardware_pmu_present() ? "instructions" : "ENOENT"), std::string::npos);
}

}  // namespace
}  // namespace perfci
