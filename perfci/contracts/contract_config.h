// Reads the "contracts" section of perfci.json. Takes the parsed JSON so that
// it does not depend on whoever loads the rest of the file.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "perfci/contracts/contract.h"

namespace perfci::contracts {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `config` is either the whole perfci.json object (its "contracts" member is
// read; a missing member means no contracts) or the contracts array itself.
// Throws ConfigError naming the offending entry and key.
std::vector<Contract> parse_contracts(const nlohmann::json& config);

// Reads and parses a perfci.json file. Throws ConfigError.
std::vector<Contract> load_contracts_file(const std::string& path);

}  // namespace perfci::contracts
