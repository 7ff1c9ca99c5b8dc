// `perfci bisect GOOD BAD --benchmark B`: the first commit of GOOD..BAD
// (first-parent history) that made benchmark B slower than GOOD beyond a
// threshold. Commits are built in compare's cached worktrees; with
// callgrind each step is one deterministic count compared with GOOD's,
// with wall time an interleaved A/B against GOOD. The halving is
// runner/bisect_search.h; this file measures, explains and reports.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "perfci/app/common_flags.h"
#include "perfci/model/bisect_report.h"

namespace perfci::app {

// The common flags bisect takes (no --meter, --filter or --events: --metric
// and --benchmark say what is measured).
inline constexpr CommonFlagSet kBisectFlags = kConfigFlag | kSuiteFlag | kMinTimeFlag |
                                              kCallgrindIterationsFlag | kPinFlag | kTimeoutFlag |
                                              kQuietFlag | kHistoryFlag;

struct BisectFlags : CommonFlags {
  std::string good;
  std::string bad;
  std::string benchmark;  // its exact name
  // callgrind/ir, wall/real_time_ns or wall/cpu_time_ns ("callgrind" and
  // "wall" name their first); empty: callgrind/ir when perfci.json's meters
  // (or check.meters) have callgrind, else wall/real_time_ns.
  std::string metric;
  std::optional<double> threshold;  // empty: perfci.json's for the metric
  int pairs = 10;                   // wall: pairs of each step's A/B
  std::uint64_t seed = 1;
  std::string out;    // the JSON report (Markdown beside it, .md); empty: the reports folder
  std::string cache;  // the worktree cache; empty: compare's
  std::string repo;   // empty: the current folder
  int jobs = 0;
};

// The bisect, its report written (JSON and Markdown) and printed. Returns
// the exit code: 0 the first bad commit is named, 1 no commit of GOOD..BAD
// regressed B beyond the threshold, 3 the answer is a range (skipped
// commits, or an undecided wall step), 128 + the signal when stopped.
// Throws perfci::Error on bad input (exit 2): an unknown revision, GOOD not
// an ancestor of BAD or equal to it, a GOOD that does not build or has no
// benchmark B, an unknown metric.
int run_bisect_session(const BisectFlags& flags);

// The metric --metric names (kind, metric), or the default for these
// meters. Throws perfci::Error for one bisect does not measure.
std::pair<std::string, std::string> bisect_metric(const std::string& flag, bool has_callgrind);

}  // namespace perfci::app
