// perfci history show and perfci history changes: the series of a results
// database read along first-parent history of a revision, filtered, with
// their change points (issue 16).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "perfci/history/series.h"
#include "perfci/runner/metric_policy.h"

namespace perfci::app {

struct HistoryViewOptions {
  std::filesystem::path database;
  std::filesystem::path repo;  // any folder of the git working tree
  std::string head = "HEAD";   // whose first-parent history is read
  std::size_t last = 50;       // commits of that history, newest; 0: all
  std::string benchmark_regex;
  // "ir", "real_time_ns", or kind/metric ("callgrind/ir"); empty: every metric.
  std::string metric;
  std::string profile;  // empty: every profile
  // Only the benchmarks this report found changed (regressed, improved,
  // accepted): what a pull request's step summary shows trends for.
  std::optional<std::filesystem::path> changed_report;
  MetricPolicies policies;
  history::ChangeOptions change;
};

// Throws perfci::Error for an unknown revision, a bad regex or metric, an
// unreadable report or database.
std::vector<history::Series> load_history_series(const HistoryViewOptions& options);

}  // namespace perfci::app
