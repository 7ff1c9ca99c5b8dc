// Why a benchmark changed, written without a human: the per-symbol cost diff
// between A and B (callgrind self Ir per function, or sampling shares), the
// counter deltas per iteration (instructions, IPC, misses, context
// switches), and every contract whose status differs between the sides.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "perfci/model/report.h"

namespace perfci::analysis {

struct ExplanationOptions {
  std::size_t top_symbols = 8;
  // Symbols below this share on both sides are not worth a line.
  double min_share = 0.005;
};

// Contract results of both sides ("perfci.contracts/1" JSON, null when not
// checked) compared: one entry per contract whose status differs.
std::vector<ContractChange> contract_changes(const nlohmann::json& a, const nlohmann::json& b);

// The contract changes that concern this benchmark: those naming it in their
// "benchmarks" list, and those naming none.
std::vector<ContractChange> contract_changes_for(const std::string& benchmark,
                                                 const nlohmann::json& a, const nlohmann::json& b);

Explanation explain(const BenchmarkRun& run, const nlohmann::json& contracts_a,
                    const nlohmann::json& contracts_b, const ExplanationOptions& options = {});

}  // namespace perfci::analysis
