// layout: the size of the type from DWARF (DW_AT_byte_size of its
// definitions; declarations skipped) is at most max_bytes.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "perfci/contracts/contract_checks.h"

namespace perfci::contracts {

ContractResult check_layout(const BinaryIndex& bin, const Contract& contract) {
  ContractResult result;
  result.contract = contract;
  NamePattern pattern(contract.type);
  std::string token = required_token(pattern.normalized());
  std::vector<const DwarfTypeSize*> matched;
  for (const DwarfTypeSize& t : bin.dwarf().types()) {
    if (!token.empty() && t.name.find(token) == std::string::npos) continue;
    if (pattern.matches(normalize_name(t.name))) matched.push_back(&t);
  }
  if (matched.empty()) {
    result.verdict = Verdict::kError;
    result.message = fmt::format("{} names no type defined in the binary's DWARF", contract.type);
    return result;
  }
  std::vector<std::string> over;
  const DwarfTypeSize* largest = matched.front();
  for (const DwarfTypeSize* t : matched) {
    if (t->max_bytes > largest->max_bytes) largest = t;
    if (t->max_bytes > contract.max_bytes) {
      std::string text =
          fmt::format("{} is {} bytes, {} over the {}-byte bound", t->name, t->max_bytes,
                      t->max_bytes - contract.max_bytes, contract.max_bytes);
      if (t->min_bytes != t->max_bytes)
        text += fmt::format(" (sizes differ across units: {} to {})", t->min_bytes, t->max_bytes);
      over.push_back(std::move(text));
    }
  }
  result.size_bytes = largest->max_bytes;
  if (!over.empty()) {
    result.verdict = Verdict::kBroken;
    result.message = fmt::format("{}", fmt::join(over, "; "));
    return result;
  }
  result.verdict = Verdict::kOk;
  result.message =
      matched.size() == 1
          ? fmt::format("{} is {} bytes (bound {})", largest->name, largest->max_bytes,
                        contract.max_bytes)
          : fmt::format("{} types match, the largest is {} at {} bytes (bound {})", matched.size(),
                        largest->name, largest->max_bytes, contract.max_bytes);
  return result;
}

}  // namespace perfci::contracts
