#include "perfci/app/contract_run.h"

#include "perfci/contracts/binary_error.h"
#include "perfci/contracts/binary_index.h"
#include "perfci/contracts/contract_checker.h"
#include "perfci/contracts/contract_config.h"
#include "perfci/util/error.h"

namespace perfci::app {

nlohmann::json check_config_contracts(const std::optional<Config>& config,
                                      const std::string& binary) {
  if (!config) return nullptr;
  std::vector<contracts::Contract> list;
  try {
    list = contracts::parse_contracts(config->raw);
  } catch (const contracts::ConfigError& e) {
    throw Error(config->path.string() + ": " + e.what());
  }
  if (list.empty()) return nullptr;
  try {
    contracts::BinaryIndex index(binary);
    return contracts::ContractChecker(index).check_all(list).to_json();
  } catch (const contracts::BinaryError& e) {
    return {{"schema", "perfci.contracts/1"},
            {"binary", binary},
            {"error", e.what()},
            {"contracts", nlohmann::json::array()}};
  }
}

}  // namespace perfci::app
