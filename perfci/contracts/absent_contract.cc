// absent: no out-of-line copy of the function exists in the binary; it
// survives only as inlined copies. The symbol table alone cannot decide
// (an inline function may keep a symbol), so DWARF's concrete instances
// count as copies too, and an import through the PLT/GOT counts as one.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <set>

#include "perfci/contracts/contract_checks.h"
#include "perfci/util/demangle.h"

namespace perfci::contracts {

ContractResult check_absent(const BinaryIndex& bin, const Contract& contract) {
  ContractResult result;
  result.contract = contract;
  FunctionMatches m = bin.find_functions(NamePattern(contract.symbol));
  if (m.empty()) {
    result.verdict = Verdict::kError;
    result.message = fmt::format("{} names no function in the binary", contract.symbol);
    return result;
  }
  std::string name = display_name(m, contract.symbol);
  std::set<uint64_t> seen;
  for (const ElfFunctionSymbol* s : m.symbols) {
    if (!seen.insert(s->addr).second) continue;
    result.out_of_line.push_back(OutOfLineCopy{demangle(s->name), s->addr, s->size});
  }
  const DwarfIndex& dw = bin.dwarf();
  for (uint32_t f : m.concrete) {
    auto ranges = dw.ranges_of(dw.functions()[f]);
    bool covered = false;
    for (const AddrRange& r : ranges)
      covered = covered || seen.count(r.lo) > 0 || bin.elf().function_containing(r.lo);
    if (covered) continue;
    seen.insert(ranges.front().lo);
    uint64_t size = 0;
    for (const AddrRange& r : ranges) size += r.hi - r.lo;
    result.out_of_line.push_back(OutOfLineCopy{dw.name_of(f), ranges.front().lo, size});
  }
  for (const std::string& import : m.imports)
    result.out_of_line.push_back(OutOfLineCopy{import + " (imported)", 0, 0});

  if (!result.out_of_line.empty()) {
    result.verdict = Verdict::kBroken;
    std::vector<std::string> copies;
    for (const auto& c : result.out_of_line)
      copies.push_back(c.address
                           ? fmt::format("{} at {:#x} ({} bytes)", c.symbol, c.address, c.size)
                           : c.symbol);
    size_t n = result.out_of_line.size();
    result.message = fmt::format("{}: {} out-of-line cop{}: {}", name, n, n == 1 ? "y" : "ies",
                                 fmt::join(copies, "; "));
    return result;
  }
  result.verdict = Verdict::kOk;
  result.message = fmt::format("{}: no out-of-line copy, {} inlined cop{}", name, m.inlined.size(),
                               m.inlined.size() == 1 ? "y" : "ies");
  return result;
}

}  // namespace perfci::contracts
