// The common flags: their registration on CLI11 (one spelling, one help
// text), a suite and the flags as MeasureOptions, the settings a report
// records, and the duration parsers.
#include "perfci/app/common_flags.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "perfci/app/cli_parse_testing.h"
#include "perfci/app/run_settings.h"
#include "perfci/util/error.h"

namespace perfci::app {
namespace {

using Strings = std::vector<std::string>;

using testing::parse;

CommonFlags parsed(const Strings& args, CommonFlagSet which = kRunFlags) {
  CommonFlags f;
  CLI::App app;
  add_common_flags(&app, f, which);
  parse(app, args);
  return f;
}

// The CLI11 error a refused argv gives, or "" when it parses.
std::string refusal(const Strings& args, CommonFlagSet which = kRunFlags) {
  try {
    parsed(args, which);
    return "";
  } catch (const CLI::ParseError& e) {
    return e.get_name() + ": " + e.what();
  }
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

Strings option_names(const CLI::App& app) {
  Strings names;
  for (const CLI::Option* o : app.get_options())
    if (!o->get_lnames().empty() && o->get_lnames()[0] != "help")
      names.push_back("--" + o->get_lnames()[0]);
  return names;
}

SuiteConfig sample_suite() {
  SuiteConfig s;
  s.name = "engine";
  s.binary = "engine/bench/engine_bench";
  s.filter = "engine/.*";
  s.min_time = 0.25;
  s.args = {"--scale=0.1"};
  s.callgrind.iterations = 3;
  s.callgrind.filter = "engine/point_lookup";
  return s;
}

const char* kTwoSuites = R"({
  "schema": "perfci.config/1",
  "build": {"preset": "bench"},
  "suites": [{"name": "engine", "binary": "engine/bench/engine_bench"},
             {"name": "storage", "binary": "storage/bench/storage_bench", "filter": "BM_io"}],
  "meters": ["callgrind", "wall"],
  "events": ["instructions", "cycles"]
})";

// --- registration ---------------------------------------------------------

TEST(CommonFlagsCli, EveryFlagParsesIntoItsField) {
  CommonFlags f = parsed({"--config",
                          "p.json",
                          "--suite",
                          "engine",
                          "--meter",
                          "wall,callgrind",
                          "--events",
                          "cycles,instructions",
                          "--filter",
                          "BM_sum",
                          "--min-time",
                          "0.5",
                          "--callgrind-iterations",
                          "3",
                          "--pin",
                          "2",
                          "--timeout",
                          "90s",
                          "--profile-source",
                          "callgrind",
                          "--quiet"});
  EXPECT_EQ(f.config_path, "p.json");
  EXPECT_EQ(f.suite, "engine");
  EXPECT_EQ(f.meters, "wall,callgrind");
  EXPECT_EQ(f.events, "cycles,instructions");
  EXPECT_EQ(f.filter, "BM_sum");
  ASSERT_TRUE(f.min_time);
  EXPECT_DOUBLE_EQ(*f.min_time, 0.5);
  ASSERT_TRUE(f.callgrind_iterations);
  EXPECT_EQ(*f.callgrind_iterations, 3);
  ASSERT_TRUE(f.pin);
  EXPECT_EQ(*f.pin, 2);
  EXPECT_EQ(f.timeout, "90s");
  EXPECT_EQ(f.profile_source, "callgrind");
  EXPECT_TRUE(f.quiet);
}

TEST(CommonFlagsCli, AbsentFlagsKeepTheDefaults) {
  CommonFlags f = parsed({});
  EXPECT_EQ(f.config_path, "");
  EXPECT_EQ(f.suite, "");
  EXPECT_EQ(f.meters, "");
  EXPECT_EQ(f.events, "");
  EXPECT_EQ(f.filter, "");
  EXPECT_FALSE(f.min_time);
  EXPECT_FALSE(f.callgrind_iterations);
  EXPECT_FALSE(f.pin);
  EXPECT_EQ(f.timeout, "10m");
  EXPECT_EQ(f.profile_source, "cpu-clock");
  EXPECT_FALSE(f.quiet);
}

TEST(CommonFlagsCli, TheTimeoutTakesADurationOrSeconds) {
  EXPECT_EQ(parsed({"--timeout", "1h30m"}).timeout, "1h30m");
  EXPECT_EQ(parsed({"--timeout", "0.5"}).timeout, "0.5");  // perfci run's seconds
  EXPECT_EQ(parsed({"--timeout", "600"}).timeout, "600");
  EXPECT_EQ(parsed({"--timeout=3s"}).timeout, "3s");
}

TEST(CommonFlagsCli, InvalidValuesAreRefused) {
  for (const Strings& args : std::vector<Strings>{{"--min-time", "0"},
                                                  {"--min-time", "-1"},
                                                  {"--min-time", "soon"},
                                                  {"--callgrind-iterations", "0"},
                                                  {"--callgrind-iterations", "1000001"},
                                                  {"--pin", "-1"},
                                                  {"--pin", "first"},
                                                  {"--timeout", "soon"},
                                                  {"--timeout", "0"},
                                                  {"--timeout", "-5"},
                                                  {"--timeout", "10x"},
                                                  {"--profile-source", "perf"},
                                                  {"--meter"},
                                                  {"--no-such-flag"}})
    EXPECT_NE(refusal(args), "") << args[0] << (args.size() > 1 ? " " + args[1] : "");
}

TEST(CommonFlagsCli, ATimeoutRefusalSaysWhy) {
  EXPECT_NE(refusal({"--timeout", "soon"}).find("'soon' is not a duration"), std::string::npos)
      << refusal({"--timeout", "soon"});
}

TEST(CommonFlagsCli, EachCommandGetsItsSet) {
  auto names = [](CommonFlagSet which) {
    CommonFlags f;
    CLI::App app;
    add_common_flags(&app, f, which);
    return option_names(app);
  };
  EXPECT_EQ(names(kRunFlags),
            (Strings{"--config", "--suite", "--meter", "--events", "--filter", "--min-time",
                     "--callgrind-iterations", "--callgrind-mode", "--cache-sim", "--pin",
                     "--timeout", "--profile-source", "--quiet", "--history", "--no-history"}));
  EXPECT_EQ(names(kAbFlags),
            (Strings{"--config", "--suite", "--meter", "--filter", "--min-time",
                     "--callgrind-iterations", "--callgrind-mode", "--cache-sim", "--pin",
                     "--timeout", "--profile-source", "--quiet", "--history", "--no-history"}));
  EXPECT_EQ(names(kSuiteRunFlags),
            (Strings{"--config", "--suite", "--meter", "--timeout", "--quiet"}));
  EXPECT_EQ(names(kEnvFlags), (Strings{"--config", "--suite", "--events"}));
  // What a command does not take is an unknown option there.
  EXPECT_NE(refusal({"--filter", "x"}, kSuiteRunFlags), "");
  EXPECT_NE(refusal({"--events", "cycles"}, kAbFlags), "");
  EXPECT_EQ(refusal({"--meter", "wall", "--quiet"}, kSuiteRunFlags), "");
  EXPECT_NE(refusal({"--history", "h.db"}, kSuiteRunFlags), "");
  // --history and --no-history contradict each other.
  EXPECT_NE(refusal({"--history", "h.db", "--no-history"}), "");
  EXPECT_EQ(parsed({"--history", "h.db"}).history, "h.db");
  EXPECT_TRUE(parsed({"--no-history"}).no_history);
}

TEST(CommonFlagsCli, OneHelpTextPerFlag) {
  CommonFlags all_flags, suite_flags;
  CLI::App all, suite;
  add_common_flags(&all, all_flags, kRunFlags);
  add_common_flags(&suite, suite_flags, kSuiteRunFlags);
  for (const std::string& name : option_names(suite)) {
    SCOPED_TRACE(name);
    EXPECT_EQ(suite.get_option(name)->get_description(), all.get_option(name)->get_description());
    EXPECT_FALSE(all.get_option(name)->get_description().empty());
  }
}

TEST(CommonFlagsCli, HelpShowsTheCommandsDefaults) {
  CommonFlags f;
  f.profile_source = "callgrind";
  CLI::App app;
  add_common_flags(&app, f, kRunFlags);
  EXPECT_EQ(app.get_option("--profile-source")->get_default_str(), "callgrind");
  EXPECT_EQ(app.get_option("--timeout")->get_default_str(), "10m");
}

TEST(TargetOptionsCli, BuildDirAndBinaryExcludeEachOther) {
  TargetOptions t;
  CommonFlags f;
  CLI::App app;
  add_common_flags(&app, f, kEnvFlags);
  t.add_to(&app);
  EXPECT_THROW(parse(app, {"--build-dir", "b", "--binary", "x"}), CLI::ParseError);
  TargetOptions t2;
  CLI::App app2;
  t2.add_to(&app2);
  parse(app2, {"--build-dir", "build/x"});
  EXPECT_EQ(t2.build_dir, "build/x");
  EXPECT_EQ(t2.binary, "");
}

// --- a suite and the flags as MeasureOptions ------------------------------

TEST(MeasureOptionsFromFlags, NoSuiteNoFlags) {
  MeasureOptions m = measure_options(nullptr, CommonFlags{}, MeasureDefaults{});
  EXPECT_EQ(m.meters, Strings{"wall"});
  EXPECT_EQ(m.events, Strings{});
  EXPECT_EQ(m.filter, ".*");
  EXPECT_EQ(m.callgrind_filter, ".*");
  EXPECT_FALSE(m.min_time);
  EXPECT_EQ(m.callgrind_iterations, 10);
  EXPECT_EQ(m.conditions.args, Strings{});
  EXPECT_FALSE(m.conditions.pin_cpu);
  EXPECT_EQ(m.conditions.timeout, std::chrono::milliseconds(600000));
  EXPECT_EQ(m.profile_source, "cpu-clock");
  EXPECT_FALSE(m.progress);
  EXPECT_TRUE(m.names.empty());
}

TEST(MeasureOptionsFromFlags, TheSuitesValuesWithoutFlags) {
  const SuiteConfig s = sample_suite();
  MeasureOptions m =
      measure_options(&s, CommonFlags{}, {{"callgrind", "wall"}, {"instructions", "cycles"}});
  EXPECT_EQ(m.meters, (Strings{"callgrind", "wall"}));
  EXPECT_EQ(m.events, (Strings{"instructions", "cycles"}));
  EXPECT_EQ(m.filter, "engine/.*");
  EXPECT_EQ(m.callgrind_filter, "engine/point_lookup");
  ASSERT_TRUE(m.min_time);
  EXPECT_DOUBLE_EQ(*m.min_time, 0.25);
  EXPECT_EQ(m.callgrind_iterations, 3);
  EXPECT_EQ(m.conditions.args, Strings{"--scale=0.1"});
}

TEST(MeasureOptionsFromFlags, EveryFlagOverridesTheSuite) {
  const SuiteConfig s = sample_suite();
  CommonFlags f;
  f.meters = "counters,wall,counters";
  f.events = "task-clock,page-faults";
  f.filter = "engine/insert";
  f.min_time = 0.75;
  f.callgrind_iterations = 7;
  f.pin = 3;
  f.timeout = "1h30m";
  f.profile_source = "callgrind";
  MeasureOptions m = measure_options(&s, f, {{"callgrind"}, {"instructions"}});
  EXPECT_EQ(m.meters, (Strings{"counters", "wall"}));  // once each
  EXPECT_EQ(m.events, (Strings{"task-clock", "page-faults"}));
  EXPECT_EQ(m.filter, "engine/insert");
  EXPECT_EQ(m.callgrind_filter, "engine/insert");  // --filter narrows callgrind too
  ASSERT_TRUE(m.min_time);
  EXPECT_DOUBLE_EQ(*m.min_time, 0.75);
  EXPECT_EQ(m.callgrind_iterations, 7);
  ASSERT_TRUE(m.conditions.pin_cpu);
  EXPECT_EQ(*m.conditions.pin_cpu, 3);
  EXPECT_EQ(m.conditions.timeout, std::chrono::milliseconds(5400000));
  EXPECT_EQ(m.profile_source, "callgrind");
  EXPECT_EQ(m.conditions.args, Strings{"--scale=0.1"});  // no flag: always the suite's
}

TEST(MeasureOptionsFromFlags, AFractionalTimeoutIsSeconds) {
  CommonFlags f;
  f.timeout = "0.5";
  EXPECT_EQ(measure_options(nullptr, f, {}).conditions.timeout, std::chrono::milliseconds(500));
  f.timeout = "600";
  EXPECT_EQ(measure_options(nullptr, f, {}).conditions.timeout, std::chrono::milliseconds(600000));
}

TEST(MeasureOptionsFromFlags, InvalidValuesNameTheFlag) {
  auto error = [](const std::function<void(CommonFlags&)>& change) {
    CommonFlags f;
    change(f);
    const MeasureDefaults defaults;
    return error_of([&f, &defaults] { measure_options(nullptr, f, defaults); });
  };
  EXPECT_EQ(error([](CommonFlags& f) { f.meters = "wall,speed"; }),
            "unknown meter 'speed' (known: wall, counters, callgrind, profile)");
  EXPECT_EQ(error([](CommonFlags& f) { f.meters = ","; }),
            "no meter given (known: wall, counters, callgrind, profile)");
  EXPECT_EQ(error([](CommonFlags& f) { f.min_time = 0; }),
            "--min-time: 0 is not a positive number of seconds");
  EXPECT_EQ(error([](CommonFlags& f) { f.min_time = -2.5; }),
            "--min-time: -2.5 is not a positive number of seconds");
  EXPECT_EQ(error([](CommonFlags& f) { f.callgrind_iterations = 0; }),
            "--callgrind-iterations: 0 is not in 1..1000000");
  EXPECT_EQ(error([](CommonFlags& f) { f.pin = -1; }), "--pin: -1 is not a CPU number");
  EXPECT_EQ(error([](CommonFlags& f) { f.profile_source = "perf"; }),
            "--profile-source: 'perf' is neither cpu-clock nor callgrind");
  EXPECT_EQ(error([](CommonFlags& f) { f.timeout = "soon"; }),
            "--timeout: 'soon' is not a duration (examples: 90s, 10m, 1h30m)");
  EXPECT_EQ(error([](CommonFlags& f) { f.timeout = "0m"; }),
            "--timeout: '0m' must be longer than zero");
  EXPECT_EQ(error([](CommonFlags& f) { f.timeout = "0.0001"; }),
            "--timeout: '0.0001' must be at least a millisecond");
}

TEST(MeasureOptionsFromFlags, DefaultsFromTheConfig) {
  MeasureDefaults none = measure_defaults(std::nullopt);
  EXPECT_EQ(none.meters, Strings{"wall"});
  EXPECT_EQ(none.events, default_events());
  MeasureDefaults d = measure_defaults(parse_config(kTwoSuites, "perfci.json"));
  EXPECT_EQ(d.meters, (Strings{"callgrind", "wall"}));
  EXPECT_EQ(d.events, (Strings{"instructions", "cycles"}));
}

// --- the config, the suite, the binary ------------------------------------

TEST(PickSuite, ByNameOrTheOnlyOne) {
  const std::optional<Config> config = parse_config(kTwoSuites, "perfci.json");
  CommonFlags f;
  f.suite = "storage";
  const SuiteConfig* s = pick_suite(f, config);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->name, "storage");
  EXPECT_EQ(s->filter, "BM_io");
  f.suite = "";
  EXPECT_NE(error_of([&] { pick_suite(f, config); }), "");  // two: --suite is needed
  f.suite = "nope";
  EXPECT_NE(error_of([&] { pick_suite(f, config); }), "");
  EXPECT_EQ(pick_suite(CommonFlags{}, std::nullopt), nullptr);
  f.suite = "engine";
  EXPECT_EQ(error_of([&] { pick_suite(f, std::nullopt); }),
            "--suite needs a perfci.json (none given, none in this folder)");
}

TEST(LoadOptionalConfig, ReadsTheGivenFile) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("perfci_app_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / "perfci.json";
  std::ofstream(path) << kTwoSuites;
  CommonFlags f;
  f.config_path = path.string();
  std::optional<Config> c = load_optional_config(f);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->suites.size(), 2u);
  EXPECT_EQ(c->build.preset, "bench");
  f.config_path = (dir / "missing.json").string();
  EXPECT_THROW(load_optional_config(f), Error);
  std::filesystem::remove_all(dir);
}

TEST(ResolveBinary, BinaryOrTheSuitesInTheBuildFolder) {
  const std::optional<Config> config = parse_config(kTwoSuites, "perfci.json");
  CommonFlags f;
  f.suite = "storage";
  TargetOptions t;
  EXPECT_EQ(t.resolve_binary(f, config), "build/bench/storage/bench/storage_bench");
  t.build_dir = "out";
  EXPECT_EQ(t.resolve_binary(f, config), "out/storage/bench/storage_bench");
  t.binary = "/bin/bench";
  EXPECT_EQ(t.resolve_binary(f, config), "/bin/bench");
  EXPECT_EQ(t.resolve_binary(CommonFlags{}, std::nullopt), "/bin/bench");  // no config needed
}

TEST(ResolveBinary, NothingToMeasureIsAnError) {
  EXPECT_EQ(error_of([] { TargetOptions{}.resolve_binary(CommonFlags{}, std::nullopt); }),
            "nothing to measure: give --binary, or a perfci.json with a suite and --build-dir");
}

// --- the settings a report records ----------------------------------------

Strings keys(const nlohmann::json& j) {
  Strings out;
  for (auto it = j.begin(); it != j.end(); ++it) out.push_back(it.key());
  return out;
}

TEST(SettingsJson, TheKeysAndValues) {
  MeasureOptions m;
  m.meters = {"wall", "callgrind"};
  m.events = {"cycles"};
  m.filter = "engine/.*";
  m.callgrind_filter = "engine/insert";
  m.callgrind_iterations = 3;
  m.conditions.args = {"--scale=0.1"};
  m.conditions.timeout = std::chrono::minutes(10);
  m.profile_source = "callgrind";
  nlohmann::json j = settings_json("check", "/p/perfci.json", "engine", m);
  EXPECT_EQ(keys(j), (Strings{"args", "callgrind_filter", "callgrind_iterations", "command",
                              "config", "events", "filter", "meters", "min_time_s", "pin_cpu",
                              "profile_source", "suite", "timeout_s"}));
  EXPECT_EQ(j["command"], "check");
  EXPECT_EQ(j["config"], "/p/perfci.json");
  EXPECT_EQ(j["suite"], "engine");
  EXPECT_EQ(j["meters"], (Strings{"wall", "callgrind"}));
  EXPECT_EQ(j["events"], Strings{});  // no counters meter: no events
  EXPECT_EQ(j["filter"], "engine/.*");
  EXPECT_EQ(j["callgrind_filter"], "engine/insert");
  EXPECT_EQ(j["callgrind_iterations"], 3);
  EXPECT_TRUE(j["min_time_s"].is_null());
  EXPECT_EQ(j["args"], Strings{"--scale=0.1"});
  EXPECT_TRUE(j["pin_cpu"].is_null());
  EXPECT_TRUE(j["timeout_s"].is_number_integer());
  EXPECT_EQ(j["timeout_s"], 600);
  EXPECT_EQ(j["profile_source"], "callgrind");
}

TEST(SettingsJson, OptionalValuesWhenGiven) {
  MeasureOptions m;
  m.meters = {"counters"};
  m.events = {"cycles", "instructions"};
  m.min_time = 0.5;
  m.conditions.pin_cpu = 2;
  m.conditions.timeout = std::chrono::milliseconds(1500);
  nlohmann::json j = settings_json("run", "", "", m);
  EXPECT_EQ(j["events"], (Strings{"cycles", "instructions"}));
  EXPECT_EQ(j["min_time_s"], 0.5);
  EXPECT_EQ(j["pin_cpu"], 2);
  EXPECT_DOUBLE_EQ(j["timeout_s"].get<double>(), 1.5);
  EXPECT_EQ(j["config"], "");
  EXPECT_EQ(j["suite"], "");
}

TEST(SettingsJson, FromTheFlagsEndToEnd) {
  const SuiteConfig s = sample_suite();
  CommonFlags f = parsed({"--meter", "counters", "--events", "cycles", "--pin", "1", "--timeout",
                          "90s", "--filter", "engine/scan"});
  nlohmann::json j = settings_json("run", "perfci.json", s.name, measure_options(&s, f, {}));
  EXPECT_EQ(j["meters"], Strings{"counters"});
  EXPECT_EQ(j["events"], Strings{"cycles"});
  EXPECT_EQ(j["pin_cpu"], 1);
  EXPECT_EQ(j["timeout_s"], 90);
  EXPECT_EQ(j["filter"], "engine/scan");
  EXPECT_EQ(j["callgrind_filter"], "engine/scan");
  EXPECT_EQ(j["min_time_s"], 0.25);
  EXPECT_EQ(j["callgrind_iterations"], 3);
}

// --- durations ------------------------------------------------------------

TEST(ParseDuration, TheShapes) {
  using std::chrono::seconds;
  EXPECT_EQ(parse_duration("90s", "--budget"), seconds(90));
  EXPECT_EQ(parse_duration("10m", "--budget"), seconds(600));
  EXPECT_EQ(parse_duration("1h", "--budget"), seconds(3600));
  EXPECT_EQ(parse_duration("1h30m", "--budget"), seconds(5400));
  EXPECT_EQ(parse_duration("2m5s", "--budget"), seconds(125));
  EXPECT_EQ(parse_duration("1h0m1s", "--budget"), seconds(3601));
  EXPECT_EQ(parse_duration("45", "--budget"), seconds(45));
}

// One syntax for every duration flag (issue 17): --budget takes what
// --timeout takes, a fractional number of seconds included.
TEST(ParseDuration, TheSameSyntaxAsTheTimeout) {
  using std::chrono::milliseconds;
  using std::chrono::seconds;
  EXPECT_EQ(parse_duration("90.5", "--budget"), seconds(90));
  EXPECT_EQ(parse_duration("1.5s", "--budget"), seconds(1));
  EXPECT_EQ(parse_duration("2.5e1", "--budget"), seconds(25));
  EXPECT_EQ(parse_duration_ms("1m0.25s", "--timeout"), milliseconds(60250));
  EXPECT_EQ(parse_duration_ms("1h30m", "--min-time"), milliseconds(5400000));
  EXPECT_EQ(error_of([] { parse_duration("0.5", "--budget"); }),
            "--budget: '0.5' must be at least a second");
  EXPECT_EQ(error_of([] { parse_duration_ms("0.0001", "--timeout"); }),
            "--timeout: '0.0001' must be at least a millisecond");
}

TEST(CommonFlagsCli, TheMinTimeTakesTheDurationSyntax) {
  EXPECT_DOUBLE_EQ(*parsed({"--min-time", "2s"}).min_time, 2.0);
  EXPECT_DOUBLE_EQ(*parsed({"--min-time", "0.25"}).min_time, 0.25);
  EXPECT_DOUBLE_EQ(*parsed({"--min-time", "1m"}).min_time, 60.0);
}

TEST(ParseDuration, RefusalsNameTheFlagAndTheText) {
  auto error = [](const std::string& text) {
    return error_of([&] { parse_duration(text, "--budget"); });
  };
  EXPECT_EQ(error("soon"), "--budget: 'soon' is not a duration (examples: 90s, 10m, 1h30m)");
  EXPECT_EQ(error(""), "--budget: '' is not a duration (examples: 90s, 10m, 1h30m)");
  EXPECT_EQ(error("1.5m"), "--budget: '1.5m' is not a duration (examples: 90s, 10m, 1h30m)");
  EXPECT_EQ(error("-5s"), "--budget: '-5s' is not a duration (examples: 90s, 10m, 1h30m)");
  EXPECT_EQ(error("30m1h"), "--budget: '30m1h' is not a duration (examples: 90s, 10m, 1h30m)");
  EXPECT_EQ(error("0"), "--budget: '0' must be longer than zero");
  EXPECT_EQ(error("0h0m"), "--budget: '0h0m' must be longer than zero");
  EXPECT_EQ(error("99999999999999999999s"), "--budget: '99999999999999999999s' is out of range");
}

TEST(ParseTimeout, DurationsAndSeconds) {
  using std::chrono::milliseconds;
  EXPECT_EQ(parse_timeout("10m"), milliseconds(600000));
  EXPECT_EQ(parse_timeout("3s"), milliseconds(3000));
  EXPECT_EQ(parse_timeout("600"), milliseconds(600000));
  EXPECT_EQ(parse_timeout("0.5"), milliseconds(500));
  EXPECT_EQ(parse_timeout(".25"), milliseconds(250));
  EXPECT_EQ(parse_timeout("2.5e1"), milliseconds(25000));
  EXPECT_THROW(parse_timeout("0"), Error);
  EXPECT_THROW(parse_timeout("0.0"), Error);
  EXPECT_THROW(parse_timeout("abc"), Error);
  EXPECT_THROW(parse_timeout("-1"), Error);
  EXPECT_EQ(error_of([] { parse_timeout("1e999"); }), "--timeout: '1e999' is out of range");
}

TEST(ShowProgress, NeverWhenQuiet) { EXPECT_FALSE(show_progress(true)); }

// A CI log (stderr not a terminal) gets progress too (issue 17), whatever
// stderr is here.
TEST(ShowProgress, AlwaysUnlessQuiet) { EXPECT_TRUE(show_progress(false)); }

TEST(ShowProgress, OffATerminalRoutineLinesComeAtMostEveryTenSeconds) {
  using std::chrono::seconds;
  const auto t0 = std::chrono::steady_clock::time_point{} + std::chrono::hours(1);
  std::optional<std::chrono::steady_clock::time_point> last;
  EXPECT_TRUE(progress_line_due("pair 1/10: 2 benchmark(s), 0s elapsed", t0, last));
  EXPECT_FALSE(progress_line_due("pair 1/10 A: wall: 2 benchmarks", t0 + seconds(1), last));
  EXPECT_FALSE(progress_line_due("pair 2/10: 2 benchmark(s), 3s elapsed", t0 + seconds(9), last));
  EXPECT_TRUE(progress_line_due("pair 3/10: 2 benchmark(s), 10s elapsed", t0 + seconds(10), last));
  EXPECT_FALSE(progress_line_due("callgrind 2/5 engine/scan", t0 + seconds(11), last));
  // What is not a trial's routine always shows.
  EXPECT_TRUE(progress_line_due("note: BM_x exists only in A; skipped", t0 + seconds(12), last));
  EXPECT_TRUE(progress_line_due("building main (0123456789ab) in /b", t0 + seconds(12), last));
  EXPECT_TRUE(
      progress_line_due("interrupted by SIGINT after 2 of 10 pairs", t0 + seconds(13), last));
}

}  // namespace
}  // namespace perfci::app
