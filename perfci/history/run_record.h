// What the results database keeps of one run: the commit(s) it measured,
// where and with what, each benchmark metric's median with its interval, the
// contracts' outcomes and the run's verdicts. Built from a report
// (check, ab, aa, compare, bisect: perfci.report/1) or a results file
// (run: perfci.results/1), live or from a saved file (`history import`).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "perfci/model/bisect_report.h"
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
// Which profile a side ran on is known for check (this run's profile and the
// baseline's). An A/B or A/A report does not record one (its machine facts
// do not make a profile id), so its sides have profile "": such points form
// series of their own, never mixed with those of a known profile.
struct SideRecord {
  // "A", "B"; "" for a run (one side); "R" in a check whose callgrind was
  // gated on an in-runner reference (issue 13): side A then holds the
  // stored baseline's other kinds, and R the reference's commit and counts.
  std::string label;
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
  // Identity for idempotent imports: the same report gives the same key
  // (content_key of its JSON). Live runs use the report's own key too, so
  // importing a report written by a recorded run stores nothing twice.
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

// "fnv1a64:<16 hex digits>": 64-bit FNV-1a of the document's compact dump
// (nlohmann::json::dump(): keys sorted, numbers in shortest round-trip form),
// so a report gives the same key live (its in-memory JSON) and when its
// saved file is read back. Stable across runs and builds, unlike std::hash;
// not a cryptographic hash: it tells honest copies apart, nothing more.
std::string content_key(const nlohmann::json& document);

// The record of a report. `command` is what wrote it (a report's `mode` says
// ab, aa or check; compare writes mode "ab"). Parents are filled by the
// caller (fill_parents), which knows the repository.
RunRecord record_from_report(const Report& report, const std::string& command);
// The record of `perfci run`'s results, measured at `commit` (may be empty):
// one side labelled "", one point per metric value (n = 1), created now.
RunRecord record_from_results(const RunResults& results, const std::string& commit, bool dirty,
                              const std::string& profile);
// The record of a bisect: one side per measured commit (its label the
// commit's position in the bisected history, "0" being GOOD), each with the
// one metric bisect measured; `profiles` maps a commit to its binary's
// profile id where the caller could read it.
RunRecord record_from_bisect(const BisectReport& report,
                             const std::map<std::string, std::string>& profiles);
// Reads a saved report or results file, whichever its "schema" says, and
// returns its record with `source` and `key` (content_key of the file's
// JSON) set; a report's command is its settings.command (compare writes
// mode "ab"), else its mode; a results file's `created` is the file's
// modification time. Throws perfci::Error naming the file.
RunRecord record_from_file(const std::filesystem::path& file);

// Sets each side's first parent from the git repository at `repo`, where it
// knows the commit; leaves it empty otherwise.
void fill_parents(RunRecord& run, const std::filesystem::path& repo);

}  // namespace perfci::history
