// Known regressions a project accepts: perfci.json's "accepted" list.
//
//   "accepted": [{"benchmark": "engine/insert_batch", "metric": "callgrind/ir",
//                 "commit": "3f2c9a1", "reason": "journal fsync now per commit (#41)"}]
//
// An entry names one benchmark (exactly), one metric as "<kind>/<metric>"
// (callgrind/ir, wall/real_time_ns, wall/cpu_time_ns, counters/<event>), the
// commit that makes the change, and why. It turns that metric's gated
// regression — and the oracle-gap regression of that benchmark and metric —
// into "accepted" in the report instead of failing the gate.
//
// Rules, so that an entry cannot hide more than it says:
// - every field is required; the commit must be a commit of this repository
//   that is HEAD or an ancestor of HEAD (the accepted change is in the
//   history being checked); otherwise perfci check stops with exit 2;
// - an entry is "stale" once the baseline was made at or after its commit
//   (the baseline already holds the change): it accepts nothing then, and the
//   report says it can be removed;
// - otherwise it is "applied" when it accepted a regression, "unused" when
//   the metric did not regress.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace perfci::check {

struct AcceptedEntry {
  std::string benchmark;
  std::string metric;  // "<kind>/<metric>"
  std::string commit;  // as written
  std::string reason;
};

// Reads the top-level "accepted" array (absent: none). Throws perfci::Error
// "<origin>: accepted[1].metric: ..." naming the field.
std::vector<AcceptedEntry> parse_accepted(const nlohmann::json& config, const std::string& origin);

// What git says about commits, injectable for tests.
struct GitHistory {
  // Full hash of a commit, or throws perfci::Error for an unknown one.
  std::function<std::string(const std::string&)> resolve;
  // True when the first (resolved) commit is the second or an ancestor of it.
  std::function<bool(const std::string&, const std::string&)> is_ancestor;
};

struct ActiveAccepted {
  AcceptedEntry entry;
  std::string commit;  // resolved, full
  bool stale = false;  // the baseline already includes the commit
};

// Validates every entry against the history: `head` is the commit checked,
// `baseline_commit` the baseline's (empty when unknown: nothing is stale).
// Throws perfci::Error naming the entry when a commit is unknown or not in
// HEAD's history.
std::vector<ActiveAccepted> resolve_accepted(const std::vector<AcceptedEntry>& entries,
                                             const std::string& head,
                                             const std::string& baseline_commit,
                                             const GitHistory& git, const std::string& origin);

}  // namespace perfci::check
