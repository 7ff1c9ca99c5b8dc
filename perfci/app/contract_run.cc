#include "perfci/app/contract_run.h"

#include "perfci/contracts/binary_error.h"
#include "perfci/contracts/binary_index.h"
#include "perfci/contracts/contract_checker.h"
#include "perfci/contracts/contract_config.h"
#include "perfci/util/error.h"

namespace perfci::app {

std::optional<contracts::ContractReport> check_config_contracts(const std::optional<Config>& config,
                                                                const std::string& binary) {
  if (!config) return std::nullopt;
  std::vector<contracts::Contract> list;
  try {
    list = contracts::parse_contracts(config->raw);
  } catch (const contracts::ConfigError& e) {
    throw Error(config->path.string() + ": " + e.what());
  }
  if (list.empty()) return std::nullopt;
  try {
    contracts::BinaryIndex index(binary);
    return contracts::ContractChecker(index).check_all(list);
  } catch (const contracts::BinaryError& e) {
    contracts::ContractReport unreadable;
    unreadable.binary = binary;
    unreadable.error = e.what();
    return unreadable;
  }
}

}  // namespace perfci::app
