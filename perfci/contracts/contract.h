// A contract as declared in perfci.json under "contracts". All but one are
// checked on a built binary; "scaling" is checked from measurements (a
// benchmark family over sizes must grow no faster than a stated order), by
// analysis/scaling_contract.h once the benchmarks have run.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace perfci::contracts {

enum class ContractKind { kInline, kAbsent, kLayout, kReturnsInRegisters, kScaling };

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

  // scaling: the benchmarks "<family>/<n>" (Google Benchmark's Arg / Range
  // names) must grow no faster than n^max_exponent between any two
  // neighbouring sizes. With `order` ("1", "log n", "n", "n log n", "n^2")
  // the bound is that order's own exponent over each pair of sizes plus
  // `tolerance`. `metric` is "callgrind" (Ir, exact) or "wall" (real time,
  // judged on its samples' spread).
  std::string family;
  double max_exponent = 0;  // 0: from `order`
  std::string order;
  double tolerance = 0.15;
  std::string metric = "callgrind";

  // Whether it is checked from measurements rather than from the binary.
  bool measured() const { return kind == ContractKind::kScaling; }

  // "engine::get_varint in engine::BtCursor::seek", "engine::Value <= 24 bytes", ...
  std::string describe() const;
};

}  // namespace perfci::contracts
