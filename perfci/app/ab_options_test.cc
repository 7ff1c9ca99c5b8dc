// The A/B's and check's flags on top of the common ones: their
// registration, the A/B options they make, the settings an A/B report
// records and that they come back from a saved report.
#include <gtest/gtest.h>

#include "perfci/analysis/sample_report.h"
#include "perfci/app/ab_session.h"
#include "perfci/app/check_session.h"
#include "perfci/app/cli_parse_testing.h"
#include "perfci/util/error.h"

namespace perfci::app {
namespace {

using Strings = std::vector<std::string>;

using testing::parse;

AbFlags ab_flags(const Strings& args) {
  AbFlags f;
  CLI::App app;
  f.add_to(&app);
  parse(app, args);
  return f;
}

SuiteFlags suite_flags(const Strings& args) {
  SuiteFlags f;
  CLI::App app;
  f.add_to(&app);
  parse(app, args);
  return f;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(AbFlagsCli, TheCommonAndTheAbFlags) {
  AbFlags f =
      ab_flags({"--meter",         "wall",   "--pairs",        "4",      "--warmup",  "0",
                "--confirm-pairs", "2",      "--seed",         "7",      "--timeout", "3s",
                "--min-time",      "0.01",   "--out",          "r.json", "--md",      "r.md",
                "--html",          "r.html", "--no-contracts", "--quiet"});
  EXPECT_EQ(f.meters, "wall");
  EXPECT_EQ(f.pairs, 4);
  EXPECT_EQ(f.warmup, 0);
  ASSERT_TRUE(f.confirm_pairs);
  EXPECT_EQ(*f.confirm_pairs, 2);
  EXPECT_EQ(f.seed, 7u);
  EXPECT_EQ(f.timeout, "3s");
  ASSERT_TRUE(f.min_time);
  EXPECT_DOUBLE_EQ(*f.min_time, 0.01);
  EXPECT_EQ(f.out, "r.json");
  EXPECT_EQ(f.md, "r.md");
  EXPECT_EQ(f.html, "r.html");
  EXPECT_TRUE(f.no_contracts);
  EXPECT_TRUE(f.quiet);
}

TEST(AbFlagsCli, DefaultsAndRefusals) {
  AbFlags f = ab_flags({});
  EXPECT_EQ(f.profile_source, "callgrind");  // an A/B profiles under callgrind
  EXPECT_EQ(f.timeout, "10m");
  EXPECT_EQ(f.pairs, 10);
  EXPECT_EQ(f.warmup, 1);
  EXPECT_FALSE(f.confirm_pairs);
  EXPECT_EQ(f.budget, "");
  EXPECT_THROW(ab_flags({"--pairs", "4", "--budget", "1m"}), CLI::ParseError);  // one or the other
  EXPECT_THROW(ab_flags({"--pairs", "0"}), CLI::ParseError);
  EXPECT_THROW(ab_flags({"--warmup", "101"}), CLI::ParseError);
  EXPECT_THROW(ab_flags({"--events", "cycles"}), CLI::ParseError);  // perfci.json's
  EXPECT_THROW(ab_flags({"--pin", "-1"}), CLI::ParseError);
  EXPECT_THROW(ab_flags({"--timeout", "later"}), CLI::ParseError);
}

TEST(SuiteFlagsCli, CheckAndBaselineUpdate) {
  SuiteFlags f = suite_flags({"--config", "p.json", "--suite", "engine", "--baseline", "b/",
                              "--meter", "callgrind", "--preset", "bench", "--build-dir", "out",
                              "--no-build", "--jobs", "4", "--timeout", "90s", "--quiet"});
  EXPECT_EQ(f.config_path, "p.json");
  EXPECT_EQ(f.suite, "engine");
  EXPECT_EQ(f.baseline, "b/");
  EXPECT_EQ(f.meters, "callgrind");
  EXPECT_EQ(f.preset, "bench");
  EXPECT_EQ(f.build_dir, "out");
  EXPECT_TRUE(f.no_build);
  EXPECT_EQ(f.jobs, 4);
  EXPECT_EQ(f.timeout, "90s");
  EXPECT_TRUE(f.quiet);
  // What changes the numbers is the suite's: no such flags here.
  EXPECT_THROW(suite_flags({"--filter", "x"}), CLI::ParseError);
  EXPECT_THROW(suite_flags({"--min-time", "1"}), CLI::ParseError);
  EXPECT_THROW(suite_flags({"--callgrind-iterations", "2"}), CLI::ParseError);
  EXPECT_THROW(suite_flags({"--jobs", "-1"}), CLI::ParseError);
}

TEST(AbRunOptions, FromTheDefaults) {
  AbRunOptions o = ab_run_options(nullptr, AbFlags{}, MeasureDefaults{});
  EXPECT_EQ(o.plan.pairs, 10);
  EXPECT_FALSE(o.plan.budget);
  EXPECT_EQ(o.plan.warmup, 1);
  EXPECT_EQ(o.plan.confirm_pairs, 10);
  EXPECT_EQ(o.plan.seed, 1u);
  EXPECT_EQ(o.analysis.comparison.bootstrap.seed, 1u);
  EXPECT_EQ(o.measure.profile_source, "callgrind");
  EXPECT_EQ(o.measure.meters, Strings{"wall"});
  EXPECT_EQ(o.measure.conditions.timeout, std::chrono::milliseconds(600000));
  EXPECT_FALSE(o.progress);
}

TEST(AbRunOptions, TheFlagsPlan) {
  AbFlags f;
  f.pairs = 50;
  f.seed = 9;
  f.warmup = 0;
  AbRunOptions o = ab_run_options(nullptr, f, {});
  EXPECT_EQ(o.plan.pairs, 50);
  EXPECT_EQ(o.plan.confirm_pairs, 30);  // --pairs, at most 30
  EXPECT_EQ(o.plan.warmup, 0);
  EXPECT_EQ(o.plan.seed, 9u);
  EXPECT_EQ(o.analysis.comparison.bootstrap.seed, 9u);
  f.confirm_pairs = 0;
  f.budget = "2m";
  o = ab_run_options(nullptr, f, {});
  EXPECT_EQ(o.plan.confirm_pairs, 0);
  ASSERT_TRUE(o.plan.budget);
  EXPECT_EQ(*o.plan.budget, std::chrono::seconds(120));
  f.budget = "soon";
  EXPECT_EQ(error_of([&] { ab_run_options(nullptr, f, {}); }),
            "--budget: 'soon' is not a duration (examples: 90s, 10m, 1h30m)");
}

TEST(AbRunOptions, TheSuiteAndItsOverrides) {
  SuiteConfig s;
  s.name = "engine";
  s.binary = "b";
  s.filter = "engine/.*";
  s.callgrind.iterations = 4;
  AbFlags f;
  f.callgrind_iterations = 2;
  AbRunOptions o = ab_run_options(&s, f, {{"callgrind"}, {"cycles"}});
  EXPECT_EQ(o.measure.filter, "engine/.*");
  EXPECT_EQ(o.measure.callgrind_iterations, 2);
  EXPECT_EQ(o.measure.meters, Strings{"callgrind"});
  EXPECT_EQ(o.measure.events, Strings{"cycles"});
}

TEST(AbSettingsJson, TheCommonKeysAndThePlan) {
  AbFlags f;
  f.budget = "90s";
  f.meters = "wall,counters";
  f.pin = 0;
  AbRunOptions o = ab_run_options(nullptr, f, {{"wall"}, {"cycles"}});
  nlohmann::json j = ab_settings_json("aa", "", "", o);
  Strings keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (Strings{"analysis",
                           "args",
                           "aslr",
                           "budget_s",
                           "callgrind_filter",
                           "callgrind_iterations",
                           "command",
                           "config",
                           "confirm_pairs",
                           "events",
                           "filter",
                           "meters",
                           "min_time_s",
                           "pairs",
                           "pin_cpu",
                           "profile_source",
                           "seed",
                           "suite",
                           "timeout_s",
                           "warmup"}));
  EXPECT_EQ(j["command"], "aa");
  EXPECT_EQ(j["budget_s"], 90);
  EXPECT_EQ(j["pairs"], 10);
  EXPECT_EQ(j["confirm_pairs"], 10);
  EXPECT_EQ(j["warmup"], 1);
  EXPECT_EQ(j["seed"], 1);
  EXPECT_EQ(j["aslr"], "off");
  EXPECT_EQ(j["pin_cpu"], 0);
  EXPECT_EQ(j["events"], Strings{"cycles"});
  EXPECT_EQ(j["timeout_s"], 600);
  EXPECT_EQ(j["profile_source"], "callgrind");
  EXPECT_TRUE(j["analysis"].is_object());
  f.budget.clear();
  EXPECT_TRUE(ab_settings_json("ab", "", "", ab_run_options(nullptr, f, {}))["budget_s"].is_null());
}

TEST(AbSettingsJson, ComesBackFromASavedReport) {
  perfci::Report rep = analysis::testing::sample_report();
  AbFlags f;
  f.min_time = 0.01;
  rep.settings = ab_settings_json("ab", "/p/perfci.json", "engine",
                                  ab_run_options(nullptr, f, {{"wall", "callgrind"}, {}}));
  const nlohmann::json written = rep;
  perfci::Report back = perfci::report_from_json(nlohmann::json::parse(written.dump()), "r.json");
  EXPECT_EQ(back.settings, rep.settings);
  EXPECT_EQ(back.settings["min_time_s"], 0.01);
  EXPECT_EQ(back.settings["meters"], (Strings{"wall", "callgrind"}));
}

}  // namespace
}  // namespace perfci::app
