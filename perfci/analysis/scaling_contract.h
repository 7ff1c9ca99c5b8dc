// Scaling contracts (issue 18), checked from measurements: the benchmarks
// "<family>/<n>" of a family over sizes must grow no faster than the
// contract's order. The judged figure is the steepest log-log slope between
// two neighbouring sizes (where a quadratic part hidden under a linear one
// shows first); the least-squares exponent over every size is reported too.
//
// callgrind Ir is exact, so its slope is a number. Wall time is judged on
// its samples' spread: the slope between two sizes is taken as the lowest
// the samples allow (fastest at the larger size over slowest at the smaller),
// so noise cannot break a contract, and it needs 3 samples or more per size.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "perfci/contracts/contract_result.h"
#include "perfci/model/ab_run.h"
#include "perfci/model/results.h"

namespace perfci::analysis {

// Samples per iteration of one metric, by benchmark name.
using MetricSamples = std::map<std::string, std::vector<double>>;

// The metric a scaling contract reads: {"callgrind", "ir"} or
// {"wall", "real_time_ns"}.
std::pair<std::string, std::string> scaling_metric(const contracts::Contract& contract);

// ok, broken (naming the exponent, the sizes and the bound), or error
// (fewer than two sizes measured, a failed size, too few wall samples).
contracts::ContractResult check_scaling(const contracts::Contract& contract,
                                        const MetricSamples& samples);

// One sample per benchmark from one run's results (check, baseline update).
MetricSamples run_samples(const RunResults& results, const std::string& kind,
                          const std::string& metric);
// Every trial's sample of one side of an A/B run (side_b: B, else A).
MetricSamples side_samples(const AbRun& run, bool side_b, const std::string& kind,
                           const std::string& metric);

// Whether any benchmark of the contract's family is among `names`.
bool family_measured(const contracts::Contract& contract, const std::vector<std::string>& names);

// Appends the results of the measured contracts among `contracts` to
// `report` (made when absent). A report whose binary was unreadable keeps
// its error alone. `only_measured_families`: leave out contracts whose
// family this run did not measure at all (an A/B run filtered to other
// benchmarks); `perfci check` measures the suite and keeps every one.
void add_scaling_results(
    std::optional<contracts::ContractReport>& report,
    const std::vector<contracts::Contract>& contracts, const std::string& binary,
    const std::function<MetricSamples(const std::string& kind, const std::string& metric)>& samples,
    bool only_measured_families);

}  // namespace perfci::analysis
