#include "perfci/contracts/contract_checker.h"

#include "perfci/contracts/contract_checks.h"

namespace perfci::contracts {

std::string display_name(const FunctionMatches& matches, const std::string& pattern) {
  return matches.names.size() == 1 ? matches.names.front() : pattern;
}

ContractResult ContractChecker::check(const Contract& contract) const {
  switch (contract.kind) {
    case ContractKind::kInline:
      return check_inline(binary_, contract);
    case ContractKind::kAbsent:
      return check_absent(binary_, contract);
    case ContractKind::kLayout:
      return check_layout(binary_, contract);
    case ContractKind::kReturnsInRegisters:
      return check_returns_in_registers(binary_, contract);
    case ContractKind::kScaling:
      break;  // measured, not in the binary: check_all leaves it out
  }
  ContractResult r;
  r.contract = contract;
  r.message = contract.measured()
                  ? "a scaling contract is judged from measurements (check, ab), not the binary"
                  : "unknown contract kind";
  return r;
}

ContractReport ContractChecker::check_all(const std::vector<Contract>& contracts) const {
  ContractReport report;
  report.binary = binary_.elf().path();
  for (const Contract& c : contracts)
    if (!c.measured()) report.results.push_back(check(c));
  return report;
}

}  // namespace perfci::contracts
