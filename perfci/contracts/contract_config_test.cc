#include "perfci/contracts/contract_config.h"

#include <gtest/gtest.h>

namespace perfci::contracts {
namespace {

using nlohmann::json;

TEST(ContractConfig, ParsesEveryKindFromTheWholeConfig) {
  json config = json::parse(R"({
    "suites": [],
    "contracts": [
      {"kind": "inline", "caller": "engine::BtCursor::seek", "callee": "engine::get_varint",
       "name": "varint in seek", "why": "binary search", "benchmarks": ["engine/point_lookup"]},
      {"kind": "absent", "symbol": "engine::get_varint"},
      {"kind": "layout", "type": "engine::Value", "max_bytes": 24},
      {"kind": "returns_in_registers", "function": "engine::RecordReader::column"}
    ]})");
  std::vector<Contract> c = parse_contracts(config);
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c[0].kind, ContractKind::kInline);
  EXPECT_EQ(c[0].caller, "engine::BtCursor::seek");
  EXPECT_EQ(c[0].callee, "engine::get_varint");
  EXPECT_EQ(c[0].name, "varint in seek");
  EXPECT_EQ(c[0].why, "binary search");
  EXPECT_EQ(c[0].benchmarks, std::vector<std::string>{"engine/point_lookup"});
  EXPECT_EQ(c[1].kind, ContractKind::kAbsent);
  EXPECT_EQ(c[1].symbol, "engine::get_varint");
  EXPECT_EQ(c[2].kind, ContractKind::kLayout);
  EXPECT_EQ(c[2].type, "engine::Value");
  EXPECT_EQ(c[2].max_bytes, 24u);
  EXPECT_EQ(c[3].kind, ContractKind::kReturnsInRegisters);
  EXPECT_EQ(c[3].function, "engine::RecordReader::column");
}

TEST(ContractConfig, AcceptsTheBareArrayAndAConfigWithoutContracts) {
  EXPECT_EQ(parse_contracts(json::parse(R"([{"kind": "absent", "symbol": "f"}])")).size(), 1u);
  EXPECT_TRUE(parse_contracts(json::parse(R"({"suites": []})")).empty());
}

void expect_error(const char* text, const std::string& fragment) {
  try {
    parse_contracts(json::parse(text));
    ADD_FAILURE() << "no error for " << text;
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(ContractConfig, RejectsBadEntriesWithTheirPlace) {
  expect_error(R"({"contracts": {}})", "must be an array");
  expect_error(R"({"contracts": [42]})", "contracts[0]: must be an object");
  expect_error(R"({"contracts": [{"caller": "a"}]})", "contracts[0]: missing \"kind\"");
  expect_error(R"({"contracts": [{"kind": "inlined", "caller": "a", "callee": "b"}]})", "unknown kind \"inlined\"");
  expect_error(R"({"contracts": [{"kind": "absent", "symbol": "a"}, {"kind": "inline", "caller": "a"}]})",
               "contracts[1]: missing \"callee\"");
  expect_error(R"({"contracts": [{"kind": "inline", "caller": "a", "calee": "b"}]})", "missing \"callee\"");
  expect_error(R"({"contracts": [{"kind": "inline", "caller": "a", "callee": "b", "calee": "b"}]})",
               "unknown key \"calee\"");
  expect_error(R"({"contracts": [{"kind": "inline", "caller": "", "callee": "b"}]})", "non-empty string");
  expect_error(R"({"contracts": [{"kind": "layout", "type": "T"}]})", "missing \"max_bytes\"");
  expect_error(R"({"contracts": [{"kind": "layout", "type": "T", "max_bytes": -3}]})", "positive integer");
  expect_error(R"({"contracts": [{"kind": "layout", "type": "T", "max_bytes": "24"}]})", "positive integer");
  expect_error(R"({"contracts": [{"kind": "layout", "type": "T", "max_bytes": 0}]})", "positive integer");
  expect_error(R"({"contracts": [{"kind": "absent", "symbol": "f", "benchmarks": "b"}]})", "array of strings");
  expect_error(R"({"contracts": [{"kind": "absent", "symbol": "f", "benchmarks": [1]}]})", "non-empty strings");
  expect_error(R"({"contracts": [{"kind": "absent", "symbol": "f", "why": 3}]})", "\"why\" must be a string");
}

TEST(ContractConfig, FileErrorsNameTheFile) {
  try {
    load_contracts_file("/nonexistent/perfci.json");
    ADD_FAILURE();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/perfci.json"), std::string::npos);
  }
}

}  // namespace
}  // namespace perfci::contracts
