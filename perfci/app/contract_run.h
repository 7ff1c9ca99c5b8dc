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

namespace perfci::app {

// The contracts' results, or none when there is no config or it declares no
// contracts; an unreadable binary is a report with `error` set. Throws
// perfci::Error for a malformed "contracts" section (naming the file).
std::optional<contracts::ContractReport> check_config_contracts(const std::optional<Config>& config,
                                                                const std::string& binary);

}  // namespace perfci::app
