#include "perfci/contracts/contract_config.h"

#include <gtest/gtest.h>

#include "perfci/util/files.h"

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
  expect_error(R"({"contracts": {}})", "contracts: expected an array");
  expect_error(R"({"contracts": [42]})", "contracts[0]: expected an object");
  expect_error(R"({"contracts": [{"caller": "a"}]})", "contracts[0].kind: missing");
  expect_error(R"({"contracts": [{"kind": "inlined", "caller": "a", "callee": "b"}]})",
               "contracts[0].kind: unknown kind \"inlined\"");
  expect_error(
      R"({"contracts": [{"kind": "absent", "symbol": "a"}, {"kind": "inline", "caller": "a"}]})",
      "contracts[1].callee: missing");
  expect_error(R"({"contracts": [{"kind": "inline", "caller": "a", "calee": "b"}]})",
               "contracts[0].callee: missing");
  expect_error(R"({"contracts": [{"kind": "inline", "caller": "a", "callee": "b", "calee": "b"}]})",
               "contracts[0].calee: unknown field");
  expect_error(R"({"contracts": [{"kind": "inline", "caller": "", "callee": "b"}]})",
               "contracts[0].caller: expected a non-empty string");
  expect_error(R"({"contracts": [{"kind": "layout", "type": "T"}]})",
               "contracts[0].max_bytes: missing");
  expect_error(R"({"contracts": [{"kind": "layout", "type": "T", "max_bytes": -3}]})",
               "contracts[0].max_bytes: expected a positive integer");
  expect_error(R"({"contracts": [{"kind": "layout", "type": "T", "max_bytes": "24"}]})",
               "contracts[0].max_bytes: expected a positive integer");
  expect_error(R"({"contracts": [{"kind": "layout", "type": "T", "max_bytes": 0}]})",
               "contracts[0].max_bytes: expected a positive integer");
  expect_error(R"({"contracts": [{"kind": "absent", "symbol": "f", "benchmarks": "b"}]})",
               "contracts[0].benchmarks: expected an array of strings");
  expect_error(R"({"contracts": [{"kind": "absent", "symbol": "f", "benchmarks": [1]}]})",
               "contracts[0].benchmarks: expected an array of strings");
  expect_error(R"({"contracts": [{"kind": "absent", "symbol": "f", "benchmarks": ["a", ""]}]})",
               "contracts[0].benchmarks[1]: expected a non-empty string");
  expect_error(R"({"contracts": [{"kind": "absent", "symbol": "f", "why": 3}]})",
               "contracts[0].why: expected a string");
}

TEST(ContractConfig, ScalingContracts) {
  auto list = parse_contracts(nlohmann::json::parse(R"({"contracts": [
    {"kind": "scaling", "family": "engine/drain", "max_exponent": 1.15},
    {"kind": "scaling", "family": "engine/sort", "order": "n log n", "tolerance": 0.1,
     "metric": "wall", "name": "sort"}]})"));
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].kind, ContractKind::kScaling);
  EXPECT_TRUE(list[0].measured());
  EXPECT_EQ(list[0].max_exponent, 1.15);
  EXPECT_EQ(list[0].metric, "callgrind");
  EXPECT_EQ(list[1].order, "n log n");
  EXPECT_EQ(list[1].tolerance, 0.1);
  EXPECT_EQ(list[1].metric, "wall");
  EXPECT_EQ(list[1].describe(), "engine/sort/n grows at most as n log n");
  expect_error(R"({"contracts": [{"kind": "scaling", "max_exponent": 1}]})",
               "contracts[0].family: missing");
  expect_error(R"({"contracts": [{"kind": "scaling", "family": "f"}]})",
               "contracts[0].max_exponent: give either max_exponent or order");
  expect_error(R"({"contracts": [{"kind": "scaling", "family": "f", "max_exponent": 1,
                                  "order": "n"}]})",
               "give either max_exponent or order");
  expect_error(R"({"contracts": [{"kind": "scaling", "family": "f", "order": "n^3"}]})",
               "contracts[0].order: unknown order \"n^3\"");
  expect_error(R"({"contracts": [{"kind": "scaling", "family": "f", "max_exponent": -1}]})",
               "contracts[0].max_exponent: expected a positive number");
  expect_error(R"({"contracts": [{"kind": "scaling", "family": "f", "order": "n",
                                  "metric": "counters"}]})",
               "contracts[0].metric: expected callgrind or wall");
}

TEST(ContractConfig, FileErrorsNameTheFile) {
  try {
    load_contracts_file("/nonexistent/perfci.json");
    ADD_FAILURE();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/perfci.json"), std::string::npos);
  }
  TempDir dir("perfci-contracts");
  const std::string path = (dir.path() / "perfci.json").string();
  write_file_atomic(path, R"({"contracts": [{"kind": "absent"}]})");
  try {
    load_contracts_file(path);
    ADD_FAILURE();
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": contracts[0].symbol: missing");
  }
  write_file_atomic(path, "{");
  try {
    load_contracts_file(path);
    ADD_FAILURE();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(path + ": not valid JSON"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace perfci::contracts
