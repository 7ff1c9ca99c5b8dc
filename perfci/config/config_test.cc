#include "perfci/config/config.h"

#include <gtest/gtest.h>

#include <cstdio>

#include "perfci/util/error.h"
#include "perfci/util/files.h"

namespace perfci {
namespace {

std::string error_of(const std::string& text) {
  try {
    parse_config(text, "perfci.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Config, ParsesTheProposedShape) {
  auto c = parse_config(R"({
    "schema": "perfci.config/1",
    "build": {"preset": "release", "targets": ["engine_bench"]},
    "suites": [{"name": "engine", "binary": "engine/bench/engine_bench", "filter": ".*",
                "min_time": 0.1, "callgrind": {"iterations": 20, "filter": "engine/.*"}}],
    "meters": ["wall", "callgrind"],
    "events": ["instructions", "task-clock"],
    "metrics": {"wall": {"threshold": 0.03}},
    "contracts": [{"kind": "inline"}]
  })",
                        "perfci.json");
  EXPECT_EQ(c.build.targets, std::vector<std::string>{"engine_bench"});
  ASSERT_EQ(c.suites.size(), 1u);
  EXPECT_EQ(c.suites[0].binary, "engine/bench/engine_bench");
  EXPECT_DOUBLE_EQ(*c.suites[0].min_time, 0.1);
  EXPECT_EQ(c.suites[0].callgrind.iterations, 20);
  EXPECT_EQ(c.suites[0].callgrind.filter, "engine/.*");
  EXPECT_EQ(c.meters, (std::vector<std::string>{"wall", "callgrind"}));
  EXPECT_EQ(c.events, (std::vector<std::string>{"instructions", "task-clock"}));
  // Other sections are kept for their owners.
  EXPECT_DOUBLE_EQ(c.raw["metrics"]["wall"]["threshold"].get<double>(), 0.03);
  EXPECT_EQ(c.suite("engine").name, "engine");
  EXPECT_THROW(c.suite("nope"), Error);
}

TEST(Config, DefaultsWhenOptionalSectionsAreAbsent) {
  auto c = parse_config(
      R"({"schema": "perfci.config/1", "suites": [{"name": "s", "binary": "b"}]})", "x.json");
  EXPECT_EQ(c.meters, std::vector<std::string>{"wall"});
  EXPECT_EQ(c.events, default_events());
  EXPECT_EQ(c.suites[0].filter, ".*");
  EXPECT_FALSE(c.suites[0].min_time);
  EXPECT_EQ(c.build.preset, "release");
}

TEST(Config, ErrorsNameTheFileAndTheField) {
  EXPECT_EQ(error_of("{"), error_of("{"));  // deterministic
  EXPECT_NE(error_of("{").find("perfci.json: not valid JSON"), std::string::npos);
  EXPECT_NE(error_of(R"({"suites": []})").find("perfci.json: schema: missing"), std::string::npos);
  EXPECT_NE(error_of(R"({"schema": "perfci.config/9", "suites": []})").find("schema: is"),
            std::string::npos);
  const std::string head = R"({"schema": "perfci.config/1", )";
  EXPECT_NE(error_of(head + R"("suites": []})").find("suites: expected a non-empty array"),
            std::string::npos);
  EXPECT_NE(error_of(head + R"("suites": [{"name": "a", "binary": 3}]})")
                .find("perfci.json: suites[0].binary: expected a non-empty string"),
            std::string::npos);
  EXPECT_NE(error_of(head + R"("suites": [{"name": "a", "binary": "/abs"}]})")
                .find("suites[0].binary: must be relative"),
            std::string::npos);
  EXPECT_NE(error_of(head + R"("suites": [{"name": "a", "binary": "b", "min_time": -1}]})")
                .find("suites[0].min_time: expected a positive number"),
            std::string::npos);
  EXPECT_NE(error_of(head +
                     R"("suites": [{"name": "a", "binary": "b", "callgrind": {"iterations": 0}}]})")
                .find("suites[0].callgrind.iterations"),
            std::string::npos);
  EXPECT_NE(error_of(head + R"("suites": [{"name": "a", "binary": "b", "bianry": "c"}]})")
                .find("suites[0].bianry: unknown field"),
            std::string::npos);
  EXPECT_NE(
      error_of(head + R"("suites": [{"name": "a", "binary": "b"}], "meters": ["wall", "cpu"]})")
          .find("meters[1]: unknown meter 'cpu'"),
      std::string::npos);
  EXPECT_NE(
      error_of(head + R"("suites": [{"name": "a", "binary": "b"}, {"name": "a", "binary": "c"}]})")
          .find("duplicate suite name"),
      std::string::npos);
  EXPECT_NE(error_of(head + R"("suites": [{"name": "a", "binary": "b"}], "events": "cycles"})")
                .find("events: expected an array of strings"),
            std::string::npos);
}

TEST(Config, SuiteArgumentsAreKeptInOrderAndBenchmarkFlagsRefused) {
  auto c = parse_config(R"({"schema": "perfci.config/1",
    "suites": [{"name": "s", "binary": "b", "args": ["--scale=0.1", "-v"]}]})",
                        "perfci.json");
  EXPECT_EQ(c.suites[0].args, (std::vector<std::string>{"--scale=0.1", "-v"}));
  const std::string plain =
      R"({"schema": "perfci.config/1", "suites": [{"name": "s", "binary": "b"}]})";
  EXPECT_TRUE(parse_config(plain, "perfci.json").suites[0].args.empty());
  const std::string head = R"({"schema": "perfci.config/1", )";
  EXPECT_NE(error_of(head + R"("suites": [{"name": "a", "binary": "b", "args": "--scale=1"}]})")
                .find("suites[0].args: expected an array of strings"),
            std::string::npos);
  const std::string flag =
      R"("suites": [{"name": "a", "binary": "b", "args": ["--benchmark_filter=x"]}]})";
  EXPECT_NE(error_of(head + flag)
                .find("args[0]: '--benchmark_filter=x': --benchmark_* flags are perfci's"),
            std::string::npos);
}

// issue 21: a suite forces the callgrind mode; auto (the default) picks the
// hook where the benchmark has it.
TEST(Config, CallgrindModeIsAutoHookOrProcess) {
  const std::string head =
      R"({"schema": "perfci.config/1", "suites": [{"name": "s", "binary": "b", )";
  auto c = parse_config(head + R"("callgrind": {"mode": "process"}}]})", "perfci.json");
  EXPECT_EQ(c.suites[0].callgrind.mode, "process");
  EXPECT_EQ(parse_config(head + R"("callgrind": {}}]})", "perfci.json").suites[0].callgrind.mode,
            "auto");
  const std::string e = error_of(head + R"("callgrind": {"mode": "guess"}}]})");
  EXPECT_NE(e.find("callgrind.mode"), std::string::npos) << e;
  EXPECT_NE(e.find("expected auto, hook or process"), std::string::npos) << e;
}

// issue 18: a suite turns the cache simulation on; off by default.
TEST(Config, CallgrindCacheSimulationIsOptIn) {
  const std::string head =
      R"({"schema": "perfci.config/1", "suites": [{"name": "s", "binary": "b", )";
  EXPECT_TRUE(parse_config(head + R"("callgrind": {"cache_sim": true}}]})", "perfci.json")
                  .suites[0]
                  .callgrind.cache_sim);
  EXPECT_FALSE(
      parse_config(head + R"("callgrind": {}}]})", "perfci.json").suites[0].callgrind.cache_sim);
  const std::string e = error_of(head + R"("callgrind": {"cache_sim": "yes"}}]})");
  EXPECT_NE(e.find("callgrind.cache_sim: expected true or false"), std::string::npos) << e;
}

TEST(Config, LoadNamesTheMissingFile) {
  try {
    load_config("/nonexistent/perfci.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/perfci.json"), std::string::npos);
  }
  TempDir dir;
  write_file_atomic(dir.path() / "perfci.json",
                    R"({"schema": "perfci.config/1", "suites": [{"name": "s", "binary": "b"}]})");
  EXPECT_EQ(load_config(dir.path() / "perfci.json").path, dir.path() / "perfci.json");
}

TEST(Config, MeterList) {
  EXPECT_EQ(parse_meter_list("wall,counters,wall"), (std::vector<std::string>{"wall", "counters"}));
  EXPECT_THROW(parse_meter_list("wall,bogus"), Error);
  EXPECT_THROW(parse_meter_list(""), Error);
}

constexpr const char* kMinimal =
    R"({"schema": "perfci.config/1", "suites": [{"name": "s", "binary": "b"}]%s})";

std::string with_history(const std::string& history) {
  char buf[1024];
  std::snprintf(buf, sizeof buf, kMinimal, (", \"history\": " + history).c_str());
  return buf;
}

TEST(Config, HistoryIsOptionalAndItsDatabaseIsRelativeToTheConfigsFolder) {
  auto none = parse_config(
      R"({"schema": "perfci.config/1", "suites": [{"name": "s", "binary": "b"}]})", "perfci.json");
  EXPECT_FALSE(none.history);
  EXPECT_EQ(history_database(none), "");

  auto c = parse_config(with_history(R"({"database": "history/results.db",
      "change_points": {"alpha": 0.01, "permutations": 999, "min_magnitude": 0.02}})"),
                        "perfci.json");
  ASSERT_TRUE(c.history);
  EXPECT_EQ(c.history->database, "history/results.db");
  EXPECT_DOUBLE_EQ(c.history->change_points.alpha, 0.01);
  EXPECT_EQ(c.history->change_points.permutations, 999);
  EXPECT_DOUBLE_EQ(c.history->change_points.min_magnitude, 0.02);
  c.path = "/project/perfci.json";
  EXPECT_EQ(history_database(c), "/project/history/results.db");

  auto d = parse_config(with_history(R"({"database": "/var/db/h.db"})"), "perfci.json");
  EXPECT_DOUBLE_EQ(d.history->change_points.alpha, 0.05);
  EXPECT_EQ(d.history->change_points.permutations, 199);
  EXPECT_DOUBLE_EQ(d.history->change_points.min_magnitude, 0.01);
  d.path = "/project/perfci.json";
  EXPECT_EQ(history_database(d), "/var/db/h.db");
}

TEST(Config, HistoryMistakesNameTheField) {
  EXPECT_EQ(error_of(with_history("{}")), "perfci.json: history.database: missing");
  EXPECT_EQ(error_of(with_history(R"({"database": ""})")),
            "perfci.json: history.database: expected a non-empty string");
  EXPECT_EQ(error_of(with_history(R"({"database": "h.db", "path": "x"})")),
            "perfci.json: history.path: unknown field (known: database, change_points)");
  EXPECT_EQ(error_of(with_history(R"({"database": "h.db", "change_points": {"alpha": 1}})")),
            "perfci.json: history.change_points.alpha: expected a number between 0 and 1");
  EXPECT_EQ(
      error_of(with_history(R"({"database": "h.db", "change_points": {"permutations": 0}})")),
      "perfci.json: history.change_points.permutations: expected an integer between 1 and 100000");
  EXPECT_EQ(
      error_of(with_history(R"({"database": "h.db", "change_points": {"min_magnitude": -1}})")),
      "perfci.json: history.change_points.min_magnitude: expected a relative change in [0, 10) "
      "(0.01 is 1%)");
  EXPECT_EQ(error_of(with_history(R"("h.db")")), "perfci.json: history: expected an object");
}

}  // namespace
}  // namespace perfci
