// perfci.json, the project's perfci configuration. This loader validates the
// sections the meters need (build, suites, meters, events) and keeps the
// whole document in `raw`, from which other components (metrics thresholds,
// pairs, contracts, accepted regressions) read and validate their own
// sections. Errors name the file and the field: "perfci.json: suites[0].binary:
// expected a non-empty string".
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace perfci {

inline constexpr const char* kConfigSchema = "perfci.config/1";

struct BuildConfig {
  std::string preset = "release";
  std::vector<std::string> targets;
};

struct CallgrindSuiteConfig {
  // Each benchmark runs under callgrind this many times, one iteration each
  // (--benchmark_repetitions with a minimal min_time), so the count is
  // the same in every run whatever the timing under valgrind.
  int iterations = 10;
  // Regex (Google Benchmark syntax) of the benchmarks worth the slowdown.
  std::string filter = ".*";
  // auto, hook or process (perfci/meters/callgrind_meter.h): auto uses the
  // hook where the benchmark has it and the hook-free mode elsewhere.
  std::string mode = "auto";
  // Run the cache simulation too (CallgrindOptions::cache_sim).
  bool cache_sim = false;
};

struct SuiteConfig {
  std::string name;
  std::string binary;  // relative to the build folder
  std::string filter = ".*";
  std::optional<double> min_time;  // --benchmark_min_time, seconds
  // Arguments the binary gets before perfci's own in every run (e.g. a
  // "--scale=0.1" that shrinks the data for quick runs). They change what is
  // measured, so a baseline records them and `perfci check` insists on the same.
  std::vector<std::string> args;
  CallgrindSuiteConfig callgrind;
};

// perfci.json's "history": where the results database is and how change
// points are found in its series (issue 16).
struct ChangePointConfig {
  double alpha = 0.05;          // the significance level of a change point, in (0, 1)
  int permutations = 199;       // of the permutation test, 1..100000
  double min_magnitude = 0.01;  // the least relative step reported, >= 0
};

struct HistoryConfig {
  std::string database;  // as written: relative to perfci.json's folder, or absolute
  ChangePointConfig change_points;
};

struct Config {
  std::filesystem::path path;  // where it was loaded from; empty for defaults
  BuildConfig build;
  std::vector<SuiteConfig> suites;
  std::vector<std::string> meters{"wall"};
  std::vector<std::string> events;
  std::optional<HistoryConfig> history;  // none: nothing is recorded unless --history says where
  nlohmann::json raw = nlohmann::json::object();

  // Throws perfci::Error listing the suite names when there is none by this name.
  const SuiteConfig& suite(const std::string& name) const;
};

// history.database resolved against perfci.json's folder; empty without one.
std::filesystem::path history_database(const Config& config);

// The meters perfci knows, in the order results list them.
const std::vector<std::string>& known_meters();

// The events `perfci env` and the counters meter use when perfci.json names none:
// the hardware basics plus the software fallback group.
const std::vector<std::string>& default_events();

// Throws perfci::Error ("<origin>: <field>: <problem>").
Config parse_config(const std::string& text, const std::string& origin);
Config load_config(const std::filesystem::path& path);

// A relative threshold of perfci.json (metrics thresholds, check.metrics,
// check.oracle_gap): one syntax everywhere, a number in [0, 10) (0.03 is
// 3%). Throws perfci::Error "<field>: ..."; for a percentage string ("3%")
// the message names the number to write instead (0.03).
double threshold_from_json(const nlohmann::json& j, const std::string& field);

// Validates a comma-separated --meter value against known_meters().
std::vector<std::string> parse_meter_list(const std::string& list);

}  // namespace perfci
