// A benchmark metric's trend (model/history_series.h) built from the
// results database: one value per commit along first-parent history, oldest
// first, with the commits where the stored baseline moved, where a
// regression was accepted, and the change points found in it (issue 16).
//
// A series is one (profile, machine, benchmark, kind, metric): values
// measured under different profiles (another compiler, other libraries) are
// never put in one series, since a step between them would be the
// toolchain's, not the code's. Deterministic metrics (callgrind Ir) count the
// same on any machine of one profile, so their machine is ""; noisy ones
// (wall time, counters) are the machine's too, so each machine has its own
// series, and a check's baseline side (measured where the baseline was
// taken, which the run does not record) gives them no point. Points of dirty trees and of commits
// off the first-parent history are left out: they belong to no commit of the line being read.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "perfci/history/results_db.h"
#include "perfci/model/history_series.h"
#include "perfci/runner/git_history.h"
#include "perfci/runner/metric_policy.h"
#include "perfci/stats/change_point.h"

namespace perfci::history {

struct ChangeOptions {
  stats::EDivisiveOptions e_divisive;
};

// Groups the points by series, places them on `history` (oldest first;
// points at commits not in it are dropped) and finds each series' change points:
// deterministic_steps beyond the metric's threshold for deterministic
// metrics, e_divisive for the others. Series come sorted by key.
std::vector<Series> build_series(const std::vector<StoredPoint>& points,
                                 const std::vector<AcceptedMark>& accepted,
                                 const std::vector<CommitSubject>& history,
                                 const MetricPolicies& policies, const ChangeOptions& options);

// The series as `perfci history show --json` and `perfci history changes
// --json` write them (schema "perfci.history/1", reports/README.md): every
// entry and change point; an unbounded interval end is null.
nlohmann::json series_json(const std::vector<Series>& series, const std::string& database,
                           const std::string& head);

}  // namespace perfci::history
