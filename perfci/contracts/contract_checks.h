// One function per contract kind; each file inline_contract.cc,
// absent_contract.cc, layout_contract.cc, returns_contract.cc holds one.
#pragma once

#include "perfci/contracts/binary_index.h"
#include "perfci/contracts/contract.h"
#include "perfci/contracts/contract_result.h"

namespace perfci::contracts {

ContractResult check_inline(const BinaryIndex& binary, const Contract& contract);
ContractResult check_absent(const BinaryIndex& binary, const Contract& contract);
ContractResult check_layout(const BinaryIndex& binary, const Contract& contract);
ContractResult check_returns_in_registers(const BinaryIndex& binary, const Contract& contract);

// A name for messages: the single qualified name matched, else the pattern.
std::string display_name(const FunctionMatches& matches, const std::string& pattern);

}  // namespace perfci::contracts
