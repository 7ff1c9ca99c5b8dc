// The flags every measuring command (run, ab, aa, compare, check, baseline
// update; env for the config and the events) shares, registered on CLI11 by
// one function so that each is spelled and explained the same way
// everywhere; the one translation of a suite and those flags into
// MeasureOptions; and the one writer of the "settings" object a report
// records.
#pragma once

#include <CLI/CLI.hpp>
#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "perfci/config/config.h"
#include "perfci/meters/measure.h"

namespace perfci::app {

struct CommonFlags {
  std::string config_path;  // --config; empty: ./perfci.json (when it exists)
  std::string suite;        // --suite; empty: the only one
  std::string meters;       // --meter, a comma list; empty: the command's default
  std::string events;       // --events, a comma list; empty: perfci.json's, else the defaults
  std::string filter;       // --filter; empty: the suite's, else all
  std::optional<double> min_time;            // --min-time; else the suite's
  std::optional<int> callgrind_iterations;   // --callgrind-iterations; else the suite's
  std::string callgrind_mode;                // --callgrind-mode; empty: the suite's (auto)
  bool cache_sim = false;                    // --cache-sim; else the suite's
  std::optional<int> pin;                    // --pin
  std::string timeout = "10m";               // --timeout, per benchmark process
  std::string profile_source = "cpu-clock";  // --profile-source (an A/B: callgrind)
  bool quiet = false;                        // --quiet
  std::string history;      // --history: the results database; empty: perfci.json's
  bool no_history = false;  // --no-history: record nothing, whatever perfci.json says
};

// Which of the common flags a command takes.
enum CommonFlag : unsigned {
  kConfigFlag = 1U << 0,
  kSuiteFlag = 1U << 1,
  kMeterFlag = 1U << 2,
  kEventsFlag = 1U << 3,
  kFilterFlag = 1U << 4,
  kMinTimeFlag = 1U << 5,
  kCallgrindIterationsFlag = 1U << 6,
  kPinFlag = 1U << 7,
  kTimeoutFlag = 1U << 8,
  kProfileSourceFlag = 1U << 9,
  kQuietFlag = 1U << 10,
  kHistoryFlag = 1U << 11,  // --history PATH and --no-history
};
using CommonFlagSet = unsigned;

// perfci run: all of them.
inline constexpr CommonFlagSet kRunFlags = kConfigFlag | kSuiteFlag | kMeterFlag | kEventsFlag |
                                           kFilterFlag | kMinTimeFlag | kCallgrindIterationsFlag |
                                           kPinFlag | kTimeoutFlag | kProfileSourceFlag |
                                           kQuietFlag | kHistoryFlag;
// ab, aa, compare: the events are perfci.json's.
inline constexpr CommonFlagSet kAbFlags = kRunFlags & ~kEventsFlag;
// check, baseline update: what changes the numbers is the suite's, so that
// they stay comparable with the baseline. (check adds kHistoryFlag; a
// baseline update is no run of the history.)
inline constexpr CommonFlagSet kSuiteRunFlags =
    kConfigFlag | kSuiteFlag | kMeterFlag | kTimeoutFlag | kQuietFlag;
// env: which config, and which events to probe.
inline constexpr CommonFlagSet kEnvFlags = kConfigFlag | kSuiteFlag | kEventsFlag;

// Registers the flags of `which` on cmd, bound to `flags` (whose current
// values are the defaults --help shows).
void add_common_flags(CLI::App* cmd, CommonFlags& flags, CommonFlagSet which);

// What the options fall back to when a flag is not given.
struct MeasureDefaults {
  std::vector<std::string> meters{"wall"};
  std::vector<std::string> events;
};
// perfci.json's meters and events, else wall and default_events().
MeasureDefaults measure_defaults(const std::optional<Config>& config);

// The suite (nullptr: none, run everything with MeasureOptions' defaults)
// with every given flag overriding it. No progress callback. Throws
// perfci::Error naming the flag for a value that cannot be used.
MeasureOptions measure_options(const SuiteConfig* suite, const CommonFlags& flags,
                               const MeasureDefaults& defaults);

// The "settings" object of a report: how it was measured, so that its
// numbers can be reproduced. Keys: command, config, suite, meters, events
// (only with the counters meter), filter, callgrind_filter,
// callgrind_iterations, min_time_s, args, pin_cpu, timeout_s,
// profile_source. Commands add their own (an A/B its plan, check its build).
nlohmann::json settings_json(const std::string& command, const std::string& config_path,
                             const std::string& suite, const MeasureOptions& m);

// The one duration syntax of every flag (--timeout, --budget, --min-time):
// "10m", "90s", "1h", "1h30m", "2m5s", "1.5s", or a plain (possibly
// fractional) number of seconds: "45", "0.5". Throws perfci::Error
// "<what>: '<text>' ...".
std::chrono::milliseconds parse_duration_ms(const std::string& text, const std::string& what);

// parse_duration_ms in whole seconds (rounded down), at least one.
std::chrono::seconds parse_duration(const std::string& text, const std::string& what);

// --timeout: parse_duration_ms. Throws perfci::Error.
std::chrono::milliseconds parse_timeout(const std::string& text);

// Progress lines on stderr: always but with --quiet (a CI log needs them
// as much as a terminal; progress_printer keeps them few off a terminal).
bool show_progress(bool quiet);

// Prints "perfci <command>: <line>" on stderr, one plain line each (never a
// carriage return). To a terminal every line; otherwise (a CI log) the
// routine lines of trials and meters ("pair 3/10 ...", "callgrind 2/5 ...")
// at most one per 10 s, and every other line (a build step, a note, the
// interruption): a log shows that perfci is alive without a line per trial.
std::function<void(const std::string&)> progress_printer(const std::string& command);

// The filter progress_printer uses off a terminal, with its clock given:
// true when `line`, arriving at `now`, is printed; `last` is when the last
// printed one was (updated).
bool progress_line_due(const std::string& line, std::chrono::steady_clock::time_point now,
                       std::optional<std::chrono::steady_clock::time_point>& last);

// The loaded --config, or ./perfci.json when it exists, else nullopt.
// Throws perfci::Error for a bad file, its "metrics" thresholds included.
std::optional<Config> load_optional_config(const CommonFlags& flags);

// --suite of the config, or its only one; nullptr without a config (then
// --suite is an error).
const SuiteConfig* pick_suite(const CommonFlags& flags, const std::optional<Config>& config);

}  // namespace perfci::app
