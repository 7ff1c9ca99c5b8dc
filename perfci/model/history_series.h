// The records of a benchmark metric's trend, as perfci history reads them
// from the results database (history/series.h builds them) and report/
// renders them: one entry per commit along first-parent history, oldest
// first, and the change points found in it. Plain data, so that the
// renderings need neither the database nor SQLite.
#pragma once

#include <compare>
#include <optional>
#include <string>
#include <vector>

#include "perfci/stats/change_point.h"

namespace perfci::history {

struct SeriesKey {
  std::string profile;
  std::string machine;  // "<cpu model> @ <host>" for noisy metrics; "" for deterministic ones
  std::string benchmark;
  std::string kind;
  std::string metric;
  friend auto operator<=>(const SeriesKey&, const SeriesKey&) = default;
};

struct SeriesEntry {
  std::size_t position = 0;  // index of the commit in the first-parent list
  std::string commit;
  std::string subject;
  // The newest run's point at this commit: a re-run replaces an older one,
  // as a re-measured commit is what its author meant to keep.
  double value = 0;
  std::optional<double> lo;
  std::optional<double> hi;
  int n = 0;
  int runs = 0;  // runs that measured this commit (this series)
  std::string created;
  bool baseline = false;  // a check compared against a baseline taken at this commit
  bool accepted = false;  // a check accepted a regression of this metric here
};

// A change point placed on commits: it happened in (from, to], `commits`
// commits of first-parent history (1 when adjacent measured commits).
struct SeriesChange {
  stats::ChangePoint point;
  std::string from_commit;  // the last measured commit before the change
  std::string to_commit;    // the first measured commit after it
  std::string to_subject;
  std::size_t commits = 0;
  std::string method;  // "step" (deterministic) or "e-divisive"
};

struct Series {
  SeriesKey key;
  std::string unit;
  bool deterministic = false;
  double threshold = 0;  // of the metric, from perfci.json
  std::vector<SeriesEntry> entries;
  std::vector<SeriesChange> changes;
};

}  // namespace perfci::history
