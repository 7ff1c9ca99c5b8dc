#include "perfci/model/results.h"

#include <errno.h>
#include <gtest/gtest.h>

#include <map>

#include "perfci/util/error.h"
#include "perfci/util/files.h"

namespace perfci {
namespace {

using nlohmann::json;

RunResults sample() {
  RunResults r = make_run_results();
  r.binary = "/build/bench";
  r.meters = {"wall", "counters", "callgrind", "profile"};
  r.events = {"task-clock", "instructions"};
  r.environment = {{"kernel", "6.1"}};
  BenchmarkResult b;
  b.name = "engine/point_lookup";
  b.iterations = 1000;
  b.real_time_ns = 812.5;
  b.cpu_time_ns = 810.0;
  b.transactions_per_iteration = 4;
  b.counters.push_back({"task-clock", EventStatus::kMultiplexed, 800.0, 200.0, 2.5, 0});
  b.counters.push_back(
      {"instructions", EventStatus::kUnsupported, std::nullopt, std::nullopt, 1.0, ENOENT});
  b.callgrind = CallgrindResult{20, 40000, 2000.0, {{"f(int)", "/build/bench", 30000, 40000}}};
  b.profile =
      ProfileResult{"cpu-clock", 10, 1, {{"decode", 0.6, 6, "seek()"}, {"seek()", 0.4, 4, ""}}};
  r.benchmarks.push_back(b);
  BenchmarkResult failed;
  failed.name = "engine/crash";
  failed.error = "killed by signal 11 (Segmentation fault)";
  r.benchmarks.push_back(failed);
  return r;
}

TEST(Results, RoundTripsThroughJson) {
  RunResults r = sample();
  nlohmann::json j = r;
  RunResults back = run_results_from_json(j, "x.json");
  EXPECT_EQ(nlohmann::json(back), j);
  EXPECT_EQ(back.schema, "perfci.results/1");
  ASSERT_NE(back.find("engine/point_lookup"), nullptr);
  const auto* ins = back.find("engine/point_lookup")->counter("instructions");
  ASSERT_NE(ins, nullptr);
  EXPECT_EQ(ins->status, EventStatus::kUnsupported);
  EXPECT_FALSE(ins->per_iteration.has_value());
  EXPECT_EQ(ins->error, ENOENT);
  EXPECT_TRUE(back.any_failed());
  EXPECT_FALSE(j["benchmarks"][0]["counters"][1].contains("per_iteration"))
      << "an unsupported counter is never written as a number";
}

// Issue 18: allocations (always) and the cache simulation's counts (with
// --cache-sim) ride on the callgrind result, and are gated metrics.
TEST(Results, AllocationsAndCacheCountsRoundTripAndAreMetrics) {
  RunResults r = sample();
  CallgrindResult& c = *r.benchmarks[0].callgrind;
  c.allocations = Allocations{3, {{"Statement::build_plan()", 2}, {"strdup", 1}}, 96.0, 3.0, ""};
  c.cache = CacheCounts{1, 4, 0.25, 0.75};
  c.functions[0].self_l1_misses = 70;
  c.functions[0].self_ll_misses = 9;
  nlohmann::json j = r;
  EXPECT_EQ(j["benchmarks"][0]["callgrind"]["cache"]["estimated_cycles"], 2000 + 10 * 5 + 100 * 1);
  RunResults back = run_results_from_json(j, "x.json");
  EXPECT_EQ(nlohmann::json(back), j);
  const CallgrindResult& bc = *back.benchmarks[0].callgrind;
  ASSERT_TRUE(bc.allocations && bc.cache);
  EXPECT_EQ(bc.allocations->sites[0].function, "Statement::build_plan()");
  EXPECT_EQ(bc.functions[0].self_l1_misses, 70u);
  std::map<std::string, double> values;
  std::vector<std::string> names;
  for (const auto& m : metric_values(back.benchmarks[0]))
    if (m.kind == "callgrind") {
      EXPECT_TRUE(m.deterministic) << m.metric;
      values[m.metric] = m.value;
      names.push_back(m.metric);
    }
  // The list perfci.json's "accepted" entries are checked against.
  EXPECT_EQ(names, callgrind_metrics());
  EXPECT_EQ(values.size(), 6u);
  EXPECT_EQ(values["allocations"], 3);
  EXPECT_EQ(values["allocated_bytes"], 96);
  EXPECT_EQ(values["l1_misses"], 5);
  EXPECT_EQ(values["ll_misses"], 1);
  EXPECT_EQ(values["estimated_cycles"], 2150);
  // A result written before issue 18 has neither, and no such metric.
  EXPECT_FALSE(run_results_from_json(nlohmann::json(sample()), "old.json")
                   .benchmarks[0]
                   .callgrind->allocations.has_value());
  // Bytes not measured: the reason, and no figure and no metric; a file
  // with both is refused.
  nlohmann::json unmeasured = j;
  auto& ua = unmeasured["benchmarks"][0]["callgrind"]["allocations"];
  ua.erase("bytes_per_iteration");
  ua.erase("counted_per_iteration");
  ua["bytes_unmeasured"] = "hook-free";
  RunResults u = run_results_from_json(unmeasured, "u.json");
  EXPECT_EQ(u.benchmarks[0].callgrind->allocations->bytes_unmeasured, "hook-free");
  for (const auto& m : metric_values(u.benchmarks[0])) EXPECT_NE(m.metric, "allocated_bytes");
  ua["bytes_per_iteration"] = 96;
  EXPECT_THROW(run_results_from_json(unmeasured, "u.json"), Error);
  // Counts are counts.
  j["benchmarks"][0]["callgrind"]["allocations"]["bytes_per_iteration"] = -1;
  EXPECT_THROW(run_results_from_json(j, "x.json"), Error);
  j["benchmarks"][0]["callgrind"]["allocations"]["bytes_per_iteration"] = 96;
  j["benchmarks"][0]["callgrind"]["allocations"]["per_iteration"] = -1;
  EXPECT_THROW(run_results_from_json(j, "x.json"), Error);
}

TEST(Results, MetricValuesNameWhatThresholdsApplyTo) {
  auto ms = metric_values(sample().benchmarks[0]);
  ASSERT_EQ(ms.size(), 4u);
  EXPECT_EQ(ms[0].kind, "wall");
  EXPECT_EQ(ms[2].kind, "counters");
  EXPECT_EQ(ms[2].metric, "task-clock");
  EXPECT_EQ(ms[3].kind, "callgrind");
  EXPECT_TRUE(ms[3].deterministic);
  EXPECT_TRUE(metric_values(sample().benchmarks[1]).empty()) << "a failed benchmark has no values";
}

TEST(Results, MalformedInputNamesTheField) {
  nlohmann::json j = sample();
  auto error_of = [](const nlohmann::json& doc) -> std::string {
    try {
      run_results_from_json(doc, "r.json");
    } catch (const Error& e) {
      return e.what();
    }
    return "(no error)";
  };
  auto bad = j;
  bad["schema"] = "perfci.results/0";
  EXPECT_NE(error_of(bad).find("r.json: schema: is \"perfci.results/0\""), std::string::npos)
      << error_of(bad);
  bad = j;
  bad["benchmarks"][0]["counters"][0]["status"] = "great";
  EXPECT_NE(error_of(bad).find("r.json: benchmarks[0].counters[0].status: unknown status"),
            std::string::npos)
      << error_of(bad);
  bad = j;
  bad["benchmarks"][0]["counters"][1]["per_iteration"] = 0;
  EXPECT_NE(error_of(bad).find("present although"), std::string::npos) << error_of(bad);
  bad = j;
  bad["benchmarks"][0]["callgrind"]["total_ir"] = -5;
  EXPECT_NE(error_of(bad).find("callgrind.total_ir"), std::string::npos) << error_of(bad);
  bad = j;
  bad["benchmarks"][1].erase("name");
  EXPECT_NE(error_of(bad).find("benchmarks[1].name: missing"), std::string::npos) << error_of(bad);
}

TEST(Results, IncompleteRoundTripsAndIsValidated) {
  RunResults r = make_run_results();
  r.binary = "/b";
  r.meters = {"wall"};
  Incomplete inc;
  inc.signo = 15;  // SIGTERM
  inc.completed = 1;
  inc.planned = 4;
  r.incomplete = inc;
  json j = r;
  EXPECT_EQ(j["incomplete"],
            json::parse(R"({"signal": "SIGTERM", "exit_code": 143, "completed": 1, "planned": 4,
                            "unit": "benchmarks",
                            "reason": "interrupted by SIGTERM after 1 of 4 benchmarks"})"));
  RunResults back = run_results_from_json(j, "r.json");
  ASSERT_TRUE(back.incomplete);
  EXPECT_EQ(back.incomplete->exit_code(), 143);
  EXPECT_EQ(back.incomplete->reason(), "interrupted by SIGTERM after 1 of 4 benchmarks");
  j["incomplete"]["signal"] = "SIGHUP";
  EXPECT_THROW(run_results_from_json(j, "r.json"), Error);
  EXPECT_FALSE(run_results_from_json(json(make_run_results()), "r.json").incomplete);
}

TEST(Results, SaveAndLoad) {
  TempDir dir;
  auto path = (dir.path() / "results.json").string();
  save_run_results(sample(), path);
  EXPECT_EQ(nlohmann::json(load_run_results(path)), nlohmann::json(sample()));
  write_file_atomic(path, "{ truncated");
  EXPECT_THROW(load_run_results(path), Error);
}

}  // namespace
}  // namespace perfci
