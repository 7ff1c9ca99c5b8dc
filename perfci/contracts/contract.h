// A contract as declared in perfci.json under "contracts".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace perfci::contracts {

enum class ContractKind { kInline, kAbsent, kLayout, kReturnsInRegisters };

std::string_view kind_name(ContractKind kind);

struct Contract {
  ContractKind kind = ContractKind::kInline;
  std::string name;                     // optional label
  std::string why;                      // optional rationale, shown in reports
  std::vector<std::string> benchmarks;  // benchmarks whose code the contract concerns

  std::string caller;      // inline
  std::string callee;      // inline
  std::string symbol;      // absent
  std::string type;        // layout
  uint64_t max_bytes = 0;  // layout
  std::string function;    // returns_in_registers

  // "engine::get_varint in engine::BtCursor::seek", "engine::Value <= 24 bytes", ...
  std::string describe() const;
};

}  // namespace perfci::contracts
