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

using Contracts = std::optional<contracts::ContractReport>;  // none: not checked

// Contract results of both sides compared: one entry per contract whose
// status differs. Nothing when a side was not checked.
std::vector<ContractChange> contract_changes(const Contracts& a, const Contracts& b);

// The contract changes that concern this benchmark: those naming it in their
// "benchmarks" list, and those naming none.
std::vector<ContractChange> contract_changes_for(const std::string& benchmark, const Contracts& a,
                                                 const Contracts& b);

Explanation explain(const BenchmarkRun& run, const Contracts& contracts_a,
                    const Contracts& contracts_b, const ExplanationOptions& options = {});

}  // namespace perfci::analysis
