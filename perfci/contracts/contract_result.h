// The outcome of checking contracts against one binary, as printed by
// `perfci contracts` and embedded in every perfci report.
//
// JSON (schema "perfci.contracts/1"):
//   { "schema": "perfci.contracts/1", "binary": PATH,
//     "summary": {"ok": N, "broken": N, "error": N},
//     "contracts": [ {
//        "kind": "inline"|"absent"|"layout"|"returns_in_registers",
//        "name": STR?, "why": STR?, "benchmarks": [STR],
//        "caller"/"callee" | "symbol" | "type"/"max_bytes" | "function",
//        "status": "ok"|"broken"|"error", "message": STR,
//        "inlined_copies":  [{"function": STR, "depth": N, "ranges": [["0x..","0x.."]]}],
//        "remaining_calls": [{"address": "0x..", "in": STR, "to": STR,
//                             "kind": "call"|"tail_jump", "via": "direct"|"plt"|"got"}],
//        "out_of_line":     [{"symbol": STR, "address": "0x..", "size": N}],
//        "size_bytes": N?,
//        "scaling": {"metric": "callgrind/ir", "points": [[1000, 5.1e5], ...],
//                    "exponent": 1.01, "steepest": 1.02, "between": [4000, 16000],
//                    "bound": 1.15}? } ] }
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "perfci/contracts/address_range.h"
#include "perfci/contracts/code_scanner.h"
#include "perfci/contracts/contract.h"

namespace perfci::contracts {

enum class Verdict { kOk, kBroken, kError };

std::string_view verdict_name(Verdict v);

struct InlinedSite {
  std::string function;  // the concrete function that holds the copy
  uint16_t depth = 1;    // 1 directly, 2+ inside another inlined function
  std::vector<AddrRange> ranges;
};

struct CallSite {
  uint64_t address = 0;
  std::string in_function;
  std::string target;
  TransferKind kind = TransferKind::kCall;
  TransferVia via = TransferVia::kDirect;
};

struct OutOfLineCopy {
  std::string symbol;  // demangled, clone marker included
  uint64_t address = 0;
  uint64_t size = 0;
};

// What a scaling contract measured: the family's cost per iteration at each
// size, the log-log slope fitted over all of them, and the steepest slope
// between two neighbouring sizes (the one judged) with its bound.
struct ScalingFit {
  std::string metric;                             // "callgrind/ir", "wall/real_time_ns"
  std::vector<std::pair<double, double>> points;  // (n, cost per iteration), by n
  double exponent = 0;                            // least squares over every point
  double steepest = 0;      // for wall the lowest slope the samples allow there
  double from = 0, to = 0;  // the sizes of the steepest segment
  double bound = 0;         // the bound between them
};

struct ContractResult {
  Contract contract;
  Verdict verdict = Verdict::kError;
  std::string message;
  std::vector<InlinedSite> inlined_copies;
  std::vector<CallSite> remaining_calls;
  std::vector<OutOfLineCopy> out_of_line;
  std::optional<uint64_t> size_bytes;
  std::optional<ScalingFit> scaling;

  // "ok      engine::get_varint inlined into ...: 3 inlined copies"
  std::string line() const;
  // Which contract this is, the same across runs: its name, else what it is
  // about ("inline engine::get_varint into engine::BtCursor::seek"). Two
  // results of one contract on two binaries share it.
  std::string key() const;
  // Its name, or its kind when it has none.
  std::string label() const;
  // Whether it concerns `benchmark` (a contract that names none concerns all).
  bool concerns(const std::string& benchmark) const;
  nlohmann::json to_json() const;
};

struct ContractReport {
  std::string binary;
  // Non-empty: the binary could not be read (no DWARF, not ELF), so no
  // contract was checked and `results` is empty.
  std::string error;
  std::vector<ContractResult> results;

  size_t count(Verdict v) const;
  // 0 all hold, 1 some contract is broken, 2 some contract could not be
  // checked (names nothing).
  int exit_code() const;
  nlohmann::json to_json() const;
};

// Reads a "perfci.contracts/1" object as to_json writes it (a report's or a
// baseline's copy). Throws perfci::Error naming `where` and the field.
ContractReport contract_report_from_json(const nlohmann::json& j, const std::string& where);

}  // namespace perfci::contracts
