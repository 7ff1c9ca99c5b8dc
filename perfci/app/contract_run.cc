#include "perfci/app/contract_run.h"

#include <algorithm>

#include "perfci/analysis/scaling_contract.h"
#include "perfci/contracts/binary_error.h"
#include "perfci/contracts/binary_index.h"
#include "perfci/contracts/contract_checker.h"
#include "perfci/contracts/contract_config.h"
#include "perfci/util/error.h"

namespace perfci::app {

std::vector<contracts::Contract> config_contracts(const std::optional<Config>& config) {
  if (!config) return {};
  try {
    return contracts::parse_contracts(config->raw);
  } catch (const contracts::ConfigError& e) {
    throw Error(config->path.string() + ": " + e.what());
  }
}

std::optional<contracts::ContractReport> check_config_contracts(const std::optional<Config>& config,
                                                                const std::string& binary) {
  const std::vector<contracts::Contract> list = config_contracts(config);
  if (std::none_of(list.begin(), list.end(),
                   [](const contracts::Contract& c) { return !c.measured(); }))
    return std::nullopt;
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

void add_measured_contracts(std::optional<contracts::ContractReport>& report,
                            const std::optional<Config>& config, const std::string& binary,
                            const RunResults& results) {
  analysis::add_scaling_results(
      report, config_contracts(config), binary,
      [&](const std::string& kind, const std::string& metric) {
        return analysis::run_samples(results, kind, metric);
      },
      false);
}

}  // namespace perfci::app
