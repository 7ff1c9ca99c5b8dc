// The oracle gaps of a check, judged: engine/X over sqlite/X on this run
// against the same ratio on the baseline, by perfci.json's check.oracle_gap
// threshold per metric kind, gated unless the kind is information only, and
// accepted where an "accepted" entry names the benchmark and the metric.
// One function for `perfci check` and for `perfci merge`, which judges the
// gaps of pairs whose two benchmarks ran in different shards; the rules it
// needs travel in the report's settings ("oracle_gap"), so a merge judges
// by exactly the rules each part ran with.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "perfci/analysis/oracle_gap.h"
#include "perfci/check/check_config.h"
#include "perfci/model/report.h"

namespace perfci::check {

struct OracleGapRules {
  std::vector<analysis::PrefixPair> pairs;  // perfci.json's "pairs"; none: no gap
  CheckConfig config;                       // oracle_gap thresholds and information_only
};

// Whether an accepted entry covers this benchmark and metric ("callgrind/ir").
using AcceptedLookup = std::function<bool(const std::string& benchmark, const std::string& metric)>;

// The gaps of `runs` with their threshold, verdict and gate; appends a
// finding for each gated regression not accepted.
std::vector<OracleGap> gate_oracle_gaps(const std::vector<BenchmarkRun>& runs,
                                        const OracleGapRules& rules, const AcceptedLookup& accepted,
                                        std::vector<std::string>& findings);

// settings.oracle_gap of a check report: {"pairs": [{"measured", "oracle"}],
// "threshold": {"wall": 0.5, "counters": 0.25, "callgrind": 0.25},
// "information_only": ["wall"]}, and back (throws perfci::Error).
nlohmann::json oracle_gap_rules_json(const OracleGapRules& rules);
OracleGapRules oracle_gap_rules_from_json(const nlohmann::json& j, const std::string& origin);

}  // namespace perfci::check
