#include "perfci/model/gbench_json.h"

#include <gtest/gtest.h>

#include "perfci/util/error.h"

namespace perfci {
namespace {

using nlohmann::json;

RunResults timed_run() {
  RunResults r = make_run_results();
  r.binary = "/build/bench";
  r.meters = {"wall", "counters", "callgrind"};
  r.events = {"task-clock", "instructions"};
  r.context = {{"library_build_type", "release"}, {"num_cpus", 2}};
  BenchmarkResult b;
  b.name = "engine/point_lookup";
  b.iterations = 1000;
  b.real_time_ns = 812.5;
  b.cpu_time_ns = 810.0;
  b.transactions_per_iteration = 4;
  b.counters.push_back({"task-clock", EventStatus::kMultiplexed, 800.0, 200.0, 2.5, 0});
  b.counters.push_back(
      {"instructions", EventStatus::kUnsupported, std::nullopt, std::nullopt, 1.0, 2});
  b.callgrind = CallgrindResult{20, 40000, 2000.0, {}};
  r.benchmarks.push_back(b);
  BenchmarkResult failed;
  failed.name = "engine/crash";
  failed.error = "killed by signal 11 (Segmentation fault)";
  r.benchmarks.push_back(failed);
  return r;
}

// The fields google/benchmark's tools/compare.py reads (gbench/util.py and
// gbench/report.py): context.json_schema_version (it exits on anything but
// 1); per benchmark name, run_name (its filters), run_type and
// aggregate_name (aggregates are told apart by them), time_unit, real_time
// and cpu_time (a benchmark without all three is not compared; one without
// real_time breaks its geomean), and the sort keys family_index,
// per_family_instance_index and repetition_index.
TEST(GbenchJson, CarriesEveryFieldCompareReads) {
  const json j = to_gbench_json(timed_run());
  EXPECT_EQ(j.at("context").at("json_schema_version"), 1);
  EXPECT_EQ(j.at("context").at("library_build_type"), "release")
      << "the binary's own context is kept";
  EXPECT_EQ(j.at("context").at("perfci").at("binary"), "/build/bench");
  ASSERT_EQ(j.at("benchmarks").size(), 2u);
  for (const json& b : j.at("benchmarks")) {
    for (const char* key : {"name", "run_name", "run_type", "real_time", "cpu_time", "time_unit",
                            "iterations", "repetitions", "repetition_index", "family_index",
                            "per_family_instance_index", "threads"})
      EXPECT_TRUE(b.contains(key)) << b.at("name") << " lacks " << key;
    EXPECT_EQ(b.at("run_type"), "iteration");
    EXPECT_FALSE(b.contains("aggregate_name"));
    EXPECT_EQ(b.at("time_unit"), "ns");
    EXPECT_TRUE(b.at("real_time").is_number());
    EXPECT_TRUE(b.at("cpu_time").is_number());
  }
  const json& b = j.at("benchmarks")[0];
  EXPECT_EQ(b.at("name"), "engine/point_lookup");
  EXPECT_EQ(b.at("run_name"), "engine/point_lookup");
  EXPECT_EQ(b.at("family_index"), 0);
  EXPECT_EQ(b.at("iterations"), 1000);
  EXPECT_DOUBLE_EQ(b.at("real_time").get<double>(), 812.5);
  EXPECT_DOUBLE_EQ(b.at("cpu_time").get<double>(), 810.0);
}

TEST(GbenchJson, CountersAreUserCountersUnderTheHooksNames) {
  const json b = to_gbench_json(timed_run()).at("benchmarks")[0];
  EXPECT_DOUBLE_EQ(b.at("perf.task-clock").get<double>(), 800.0);
  EXPECT_DOUBLE_EQ(b.at("perf.task-clock/txn").get<double>(), 200.0);
  EXPECT_DOUBLE_EQ(b.at("perf.task-clock.scale").get<double>(), 2.5);
  EXPECT_DOUBLE_EQ(b.at("perf.transactions").get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(b.at("ir_per_iteration").get<double>(), 2000.0);
  EXPECT_FALSE(b.contains("perf.instructions")) << "an unsupported counter has no number";
}

TEST(GbenchJson, AFailedBenchmarkIsWrittenAsGoogleBenchmarkWritesAnError) {
  const json b = to_gbench_json(timed_run()).at("benchmarks")[1];
  EXPECT_EQ(b.at("error_occurred"), true);
  EXPECT_EQ(b.at("error_message"), "killed by signal 11 (Segmentation fault)");
  EXPECT_EQ(b.at("iterations"), 0);
}

TEST(GbenchJson, ARunWithoutWallTimesIsRefused) {
  RunResults r = timed_run();
  r.benchmarks[0].real_time_ns.reset();
  r.benchmarks[0].cpu_time_ns.reset();
  try {
    to_gbench_json(r);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("engine/point_lookup has no wall time"), std::string::npos)
        << e.what();
  }
}

// The results file itself carries the same spellings when wall times exist,
// so compare.py reads `perfci run --out` too.
TEST(GbenchJson, ResultsFileSpellsWallTimesTheGoogleBenchmarkWay) {
  const json j = timed_run();
  EXPECT_EQ(j.at("context").at("library_build_type"), "release");
  const json& b = j.at("benchmarks")[0];
  EXPECT_EQ(b.at("run_name"), "engine/point_lookup");
  EXPECT_EQ(b.at("run_type"), "iteration");
  EXPECT_DOUBLE_EQ(b.at("real_time").get<double>(), 812.5);
  EXPECT_DOUBLE_EQ(b.at("cpu_time").get<double>(), 810.0);
  EXPECT_EQ(b.at("time_unit"), "ns");
  EXPECT_FALSE(j.at("benchmarks")[1].contains("real_time"))
      << "a failed benchmark has no time in perfci's own record";
  const RunResults back = run_results_from_json(j, "x.json");
  EXPECT_EQ(back.context, j.at("context"));
  EXPECT_EQ(json(back), j);
}

}  // namespace
}  // namespace perfci
