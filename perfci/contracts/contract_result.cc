#include "perfci/contracts/contract_result.h"

#include <fmt/format.h>

#include <initializer_list>

#include "perfci/util/json_fields.h"

namespace perfci::contracts {
namespace {

std::string hex(uint64_t v) { return fmt::format("{:#x}", v); }

std::string_view transfer_kind_name(TransferKind k) {
  return k == TransferKind::kCall ? "call" : "tail_jump";
}

std::string_view via_name(TransferVia v) {
  switch (v) {
    case TransferVia::kDirect:
      return "direct";
    case TransferVia::kPlt:
      return "plt";
    case TransferVia::kGot:
      return "got";
  }
  return "direct";
}

std::uint64_t parse_hex(const Fields& f, const nlohmann::json& v, const char* what) {
  if (!v.is_string()) f.fail(what, "expected a hex address string");
  const std::string& s = v.get_ref<const std::string&>();
  std::size_t used = 0;
  std::uint64_t out = 0;
  try {
    out = std::stoull(s, &used, 16);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != s.size()) f.fail(what, "expected a hex address, got \"" + s + "\"");
  return out;
}

// The value of `values` whose name (as `name_of` writes it) is the field's
// text: the reader takes its words from the writer, so the two cannot drift.
template <typename E, typename NameOf>
E parse_word(const Fields& f, const char* key, std::initializer_list<E> values, NameOf name_of) {
  std::string text = f.str(key);
  for (E value : values)
    if (name_of(value) == text) return value;
  f.fail(key, "unknown value \"" + text + "\"");
}

ContractResult result_from_json(const nlohmann::json& j, const std::string& where) {
  Fields f(j, where);
  ContractResult r;
  Contract& c = r.contract;
  c.kind = parse_word(f, "kind",
                      {ContractKind::kInline, ContractKind::kAbsent, ContractKind::kLayout,
                       ContractKind::kReturnsInRegisters, ContractKind::kScaling},
                      kind_name);
  if (f.has("name")) c.name = f.str("name");
  if (f.has("why")) c.why = f.str("why");
  for (const auto& b : f.array("benchmarks")) {
    if (!b.is_string()) f.fail("benchmarks", "expected strings");
    c.benchmarks.push_back(b.get<std::string>());
  }
  switch (c.kind) {
    case ContractKind::kInline:
      c.caller = f.str("caller");
      c.callee = f.str("callee");
      break;
    case ContractKind::kAbsent:
      c.symbol = f.str("symbol");
      break;
    case ContractKind::kLayout:
      c.type = f.str("type");
      c.max_bytes = f.count("max_bytes");
      break;
    case ContractKind::kReturnsInRegisters:
      c.function = f.str("function");
      break;
    case ContractKind::kScaling:
      c.family = f.str("family", false);
      if (f.has("max_exponent")) c.max_exponent = f.num("max_exponent");
      if (f.has("order")) c.order = f.str("order");
      if (f.has("tolerance")) c.tolerance = f.num("tolerance");
      c.metric = f.str("metric");
      break;
  }
  r.verdict =
      parse_word(f, "status", {Verdict::kOk, Verdict::kBroken, Verdict::kError}, verdict_name);
  r.message = f.str("message");
  if (c.kind == ContractKind::kInline) {
    const nlohmann::json& copies = f.array("inlined_copies");
    for (std::size_t i = 0; i < copies.size(); ++i) {
      Fields cf(copies[i], where + ".inlined_copies[" + std::to_string(i) + "]");
      InlinedSite site;
      site.function = cf.str("function");
      site.depth = static_cast<uint16_t>(cf.count("depth"));
      for (const auto& range : cf.array("ranges")) {
        if (!range.is_array() || range.size() != 2) cf.fail("ranges", "expected [lo, hi] pairs");
        site.ranges.push_back(
            {parse_hex(cf, range[0], "ranges"), parse_hex(cf, range[1], "ranges")});
      }
      r.inlined_copies.push_back(std::move(site));
    }
    const nlohmann::json& calls = f.array("remaining_calls");
    for (std::size_t i = 0; i < calls.size(); ++i) {
      Fields cf(calls[i], where + ".remaining_calls[" + std::to_string(i) + "]");
      CallSite call;
      call.address = parse_hex(cf, cf.at("address"), "address");
      call.in_function = cf.str("in");
      call.target = cf.str("to");
      call.kind = parse_word(cf, "kind", {TransferKind::kCall, TransferKind::kTailJump},
                             transfer_kind_name);
      call.via = parse_word(cf, "via", {TransferVia::kDirect, TransferVia::kPlt, TransferVia::kGot},
                            via_name);
      r.remaining_calls.push_back(std::move(call));
    }
  }
  if (c.kind == ContractKind::kAbsent) {
    const nlohmann::json& copies = f.array("out_of_line");
    for (std::size_t i = 0; i < copies.size(); ++i) {
      Fields cf(copies[i], where + ".out_of_line[" + std::to_string(i) + "]");
      r.out_of_line.push_back(
          {cf.str("symbol"), parse_hex(cf, cf.at("address"), "address"), cf.count("size")});
    }
  }
  if (f.has("size_bytes")) r.size_bytes = f.count("size_bytes");
  if (f.has("scaling")) {
    Fields sf(f.object("scaling"), f.where("scaling"));
    ScalingFit fit;
    fit.metric = sf.str("metric", false);
    for (const auto& p : sf.array("points")) {
      if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number())
        sf.fail("points", "expected [n, cost] pairs of numbers");
      fit.points.emplace_back(p[0].get<double>(), p[1].get<double>());
    }
    fit.exponent = sf.num("exponent");
    fit.steepest = sf.num("steepest");
    const nlohmann::json& between = sf.array("between");
    if (between.size() != 2 || !between[0].is_number() || !between[1].is_number())
      sf.fail("between", "expected [from, to]");
    fit.from = between[0].get<double>();
    fit.to = between[1].get<double>();
    fit.bound = sf.num("bound");
    r.scaling = std::move(fit);
  }
  return r;
}

}  // namespace

ContractReport contract_report_from_json(const nlohmann::json& j, const std::string& where) {
  Fields f(j, where);
  if (f.str("schema") != "perfci.contracts/1") f.fail("schema", "expected \"perfci.contracts/1\"");
  ContractReport report;
  report.binary = f.str("binary");
  if (f.has("error")) report.error = f.str("error", false);
  const nlohmann::json& list = f.array("contracts");
  for (std::size_t i = 0; i < list.size(); ++i)
    report.results.push_back(
        result_from_json(list[i], where + ".contracts[" + std::to_string(i) + "]"));
  if (!report.error.empty() && !report.results.empty())
    f.fail("contracts", "expected none beside an error");
  return report;
}

std::string ContractResult::key() const {
  if (!contract.name.empty()) return contract.name;
  switch (contract.kind) {
    case ContractKind::kInline:
      return "inline " + contract.callee + " into " + contract.caller;
    case ContractKind::kAbsent:
      return "absent " + contract.symbol;
    case ContractKind::kLayout:
      return "layout " + contract.type;
    case ContractKind::kReturnsInRegisters:
      return "returns_in_registers " + contract.function;
    case ContractKind::kScaling:
      return "scaling " + contract.family;
  }
  return std::string(kind_name(contract.kind));
}

std::string ContractResult::label() const {
  return contract.name.empty() ? std::string(kind_name(contract.kind)) : contract.name;
}

bool ContractResult::concerns(const std::string& benchmark) const {
  // A scaling contract is about its family, "<family>/<n>".
  if (contract.benchmarks.empty() && contract.measured())
    return benchmark.rfind(contract.family + "/", 0) == 0;
  if (contract.benchmarks.empty()) return true;
  for (const auto& b : contract.benchmarks)
    if (b == benchmark) return true;
  return false;
}

std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kOk:
      return "ok";
    case Verdict::kBroken:
      return "broken";
    case Verdict::kError:
      return "error";
  }
  return "error";
}

std::string ContractResult::line() const {
  std::string_view tag = verdict == Verdict::kOk       ? "ok"
                         : verdict == Verdict::kBroken ? "BROKEN"
                                                       : "ERROR";
  // Messages name their subjects; a contract's own name, when given, leads.
  if (!contract.name.empty())
    return fmt::format("{:<7} {:<21} [{}] {}", tag, kind_name(contract.kind), contract.name,
                       message);
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
    case ContractKind::kAbsent:
      j["symbol"] = contract.symbol;
      break;
    case ContractKind::kLayout:
      j["type"] = contract.type;
      j["max_bytes"] = contract.max_bytes;
      break;
    case ContractKind::kReturnsInRegisters:
      j["function"] = contract.function;
      break;
    case ContractKind::kScaling:
      j["family"] = contract.family;
      if (contract.order.empty())
        j["max_exponent"] = contract.max_exponent;
      else
        j["order"] = contract.order;
      j["tolerance"] = contract.tolerance;
      j["metric"] = contract.metric;
      break;
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
  if (scaling) {
    nlohmann::json points = nlohmann::json::array();
    for (const auto& [n, v] : scaling->points) points.push_back({n, v});
    j["scaling"] = {{"metric", scaling->metric},
                    {"points", points},
                    {"exponent", scaling->exponent},
                    {"steepest", scaling->steepest},
                    {"between", {scaling->from, scaling->to}},
                    {"bound", scaling->bound}};
  }
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
  if (!error.empty()) {
    // Nothing was checked: no summary, which would count zero contracts.
    j["error"] = error;
    j["contracts"] = nlohmann::json::array();
    return j;
  }
  j["summary"] = {{"ok", count(Verdict::kOk)},
                  {"broken", count(Verdict::kBroken)},
                  {"error", count(Verdict::kError)}};
  nlohmann::json list = nlohmann::json::array();
  for (const auto& r : results) list.push_back(r.to_json());
  j["contracts"] = list;
  return j;
}

}  // namespace perfci::contracts
