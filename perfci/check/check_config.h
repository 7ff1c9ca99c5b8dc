// The "check" section of perfci.json: how `perfci check` and `perfci
// baseline update` run and judge a suite against its stored baseline.
//
//   "check": {
//     "baselines": "baselines",          // folder, relative to perfci.json
//     "reports": "reports",              // where check writes its reports
//     "meters": ["callgrind", "wall"],   // default: the top-level "meters"
//     "information_only": ["wall"],      // kinds shown but never gated
//     "libraries": ["libsqlite3", "libc", "libstdc++"],  // profile: default all
//     "fallback": "compare",             // or "none"; see below
//     "metrics": {"callgrind": {"threshold": 0.002}},    // default: "metrics"
//     "oracle_gap": {"callgrind": 0.25, "wall": 0.25}    // default 0.25 each
//   }
//
// "metrics" here replaces the top-level section for check alone: one run
// against a stored one is judged by threshold, not by the statistics of
// many A/B pairs, so a wall-time threshold that suits `perfci compare` may
// not suit it.
//
// "fallback": when the stored baseline cannot gate callgrind Ir on this
// runner (its toolchain or valgrind view differs, issue 13), "compare"
// builds a reference revision here (the baseline's commit, or --reference,
// e.g. a pull request's merge-base) in a cached worktree and gates Ir on
// the deterministic in-runner A/B instead; "none" leaves callgrind
// information only, and a check that then gates nothing is "not gated".
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "perfci/config/config.h"
#include "perfci/runner/metric_policy.h"

namespace perfci::check {

struct CheckConfig {
  std::filesystem::path baselines;  // absolute
  std::filesystem::path reports;    // absolute
  std::vector<std::string> meters;
  std::vector<std::string> information_only;
  std::vector<std::string> libraries;
  MetricPolicies policies;
  std::map<std::string, double> oracle_gap;  // per metric kind
  bool fallback_compare = true;              // "fallback": "compare"

  double oracle_gap_threshold(const std::string& kind) const;
  bool information_only_kind(const std::string& kind) const;
};

inline constexpr double kDefaultOracleGapThreshold = 0.25;

// Relative folders are taken from the folder of perfci.json (the project
// root). Throws perfci::Error "<file>: check.<field>: <problem>".
CheckConfig check_config_from(const Config& config);

}  // namespace perfci::check
