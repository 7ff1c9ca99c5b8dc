#include "perfci/contracts/contract_result.h"

#include <fmt/format.h>

namespace perfci::contracts {
namespace {

std::string hex(uint64_t v) { return fmt::format("{:#x}", v); }

std::string_view transfer_kind_name(TransferKind k) { return k == TransferKind::kCall ? "call" : "tail_jump"; }

std::string_view via_name(TransferVia v) {
  switch (v) {
    case TransferVia::kDirect: return "direct";
    case TransferVia::kPlt: return "plt";
    case TransferVia::kGot: return "got";
  }
  return "direct";
}

}  // namespace

std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kOk: return "ok";
    case Verdict::kBroken: return "broken";
    case Verdict::kError: return "error";
  }
  return "error";
}

std::string ContractResult::line() const {
  std::string_view tag = verdict == Verdict::kOk ? "ok" : verdict == Verdict::kBroken ? "BROKEN" : "ERROR";
  // Messages name their subjects; a contract's own name, when given, leads.
  if (!contract.name.empty()) return fmt::format("{:<7} {:<21} [{}] {}", tag, kind_name(contract.kind), contract.name, message);
  return fmt::format("{:<7} {:<21} {}", tag, kind_name(contract.kind), message);
}

nlohmann::json ContractResult::to_json() const {
  nlohmann::json j;
  j["kind"] = kind_name(contract.kind);
  if (!contract.name.empty()) j["name"] = contract.name;
  if (!contract.why.empty()) j["why"] = contract.why;
  j["benchmarks"] = contract.benchmarks;
  switch (contract.kind) {
    case ContractKind::kInline:
      j["caller"] = contract.caller;
      j["callee"] = contract.callee;
      break;
    case ContractKind::kAbsent: j["symbol"] = contract.symbol; break;
    case ContractKind::kLayout:
      j["type"] = contract.type;
      j["max_bytes"] = contract.max_bytes;
      break;
    case ContractKind::kReturnsInRegisters: j["function"] = contract.function; break;
  }
  j["status"] = verdict_name(verdict);
  j["message"] = message;
  if (contract.kind == ContractKind::kInline) {
    nlohmann::json copies = nlohmann::json::array();
    for (const auto& c : inlined_copies) {
      nlohmann::json ranges = nlohmann::json::array();
      for (const auto& r : c.ranges) ranges.push_back({hex(r.lo), hex(r.hi)});
      copies.push_back({{"function", c.function}, {"depth", c.depth}, {"ranges", ranges}});
    }
    j["inlined_copies"] = copies;
    nlohmann::json calls = nlohmann::json::array();
    for (const auto& c : remaining_calls)
      calls.push_back({{"address", hex(c.address)},
                       {"in", c.in_function},
                       {"to", c.target},
                       {"kind", transfer_kind_name(c.kind)},
                       {"via", via_name(c.via)}});
    j["remaining_calls"] = calls;
  }
  if (contract.kind == ContractKind::kAbsent) {
    nlohmann::json copies = nlohmann::json::array();
    for (const auto& c : out_of_line)
      copies.push_back({{"symbol", c.symbol}, {"address", hex(c.address)}, {"size", c.size}});
    j["out_of_line"] = copies;
  }
  if (size_bytes) j["size_bytes"] = *size_bytes;
  return j;
}

size_t ContractReport::count(Verdict v) const {
  size_t n = 0;
  for (const auto& r : results) n += r.verdict == v ? 1 : 0;
  return n;
}

int ContractReport::exit_code() const {
  if (count(Verdict::kError) > 0) return 2;
  return count(Verdict::kBroken) > 0 ? 1 : 0;
}

nlohmann::json ContractReport::to_json() const {
  nlohmann::json j;
  j["schema"] = "perfci.contracts/1";
  j["binary"] = binary;
  j["summary"] = {{"ok", count(Verdict::kOk)}, {"broken", count(Verdict::kBroken)}, {"error", count(Verdict::kError)}};
  nlohmann::json list = nlohmann::json::array();
  for (const auto& r : results) list.push_back(r.to_json());
  j["contracts"] = list;
  return j;
}

}  // namespace perfci::contracts
