#include "perfci/meters/gbench_output.h"

#include <errno.h>
#include <gtest/gtest.h>

#include "perfci/meters/benchmark_process.h"
#include "perfci/util/error.h"

namespace perfci {
namespace {

constexpr const char* kJson = R"({
  "context": {"date": "x"},
  "benchmarks": [
    {"name": "BM_a", "run_name": "BM_a", "run_type": "iteration", "iterations": 100,
     "real_time": 2.0, "cpu_time": 1.5, "time_unit": "us",
     "perf.task-clock": 1500.0, "perf.task-clock/txn": 375.0, "perf.transactions": 4,
     "perf.instructions.unsupported": 2, "perf.cycles.no_permission": 13,
     "perf.page-faults": 0.5, "perf.page-faults.scale": 2.5, "perf.bogus.unknown": 1},
    {"name": "BM_a_mean", "run_name": "BM_a", "run_type": "aggregate", "iterations": 1,
     "real_time": 99, "cpu_time": 99, "time_unit": "ns"},
    {"name": "BM_rep", "run_name": "BM_rep", "run_type": "iteration", "iterations": 10,
     "real_time": 10, "cpu_time": 10, "time_unit": "ns"},
    {"name": "BM_rep", "run_name": "BM_rep", "run_type": "iteration", "iterations": 30,
     "real_time": 20, "cpu_time": 20, "time_unit": "ns"},
    {"name": "BM_err", "run_name": "BM_err", "run_type": "iteration", "error_occurred": true,
     "error_message": "no database", "iterations": 0, "real_time": 0, "cpu_time": 0,
     "time_unit": "ns"},
    {"name": "BM_plain", "run_name": "BM_plain", "iterations": 5, "real_time": 1,
     "cpu_time": 1, "time_unit": "ms", "items_per_second": 7}
  ]})";

TEST(GbenchOutput, ParsesTimesPerIterationInNanoseconds) {
  auto runs = parse_gbench_json(kJson, "out.json");
  ASSERT_EQ(runs.size(), 4u);
  EXPECT_EQ(runs[0].name, "BM_a");
  EXPECT_EQ(runs[0].iterations, 100);
  EXPECT_DOUBLE_EQ(runs[0].real_time_ns, 2000.0);
  EXPECT_DOUBLE_EQ(runs[0].cpu_time_ns, 1500.0);
  // Repetitions merge weighted by iterations; aggregates are skipped.
  EXPECT_EQ(runs[1].name, "BM_rep");
  EXPECT_EQ(runs[1].iterations, 40);
  EXPECT_DOUBLE_EQ(runs[1].real_time_ns, 17.5);
  EXPECT_NE(runs[2].error.find("no database"), std::string::npos);
  EXPECT_DOUBLE_EQ(runs[3].real_time_ns, 1e6);
  EXPECT_EQ(runs[3].counters.count("items_per_second"), 0u);
}

TEST(GbenchOutput, ContextIsKept) {
  EXPECT_EQ(parse_gbench_context(kJson, "out.json"), (nlohmann::json{{"date", "x"}}));
  EXPECT_TRUE(parse_gbench_context(R"({"benchmarks": []})", "out.json").empty());
  EXPECT_THROW(parse_gbench_context(R"({"context": 3, "benchmarks": []})", "out.json"), Error);
}

// Each repetition a sample; aggregates skipped; a skipped benchmark (GB
// 1.8) and one with an error are told apart, and neither gets a sample.
constexpr const char* kRepetitions = R"({
  "context": {"library_build_type": "debug", "json_schema_version": 1},
  "benchmarks": [
    {"name": "BM_x", "run_name": "BM_x", "run_type": "iteration", "repetitions": 3,
     "repetition_index": 0, "iterations": 10, "real_time": 1.0, "cpu_time": 0.9,
     "time_unit": "us", "items": 4},
    {"name": "BM_x", "run_name": "BM_x", "run_type": "iteration", "repetitions": 3,
     "repetition_index": 1, "iterations": 12, "real_time": 1.1, "cpu_time": 1.0,
     "time_unit": "us", "items": 5},
    {"name": "BM_x", "run_name": "BM_x", "run_type": "iteration", "repetitions": 3,
     "repetition_index": 2, "iterations": 11, "real_time": 1.2, "cpu_time": 1.1,
     "time_unit": "us", "items": 6},
    {"name": "BM_x_mean", "run_name": "BM_x", "run_type": "aggregate", "aggregate_name": "mean",
     "iterations": 3, "real_time": 1.1, "cpu_time": 1.0, "time_unit": "us"},
    {"name": "BM_skip", "run_name": "BM_skip", "run_type": "iteration", "skipped": true,
     "skip_message": "needs a GPU", "iterations": 0, "real_time": 0, "cpu_time": 0,
     "time_unit": "ns"},
    {"name": "BM_err", "run_name": "BM_err", "run_type": "iteration", "error_occurred": true,
     "error_message": "no database", "iterations": 0, "real_time": 0, "cpu_time": 0,
     "time_unit": "ns"}
  ]})";

TEST(GbenchOutput, SamplesKeepEveryRepetition) {
  const GbenchFile f = parse_gbench_samples(kRepetitions, "a.json");
  EXPECT_EQ(f.context.at("library_build_type"), "debug");
  ASSERT_EQ(f.benchmarks.size(), 3u);
  const GbenchSamples& x = f.benchmarks[0];
  EXPECT_EQ(x.name, "BM_x");
  EXPECT_EQ(x.real_time_ns, (std::vector<double>{1000.0, 1100.0, 1200.0}));
  EXPECT_EQ(x.cpu_time_ns.size(), 3u);
  EXPECT_EQ(x.iterations, (std::vector<std::int64_t>{10, 12, 11}));
  EXPECT_EQ(x.counters.at("items"), (std::vector<double>{4, 5, 6}));
  EXPECT_EQ(x.aggregates, 1);
  EXPECT_TRUE(x.error.empty());
  EXPECT_EQ(f.benchmarks[1].skipped, "needs a GPU");
  EXPECT_TRUE(f.benchmarks[1].real_time_ns.empty()) << "a skipped benchmark is not a zero";
  EXPECT_TRUE(f.benchmarks[1].error.empty());
  EXPECT_NE(f.benchmarks[2].error.find("no database"), std::string::npos);
  EXPECT_TRUE(f.benchmarks[2].real_time_ns.empty()) << "a failed benchmark is not a zero";
}

TEST(GbenchOutput, AggregatesOnlyAreAnErrorNamingTheBenchmark) {
  const char* only = R"({"context": {}, "benchmarks": [
    {"name": "BM_x_mean", "run_name": "BM_x", "run_type": "aggregate", "aggregate_name": "mean",
     "iterations": 3, "real_time": 1.1, "cpu_time": 1.0, "time_unit": "us"}]})";
  try {
    parse_gbench_samples(only, "a.json");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("a.json: benchmark BM_x has aggregate rows"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(parse_gbench_samples("{", "a.json"), Error);
  EXPECT_THROW(
      parse_gbench_samples(R"({"benchmarks": [{"name": "x", "run_type": "odd"}]})", "a.json"),
      Error);
}

TEST(GbenchOutput, RecognisesGoogleBenchmarkDocuments) {
  EXPECT_TRUE(is_gbench_document(nlohmann::json::parse(kRepetitions)));
  EXPECT_FALSE(is_gbench_document(
      nlohmann::json{{"schema", "perfci.results/1"}, {"context", {}}, {"benchmarks", {}}}));
  EXPECT_FALSE(is_gbench_document(nlohmann::json{{"benchmarks", {}}}));
}

TEST(GbenchOutput, HookCountersBecomeCounterResultsWithStatuses) {
  auto runs = parse_gbench_json(kJson, "out.json");
  auto cs = counters_from_gbench(runs[0], {"task-clock", "instructions", "cycles", "page-faults",
                                           "bogus", "context-switches"});
  ASSERT_EQ(cs.size(), 6u);
  EXPECT_EQ(cs[0].status, EventStatus::kOk);
  EXPECT_DOUBLE_EQ(*cs[0].per_iteration, 1500.0);
  EXPECT_DOUBLE_EQ(*cs[0].per_transaction, 375.0);
  EXPECT_EQ(cs[1].status, EventStatus::kUnsupported);
  EXPECT_EQ(cs[1].error, ENOENT);
  EXPECT_FALSE(cs[1].per_iteration);
  EXPECT_EQ(cs[2].status, EventStatus::kNoPermission);
  EXPECT_EQ(cs[3].status, EventStatus::kMultiplexed);
  EXPECT_DOUBLE_EQ(cs[3].scale, 2.5);
  EXPECT_EQ(cs[4].status, EventStatus::kUnknown);
  EXPECT_EQ(cs[5].status, EventStatus::kNotCounted);
  EXPECT_EQ(transactions_from_gbench(runs[0]), 4.0);
  // A benchmark without the hook has no counters at all, not zeros.
  EXPECT_TRUE(counters_from_gbench(runs[3], {"task-clock"}).empty());
}

std::string gbench_error(const std::string& text) {
  try {
    parse_gbench_json(text, "bench.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(GbenchOutput, MalformedOutputIsAnErrorNamingTheField) {
  EXPECT_NE(gbench_error("{").find("bench.json: Google Benchmark output is not valid JSON"),
            std::string::npos);
  EXPECT_EQ(gbench_error("{}"), "bench.json: benchmarks: missing");
  EXPECT_EQ(gbench_error(R"({"benchmarks": [{"name": "x", "iterations": 1,
      "real_time": 1, "cpu_time": 1, "time_unit": "parsec"}]})"),
            "bench.json: benchmarks[0].time_unit: unknown time unit 'parsec' (ns, us, ms or s)");
  EXPECT_EQ(gbench_error(R"({"benchmarks": [{"name": "x", "iterations": 1, "cpu_time": 1}]})"),
            "bench.json: benchmarks[0].real_time: missing: the benchmark has no wall time "
            "(measured without the wall meter?)");
  EXPECT_EQ(gbench_error(R"({"benchmarks": [{"iterations": 1}]})"),
            "bench.json: benchmarks[0].name: missing");
}

TEST(BenchmarkProcess, ExactFilterEscapesRegexCharacters) {
  EXPECT_EQ(exact_filter("engine/read_join"), "^engine/read_join$");
  EXPECT_EQ(exact_filter("BM_x/8/min_time:0.100"), "^BM_x/8/min_time:0\\.100$");
  EXPECT_EQ(exact_filter("a(b)[c]*"), "^a\\(b\\)\\[c\\]\\*$");
}

TEST(BenchmarkProcess, FixedEnvironmentAndConditions) {
  ProcessConditions c;
  c.pin_cpu = 0;
  auto o = benchmark_process("/bin/true", {"--x"}, c, {{"PERFCI_EVENTS", "task-clock"}});
  ASSERT_TRUE(o.base_env);
  EXPECT_EQ(o.base_env->at("LC_ALL"), "C");
  EXPECT_EQ(o.base_env->at("PERFCI_EVENTS"), "task-clock");
  EXPECT_EQ(o.base_env->count("PERFCI_SOURCE_DIR"), 0u);
  EXPECT_TRUE(o.disable_aslr);
  EXPECT_EQ(o.pin_cpu, 0);
  EXPECT_EQ(o.argv, (std::vector<std::string>{"/bin/true", "--x"}));
}

TEST(BenchmarkProcess, MissingBinaryIsAClearError) {
  try {
    list_benchmarks("/nonexistent/bench", ".*", {});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/bench does not exist"), std::string::npos);
  }
}

}  // namespace
}  // namespace perfci
