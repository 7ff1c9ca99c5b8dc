// Checks a list of contracts against one indexed binary.
#pragma once

#include <string>
#include <vector>

#include "perfci/contracts/binary_index.h"
#include "perfci/contracts/contract.h"
#include "perfci/contracts/contract_result.h"

namespace perfci::contracts {

class ContractChecker {
 public:
  explicit ContractChecker(const BinaryIndex& binary) : binary_(binary) {}

  ContractResult check(const Contract& contract) const;
  ContractReport check_all(const std::vector<Contract>& contracts) const;

 private:
  const BinaryIndex& binary_;
};

}  // namespace perfci::contracts
