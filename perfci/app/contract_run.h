// Checks perfci.json's contracts on one built binary, for every command that
// records them beside its measurements (ab, aa, compare, check, baseline
// update). A binary the checker cannot read is recorded in the results
// ("error"), not thrown: the measurements still stand, and each command
// decides what an unreadable binary means for its exit code.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "perfci/config/config.h"

namespace perfci::app {

// "perfci.contracts/1" results, or null when there is no config or it
// declares no contracts. Throws perfci::Error for a malformed "contracts"
// section (naming the file).
nlohmann::json check_config_contracts(const std::optional<Config>& config,
                                      const std::string& binary);

}  // namespace perfci::app
