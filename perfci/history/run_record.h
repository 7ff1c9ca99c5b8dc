// What the results database keeps of one run: the commit(s) it measured,
// where and with what, each benchmark metric's median with its interval, the
// contracts' outcomes and the run's verdicts. Built from a report
// (check, ab, aa, compare, bisect: perfci.report/1) or a results file
// (run: perfci.results/1), live or from a saved file (`history import`).
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "perfci/model/report.h"
#include "perfci/model/results.h"

namespace perfci::history {

// One benchmark metric of one side, at one commit.
struct Point {
  std::string benchmark;
  std::string kind;    // wall, counters, callgrind
  std::string metric;  // real_time_ns, cpu_time_ns, an event name, ir
  std::string unit;    // metric_unit(kind, metric)
  double median = 0;
  // A distribution-free interval of the median (stats::median_interval);
  // none for a deterministic metric or fewer samples than it needs.
  std::optional<double> lo;
  std::optional<double> hi;
  int n = 0;  // samples behind the median
  bool deterministic = false;
};

// One side of a run: what was measured at one commit.
struct SideRecord {
  std::string label;     // "A", "B"; "" for a run (one side)
  std::string revision;  // as the user named it
  std::string commit;    // full hash; empty when unknown (binaries given)
  std::string parent;    // its first parent; empty for a root or when unknown
  bool dirty = false;    // uncommitted changes were measured
  std::string profile;   // the profile id (baseline/profile.h); "" when unknown
  std::vector<Point> points;
};

// A verdict of the run on one benchmark metric (A against B).
struct ComparisonRecord {
  std::string benchmark, kind, metric;
  double estimate = 1;  // B / A
  std::optional<double> lo, hi, q;
  std::string decision;  // regressed, improved, unchanged, noisy
  std::string outcome;   // what counted: the decision, information or accepted
  std::string gate;      // gated, information, accepted, all
};

struct ContractRecord {
  std::string side;  // "A", "B", ""
  std::string name;
  std::string status;  // ok, broken, error, absent
  std::string message;
};

struct RunRecord {
  // Identity for idempotent imports: the same report gives the same key.
  // Live runs use the report's own key too, so importing a report written
  // by a recorded run stores nothing twice.
  std::string key;
  std::string command;  // check, compare, ab, aa, run, bisect
  std::string created;  // UTC, ISO 8601
  std::string branch;   // "" when detached or unknown
  std::string tool_version;
  std::string hostname;
  std::string cpu_model;
  nlohmann::json machine = nlohmann::json::object();  // perfci env --json
  std::string suite;
  std::string outcome;  // check: pass / fail / error / not gated; else the verdict
  std::string source;   // the report file it came from; "" when live
  std::vector<SideRecord> sides;
  std::vector<ComparisonRecord> comparisons;
  std::vector<ContractRecord> contracts;
};

// The record of a report. `command` is what wrote it (a report's `mode` says
// ab, aa or check; compare writes mode "ab"). Parents are filled by the
// caller (fill_parents), which knows the repository.
RunRecord record_from_report(const Report& report, const std::string& command);
// The record of `perfci run`'s results, measured at `commit` (may be empty).
RunRecord record_from_results(const RunResults& results, const std::string& commit, bool dirty,
                              const std::string& profile);
// Reads a saved report or results file, whichever its "schema" says, and
// returns its record with `source` and `key` set. Throws perfci::Error.
RunRecord record_from_file(const std::filesystem::path& file);

// Sets each side's first parent from the git repository at `repo`, where it
// knows the commit; leaves it empty otherwise.
void fill_parents(RunRecord& run, const std::filesystem::path& repo);

}  // namespace perfci::history
