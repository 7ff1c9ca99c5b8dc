// What `perfci bisect` found: the first commit of GOOD..BAD that made one
// benchmark slower than GOOD beyond a threshold, why (the per-symbol diff
// against its parent and the contracts that changed), and every commit it
// measured on the way, each with its value, so that a results database can
// record them. Schema "perfci.bisect/1", documented in reports/README.md.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "perfci/model/report.h"
#include "perfci/model/results.h"

namespace perfci {

inline constexpr const char* kBisectSchema = "perfci.bisect/1";

// One commit of the bisected history, measured or not.
struct BisectCommit {
  std::string commit;  // full hash
  std::string subject;
  int position = 0;  // 0: GOOD; 1..n: the candidates oldest first (n: BAD)
  int probe = 0;     // 1, 2, ...: the order it was measured in; 0: not measured
  // good, bad, skipped, undecided; "reference" for GOOD.
  std::string status;
  std::string reason;   // why it is what it is (the verdict, the build error)
  bool built = false;   // its build was asked for (a cached one counts)
  bool reused = false;  // the cache held it already
  std::string build_dir;
  std::optional<double> value;   // the metric here: Ir per iteration, or the wall median
  std::optional<double> change;  // against GOOD: value / GOOD's - 1
  // Wall: the A/B against GOOD, this side's and GOOD's samples of the metric.
  std::vector<double> samples;
  std::vector<double> good_samples;
  int pairs = 0;  // pairs of that A/B, confirmation and re-measurement included
  // The benchmark's own record (callgrind: the run that gave `value`); none
  // for wall, whose value is a paired A/B's median.
  std::optional<BenchmarkResult> result;
};

// The first bad commit against the commit before it.
struct BisectCulprit {
  std::string commit;
  std::string subject;
  bool merge = false;  // a merge: the regression came in through the branch it merged
  std::string parent;  // the commit before it in the bisected history (GOOD for the first)
  std::string parent_subject;
  double value_parent = 0;
  double value = 0;
  double ratio = 1;    // value / value_parent
  std::string method;  // how the two values were measured ("callgrind", "wall A/B, 10 pairs")
  std::optional<Explanation> explanation;  // callgrind per-symbol diff and contract changes
  std::string explanation_error;           // why there is none
};

struct BisectReport {
  std::string schema = kBisectSchema;
  std::string tool_version;
  std::string created;
  std::string benchmark;
  std::string kind;    // callgrind, wall
  std::string metric;  // ir, real_time_ns, cpu_time_ns
  double threshold = 0;
  std::string threshold_source;  // "--threshold", "perfci.json metrics.callgrind", "default"
  std::string suite;
  std::string good_revision, good_commit;
  std::string bad_revision, bad_commit;
  int candidates = 0;    // commits of GOOD..BAD, BAD included, GOOD not
  int builds = 0;        // commits built (or taken from the cache), GOOD included
  int fresh_builds = 0;  // of those, built now
  int max_builds = 0;    // ceil(log2(candidates + 1)) + 1: the bound without skips
  // found (0), no_regression (1), skipped_range or undecided (3), error (2:
  // what was measured before it is kept), interrupted (128 + signal).
  std::string outcome;
  std::string summary;  // the outcome in one sentence
  std::optional<BisectCulprit> first_bad;
  // skipped_range, undecided: the candidates that may hold the first bad
  // commit, oldest first; may_be_none when no candidate of them was measured bad.
  std::vector<std::string> range;
  bool range_may_be_none = false;
  std::vector<BisectCommit> commits;  // GOOD and every candidate, in history order
  nlohmann::json settings = nlohmann::json::object();
  nlohmann::json machine = nlohmann::json::object();
  std::optional<Incomplete> incomplete;
  double elapsed_seconds = 0;

  int exit_code() const;
};

void to_json(nlohmann::json& j, const BisectCommit& v);
void to_json(nlohmann::json& j, const BisectCulprit& v);
void to_json(nlohmann::json& j, const BisectReport& v);

}  // namespace perfci
