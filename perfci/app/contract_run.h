// Checks perfci.json's contracts on one built binary, for every command that
// records them beside its measurements (ab, aa, compare, check, baseline
// update). A binary the checker cannot read is recorded in the results
// ("error"), not thrown: the measurements still stand, and each command
// decides what an unreadable binary means for its exit code.
#pragma once

#include <optional>
#include <string>

#include "perfci/config/config.h"
#include "perfci/contracts/contract_result.h"
#include "perfci/model/results.h"

namespace perfci::app {

// perfci.json's contracts; none without a config. Throws perfci::Error for
// a malformed "contracts" section (naming the file).
std::vector<contracts::Contract> config_contracts(const std::optional<Config>& config);

// The binary's contracts' results, or none when there is no config or it
// declares no contracts; an unreadable binary is a report with `error` set.
// Measured contracts (scaling) are not among them: add_measured_contracts
// adds them once the benchmarks have run. Throws perfci::Error for a
// malformed "contracts" section (naming the file).
std::optional<contracts::ContractReport> check_config_contracts(const std::optional<Config>& config,
                                                                const std::string& binary);

// The scaling contracts judged on one run's results (check, baseline
// update: every family the contracts name must have been measured).
void add_measured_contracts(std::optional<contracts::ContractReport>& report,
                            const std::optional<Config>& config, const std::string& binary,
                            const RunResults& results);

}  // namespace perfci::app
