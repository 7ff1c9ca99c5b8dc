#include "perfci/contracts/contract_config.h"

#include <fstream>
#include <set>

#include <fmt/format.h>

namespace perfci::contracts {
namespace {

using nlohmann::json;

std::string required_string(const json& entry, const std::string& where, const char* key) {
  auto it = entry.find(key);
  if (it == entry.end()) throw ConfigError(fmt::format("{}: missing \"{}\"", where, key));
  if (!it->is_string() || it->get<std::string>().empty())
    throw ConfigError(fmt::format("{}: \"{}\" must be a non-empty string", where, key));
  return it->get<std::string>();
}

std::string optional_string(const json& entry, const std::string& where, const char* key) {
  auto it = entry.find(key);
  if (it == entry.end()) return {};
  if (!it->is_string()) throw ConfigError(fmt::format("{}: \"{}\" must be a string", where, key));
  return it->get<std::string>();
}

Contract parse_one(const json& entry, const std::string& where) {
  if (!entry.is_object()) throw ConfigError(fmt::format("{}: must be an object", where));
  std::string kind = required_string(entry, where, "kind");
  Contract c;
  std::set<std::string> allowed = {"kind", "name", "why", "benchmarks"};
  if (kind == "inline") {
    c.kind = ContractKind::kInline;
    c.caller = required_string(entry, where, "caller");
    c.callee = required_string(entry, where, "callee");
    allowed.insert({"caller", "callee"});
  } else if (kind == "absent") {
    c.kind = ContractKind::kAbsent;
    c.symbol = required_string(entry, where, "symbol");
    allowed.insert("symbol");
  } else if (kind == "layout") {
    c.kind = ContractKind::kLayout;
    c.type = required_string(entry, where, "type");
    auto it = entry.find("max_bytes");
    if (it == entry.end()) throw ConfigError(fmt::format("{}: missing \"max_bytes\"", where));
    if (!it->is_number_unsigned() || it->get<uint64_t>() == 0)
      throw ConfigError(fmt::format("{}: \"max_bytes\" must be a positive integer", where));
    c.max_bytes = it->get<uint64_t>();
    allowed.insert({"type", "max_bytes"});
  } else if (kind == "returns_in_registers") {
    c.kind = ContractKind::kReturnsInRegisters;
    c.function = required_string(entry, where, "function");
    allowed.insert("function");
  } else {
    throw ConfigError(fmt::format(
        "{}: unknown kind \"{}\" (expected inline, absent, layout or returns_in_registers)", where, kind));
  }
  for (const auto& [key, value] : entry.items())
    if (!allowed.count(key)) throw ConfigError(fmt::format("{}: unknown key \"{}\" for kind {}", where, key, kind));
  c.name = optional_string(entry, where, "name");
  c.why = optional_string(entry, where, "why");
  if (auto it = entry.find("benchmarks"); it != entry.end()) {
    if (!it->is_array()) throw ConfigError(fmt::format("{}: \"benchmarks\" must be an array of strings", where));
    for (const auto& b : *it) {
      if (!b.is_string() || b.get<std::string>().empty())
        throw ConfigError(fmt::format("{}: \"benchmarks\" must be an array of non-empty strings", where));
      c.benchmarks.push_back(b.get<std::string>());
    }
  }
  return c;
}

}  // namespace

std::vector<Contract> parse_contracts(const json& config) {
  const json* list = &config;
  if (config.is_object()) {
    auto it = config.find("contracts");
    if (it == config.end()) return {};
    list = &*it;
  }
  if (!list->is_array()) throw ConfigError("\"contracts\" must be an array");
  std::vector<Contract> out;
  for (size_t i = 0; i < list->size(); ++i) out.push_back(parse_one((*list)[i], fmt::format("contracts[{}]", i)));
  return out;
}

std::vector<Contract> load_contracts_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError(fmt::format("cannot read config {}", path));
  json config;
  try {
    config = json::parse(in);
  } catch (const json::parse_error& e) {
    throw ConfigError(fmt::format("{} is not valid JSON: {}", path, e.what()));
  }
  try {
    return parse_contracts(config);
  } catch (const ConfigError& e) {
    throw ConfigError(fmt::format("{}: {}", path, e.what()));
  }
}

}  // namespace perfci::contracts
