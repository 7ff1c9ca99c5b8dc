#include "perfci/contracts/contract.h"

#include <fmt/format.h>

namespace perfci::contracts {

std::string_view kind_name(ContractKind kind) {
  switch (kind) {
    case ContractKind::kInline:
      return "inline";
    case ContractKind::kAbsent:
      return "absent";
    case ContractKind::kLayout:
      return "layout";
    case ContractKind::kReturnsInRegisters:
      return "returns_in_registers";
    case ContractKind::kScaling:
      return "scaling";
  }
  return "unknown";
}

std::string Contract::describe() const {
  switch (kind) {
    case ContractKind::kInline:
      return fmt::format("{} inlined into {}", callee, caller);
    case ContractKind::kAbsent:
      return fmt::format("{} has no out-of-line copy", symbol);
    case ContractKind::kLayout:
      return fmt::format("sizeof({}) <= {}", type, max_bytes);
    case ContractKind::kReturnsInRegisters:
      return fmt::format("{} returns in registers", function);
    case ContractKind::kScaling:
      return order.empty() ? fmt::format("{}/n grows at most as n^{:g}", family, max_exponent)
                           : fmt::format("{}/n grows at most as {}", family, order);
  }
  return {};
}

}  // namespace perfci::contracts
