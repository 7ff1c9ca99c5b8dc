#include "perfci/app/common_flags.h"

#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <regex>
#include <stdexcept>

#include "perfci/util/error.h"
#include "perfci/util/strings.h"

namespace perfci::app {

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
                    "--benchmark_min_time in seconds (default: the suite's)")
        ->check(CLI::PositiveNumber);
  if (which & kCallgrindIterationsFlag)
    cmd->add_option("--callgrind-iterations", f.callgrind_iterations,
                    "Iterations per benchmark under callgrind (default: the suite's)")
        ->check(CLI::Range(1, 1000000));
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

std::chrono::seconds parse_duration(const std::string& text, const std::string& what) {
  static const std::regex shape(R"(^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s?)?$)");
  std::smatch m;
  if (text.empty() || !std::regex_match(text, m, shape))
    throw Error(what + ": '" + text + "' is not a duration (examples: 90s, 10m, 1h30m)");
  long long s = 0;
  try {
    if (m[1].matched) s += std::stoll(m[1]) * 3600;
    if (m[2].matched) s += std::stoll(m[2]) * 60;
    if (m[3].matched) s += std::stoll(m[3]);
  } catch (const std::out_of_range&) {
    throw Error(what + ": '" + text + "' is out of range");
  }
  if (s <= 0) throw Error(what + ": '" + text + "' must be longer than zero");
  return std::chrono::seconds(s);
}

std::chrono::milliseconds parse_timeout(const std::string& text) {
  // A plain number of seconds, as `perfci run --timeout 0.5` always took.
  static const std::regex number(R"(^(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$)");
  if (std::regex_match(text, number) && !std::regex_match(text, std::regex(R"(^\d+$)"))) {
    double s = 0;
    try {
      s = std::stod(text);
    } catch (const std::out_of_range&) {
      throw Error("--timeout: '" + text + "' is out of range");
    }
    const auto ms = static_cast<long long>(s * 1000);
    if (!std::isfinite(s) || ms <= 0)
      throw Error("--timeout: '" + text + "' must be at least a millisecond");
    return std::chrono::milliseconds(ms);
  }
  return parse_duration(text, "--timeout");
}

bool show_progress(bool quiet) { return !quiet && ::isatty(2); }

std::function<void(const std::string&)> progress_printer(const std::string& command) {
  return [command](const std::string& s) { fmt::print(stderr, "perfci {}: {}\n", command, s); };
}

std::optional<Config> load_optional_config(const CommonFlags& f) {
  if (!f.config_path.empty()) return load_config(f.config_path);
  if (std::filesystem::exists("perfci.json")) return load_config("perfci.json");
  return std::nullopt;
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
