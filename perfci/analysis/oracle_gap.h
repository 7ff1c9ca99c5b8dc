// The oracle gap: where a suite measures the same workload on the engine and
// on a reference implementation ("engine/X" and "sqlite/X"), how much slower
// the engine is (engine / oracle, medians), on A and on B. perfci.json names
// the prefixes: "pairs": [{"a": "engine/", "b": "sqlite/"}]; without that
// section there is no oracle and no gap (perfci knows no project's names).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "perfci/model/report.h"

namespace perfci::analysis {

struct PrefixPair {
  std::string measured;  // "engine/"
  std::string oracle;    // "sqlite/"
};

// Throws perfci::Error naming the field on a malformed "pairs" section.
std::vector<PrefixPair> oracle_pairs_from_config(const nlohmann::json& config,
                                                 const std::string& origin);

std::vector<OracleGap> oracle_gaps(const std::vector<BenchmarkRun>& benchmarks,
                                   const std::vector<PrefixPair>& pairs);

}  // namespace perfci::analysis
