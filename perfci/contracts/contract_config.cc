#include "perfci/contracts/contract_config.h"

#include <fmt/format.h>

#include "perfci/util/error.h"
#include "perfci/util/files.h"
#include "perfci/util/json_fields.h"

namespace perfci::contracts {
namespace {

using nlohmann::json;

bool known_order(const std::string& order) {
  return order == "1" || order == "log n" || order == "n" || order == "n log n" || order == "n^2";
}

// Throws perfci::Error in json_fields' wording; parse_contracts turns it into
// a ConfigError.
Contract parse_one(const json& entry, const std::string& where) {
  Fields f(entry, "", where);
  std::string kind = f.str("kind", false);
  Contract c;
  // The required fields first: a misspelt one is reported as missing.
  if (kind == "inline") {
    c.kind = ContractKind::kInline;
    c.caller = f.str("caller", false);
    c.callee = f.str("callee", false);
    f.only({"kind", "name", "why", "benchmarks", "caller", "callee"});
  } else if (kind == "absent") {
    c.kind = ContractKind::kAbsent;
    c.symbol = f.str("symbol", false);
    f.only({"kind", "name", "why", "benchmarks", "symbol"});
  } else if (kind == "layout") {
    c.kind = ContractKind::kLayout;
    c.type = f.str("type", false);
    c.max_bytes = f.positive_count("max_bytes");
    f.only({"kind", "name", "why", "benchmarks", "type", "max_bytes"});
  } else if (kind == "returns_in_registers") {
    c.kind = ContractKind::kReturnsInRegisters;
    c.function = f.str("function", false);
    f.only({"kind", "name", "why", "benchmarks", "function"});
  } else if (kind == "scaling") {
    c.kind = ContractKind::kScaling;
    c.family = f.str("family", false);
    if (f.has("max_exponent") == f.has("order"))
      f.fail("max_exponent", "give either max_exponent or order");
    if (f.has("max_exponent")) c.max_exponent = f.positive("max_exponent");
    if (f.has("order")) {
      c.order = f.str("order", false);
      if (!known_order(c.order))
        f.fail("order", "unknown order \"" + c.order + "\" (1, log n, n, n log n or n^2)");
    }
    if (f.has("tolerance")) c.tolerance = f.positive("tolerance");
    if (f.has("metric")) {
      c.metric = f.str("metric");
      if (c.metric != "callgrind" && c.metric != "wall")
        f.fail("metric", "expected callgrind or wall");
    }
    f.only({"kind", "name", "why", "benchmarks", "family", "max_exponent", "order", "tolerance",
            "metric"});
  } else {
    f.fail("kind", "unknown kind \"" + kind +
                       "\" (expected inline, absent, layout, returns_in_registers or scaling)");
  }
  if (f.has("name")) c.name = f.str("name");
  if (f.has("why")) c.why = f.str("why");
  if (f.has("benchmarks")) c.benchmarks = f.strings("benchmarks", false);
  return c;
}

}  // namespace

std::vector<Contract> parse_contracts(const json& config) {
  try {
    const json* list = &config;
    if (config.is_object()) {
      if (!config.contains("contracts")) return {};
      list = &Fields(config, "", "").array("contracts");
    } else if (!config.is_array()) {
      throw Error("contracts: expected an array");
    }
    std::vector<Contract> out;
    for (size_t i = 0; i < list->size(); ++i)
      out.push_back(parse_one((*list)[i], fmt::format("contracts[{}]", i)));
    return out;
  } catch (const Error& e) {
    throw ConfigError(e.what());
  }
}

std::vector<Contract> load_contracts_file(const std::string& path) {
  json config;
  try {
    config = json::parse(read_file(path));
  } catch (const Error& e) {
    throw ConfigError(e.what());
  } catch (const json::parse_error& e) {
    throw ConfigError(fmt::format("{}: not valid JSON: {}", path, e.what()));
  }
  try {
    return parse_contracts(config);
  } catch (const ConfigError& e) {
    throw ConfigError(fmt::format("{}: {}", path, e.what()));
  }
}

}  // namespace perfci::contracts
