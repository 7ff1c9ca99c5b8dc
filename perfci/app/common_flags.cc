#include "perfci/app/common_flags.h"

#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <regex>
#include <stdexcept>

#include "perfci/runner/metric_policy.h"
#include "perfci/util/error.h"
#include "perfci/util/strings.h"

namespace perfci::app {

namespace {

// A CLI11 transform: the duration syntax turned into the plain number of
// seconds the option holds, or CLI11's message naming the option.
CLI::Validator duration_in_seconds(const std::string& flag) {
  return CLI::Validator(
      [flag](std::string& text) -> std::string {
        try {
          const auto ms = parse_duration_ms(text, flag);
          text = fmt::format("{}", static_cast<double>(ms.count()) / 1000.0);
          return {};
        } catch (const std::exception& e) {
          const std::string why = e.what();
          const std::string own = flag + ": ";
          return why.rfind(own, 0) == 0 ? why.substr(own.size()) : why;
        }
      },
      "DURATION");
}

}  // namespace

void add_common_flags(CLI::App* cmd, CommonFlags& f, CommonFlagSet which) {
  if (which & kConfigFlag)
    cmd->add_option("--config", f.config_path, "perfci.json (default: ./perfci.json)");
  if (which & kSuiteFlag)
    cmd->add_option("--suite", f.suite, "Suite of perfci.json (default: the only one)");
  if (which & kMeterFlag)
    cmd->add_option("--meter", f.meters,
                    "Comma list of wall,counters,callgrind,profile (default: perfci.json's "
                    "meters; for check and baseline update its check.meters; else wall)");
  if (which & kEventsFlag)
    cmd->add_option("--events", f.events,
                    "Comma list of perf events for the counters meter (default: perfci.json's)");
  if (which & kFilterFlag)
    cmd->add_option("--filter", f.filter,
                    "Benchmark regex (Google Benchmark syntax; default: the suite's)");
  if (which & kMinTimeFlag)
    cmd->add_option("--min-time", f.min_time,
                    "--benchmark_min_time (0.5, 2s, 1m: the duration syntax of --timeout; "
                    "default: the suite's)")
        ->transform(duration_in_seconds("--min-time"))
        ->check(CLI::PositiveNumber);
  if (which & kCallgrindIterationsFlag)
    cmd->add_option("--callgrind-iterations", f.callgrind_iterations,
                    "Iterations per benchmark under callgrind (default: the suite's)")
        ->check(CLI::Range(1, 1000000));
  if (which & kCallgrindIterationsFlag)
    cmd->add_option("--callgrind-mode", f.callgrind_mode,
                    "What callgrind counts: hook (perfci::BenchHook's timed region), process "
                    "(hook-free: inside the function Google Benchmark runs, setup separated by a "
                    "two-point fit) or auto (hook where the benchmark has it; default: the "
                    "suite's, else auto)")
        ->check(CLI::IsMember({"auto", "hook", "process"}));
  if (which & kCallgrindIterationsFlag)
    cmd->add_flag("--cache-sim", f.cache_sim,
                  "Run callgrind's cache simulation too (a fixed geometry, about twice the "
                  "time): L1 and LL misses and estimated cycles per iteration, gated like Ir "
                  "(default: the suite's callgrind.cache_sim)");
  if (which & kPinFlag)
    cmd->add_option("--pin", f.pin, "Pin every benchmark process to this CPU")
        ->check(CLI::NonNegativeNumber);
  if (which & kTimeoutFlag) {
    CLI::Validator duration(
        [](std::string& text) -> std::string {
          try {
            parse_timeout(text);
            return {};
          } catch (const std::exception& e) {
            // CLI11 names the option itself.
            const std::string why = e.what();
            const std::string own = "--timeout: ";
            return why.rfind(own, 0) == 0 ? why.substr(own.size()) : why;
          }
        },
        "DURATION");
    cmd->add_option("--timeout", f.timeout,
                    "Kill a benchmark process after this long (90s, 10m, 1h30m; a plain number "
                    "is seconds)")
        ->check(duration)
        ->capture_default_str();
  }
  if (which & kProfileSourceFlag)
    cmd->add_option("--profile-source", f.profile_source,
                    "What the profile meter samples with: cpu-clock or callgrind")
        ->check(CLI::IsMember({"cpu-clock", "callgrind"}))
        ->capture_default_str();
  if (which & kQuietFlag)
    cmd->add_flag("--quiet", f.quiet, "No progress on stderr, no summary or Markdown on stdout");
  if (which & kHistoryFlag) {
    auto* db = cmd->add_option("--history", f.history,
                               "Record the run in this results database (SQLite; created when "
                               "missing; default: perfci.json's history.database, else none)");
    cmd->add_flag("--no-history", f.no_history,
                  "Record nothing, whatever perfci.json's history.database says")
        ->excludes(db);
  }
}

MeasureDefaults measure_defaults(const std::optional<Config>& config) {
  MeasureDefaults d;
  if (config) {
    d.meters = config->meters;
    d.events = config->events;
  } else {
    d.events = default_events();
  }
  return d;
}

MeasureOptions measure_options(const SuiteConfig* suite, const CommonFlags& f,
                               const MeasureDefaults& defaults) {
  MeasureOptions m;
  m.meters = !f.meters.empty() ? parse_meter_list(f.meters) : defaults.meters;
  m.events = !f.events.empty() ? split_list(f.events) : defaults.events;
  if (suite) {
    m.filter = suite->filter;
    m.min_time = suite->min_time;
    m.callgrind_iterations = suite->callgrind.iterations;
    m.callgrind_filter = suite->callgrind.filter;
    m.callgrind_mode = suite->callgrind.mode;
    m.callgrind_cache_sim = suite->callgrind.cache_sim;
    m.conditions.args = suite->args;
  }
  if (!f.filter.empty()) {
    m.filter = f.filter;
    m.callgrind_filter = f.filter;
  }
  if (f.min_time) {
    if (!(*f.min_time > 0) || !std::isfinite(*f.min_time))
      throw Error(fmt::format("--min-time: {} is not a positive number of seconds", *f.min_time));
    m.min_time = f.min_time;
  }
  if (f.callgrind_iterations) {
    if (*f.callgrind_iterations < 1 || *f.callgrind_iterations > 1000000)
      throw Error(
          fmt::format("--callgrind-iterations: {} is not in 1..1000000", *f.callgrind_iterations));
    m.callgrind_iterations = *f.callgrind_iterations;
  }
  if (!f.callgrind_mode.empty()) {
    if (f.callgrind_mode != "auto" && f.callgrind_mode != "hook" && f.callgrind_mode != "process")
      throw Error("--callgrind-mode: '" + f.callgrind_mode + "' is not auto, hook or process");
    m.callgrind_mode = f.callgrind_mode;
  }
  if (f.cache_sim) m.callgrind_cache_sim = true;
  if (f.profile_source != "cpu-clock" && f.profile_source != "callgrind")
    throw Error("--profile-source: '" + f.profile_source + "' is neither cpu-clock nor callgrind");
  m.profile_source = f.profile_source;
  if (f.pin && *f.pin < 0) throw Error(fmt::format("--pin: {} is not a CPU number", *f.pin));
  m.conditions.pin_cpu = f.pin;
  m.conditions.timeout = parse_timeout(f.timeout);
  return m;
}

nlohmann::json settings_json(const std::string& command, const std::string& config_path,
                             const std::string& suite, const MeasureOptions& m) {
  using nlohmann::json;
  const bool counters = std::find(m.meters.begin(), m.meters.end(), "counters") != m.meters.end();
  const auto timeout_ms = m.conditions.timeout.count();
  return {
      {"command", command},
      {"config", config_path},
      {"suite", suite},
      {"meters", m.meters},
      {"events", counters ? m.events : std::vector<std::string>{}},
      {"filter", m.filter},
      {"callgrind_filter", m.callgrind_filter},
      {"callgrind_iterations", m.callgrind_iterations},
      {"min_time_s", m.min_time ? json(*m.min_time) : json(nullptr)},
      {"args", m.conditions.args},
      {"pin_cpu", m.conditions.pin_cpu ? json(*m.conditions.pin_cpu) : json(nullptr)},
      {"timeout_s", timeout_ms % 1000 == 0 ? json(timeout_ms / 1000) : json(timeout_ms / 1000.0)},
      {"profile_source", m.profile_source}};
}

std::chrono::milliseconds parse_duration_ms(const std::string& text, const std::string& what) {
  static const std::regex number(R"(^(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$)");
  static const std::regex shape(R"(^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+(?:\.\d+)?)s)?$)");
  double s = 0;
  try {
    std::smatch m;
    if (std::regex_match(text, number)) {
      s = std::stod(text);
    } else if (!text.empty() && std::regex_match(text, m, shape)) {
      if (m[1].matched) s += static_cast<double>(std::stoll(m[1])) * 3600;
      if (m[2].matched) s += static_cast<double>(std::stoll(m[2])) * 60;
      if (m[3].matched) s += std::stod(m[3]);
    } else {
      throw Error(what + ": '" + text + "' is not a duration (examples: 90s, 10m, 1h30m)");
    }
  } catch (const std::out_of_range&) {
    throw Error(what + ": '" + text + "' is out of range");
  }
  if (!std::isfinite(s) || s > 1e12) throw Error(what + ": '" + text + "' is out of range");
  if (!(s > 0)) throw Error(what + ": '" + text + "' must be longer than zero");
  const auto ms = std::llround(s * 1000);
  if (ms <= 0) throw Error(what + ": '" + text + "' must be at least a millisecond");
  return std::chrono::milliseconds(ms);
}

std::chrono::seconds parse_duration(const std::string& text, const std::string& what) {
  auto ms = parse_duration_ms(text, what);
  if (ms < std::chrono::seconds(1))
    throw Error(what + ": '" + text + "' must be at least a second");
  return std::chrono::duration_cast<std::chrono::seconds>(ms);
}

std::chrono::milliseconds parse_timeout(const std::string& text) {
  return parse_duration_ms(text, "--timeout");
}

bool show_progress(bool quiet) { return !quiet; }

bool progress_line_due(const std::string& line, std::chrono::steady_clock::time_point now,
                       std::optional<std::chrono::steady_clock::time_point>& last) {
  // The lines of each trial and each benchmark of a meter (the A/B runner's
  // and measure_binary's); anything else (a build step, a note, the
  // interruption) is rare and always shown.
  static const std::regex routine(
      R"(^(warm-up \d|pair \d|confirmation pair \d|explaining [AB]: |[AB]: |wall(\+counters)?: |callgrind \d|profile \d))");
  const bool always = !last || !std::regex_search(line, routine);
  if (!always && now - *last < std::chrono::seconds(10)) return false;
  last = now;
  return true;
}

std::function<void(const std::string&)> progress_printer(const std::string& command) {
  if (::isatty(2))
    return [command](const std::string& s) { fmt::print(stderr, "perfci {}: {}\n", command, s); };
  auto last = std::make_shared<std::optional<std::chrono::steady_clock::time_point>>();
  return [command, last](const std::string& s) {
    if (progress_line_due(s, std::chrono::steady_clock::now(), *last))
      fmt::print(stderr, "perfci {}: {}\n", command, s);
  };
}

std::optional<Config> load_optional_config(const CommonFlags& f) {
  std::optional<Config> config;
  if (!f.config_path.empty())
    config = load_config(f.config_path);
  else if (std::filesystem::exists("perfci.json"))
    config = load_config("perfci.json");
  // The thresholds are read by ab and check; a command that does not use
  // them (run, env) refuses the same mistakes, so one file means one thing.
  if (config) MetricPolicies::from_config(config->raw, config->path.string());
  return config;
}

const SuiteConfig* pick_suite(const CommonFlags& f, const std::optional<Config>& config) {
  if (!config) {
    if (!f.suite.empty())
      throw Error("--suite needs a perfci.json (none given, none in this folder)");
    return nullptr;
  }
  return &config->suite(f.suite);
}

}  // namespace perfci::app
