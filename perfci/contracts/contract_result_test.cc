#include "perfci/contracts/contract_result.h"

#include <gtest/gtest.h>

#include "perfci/util/error.h"

namespace perfci::contracts {
namespace {

ContractResult broken_inline() {
  ContractResult r;
  r.contract.kind = ContractKind::kInline;
  r.contract.caller = "engine::BtCursor::seek";
  r.contract.callee = "engine::get_varint";
  r.contract.benchmarks = {"engine/point_lookup"};
  r.verdict = Verdict::kBroken;
  r.message = "engine::get_varint: 1 out-of-line call left in engine::BtCursor::seek at 0x4a1f2";
  r.inlined_copies.push_back(InlinedSite{"engine::BtCursor::seek", 1, {{0x4a100, 0x4a120}}});
  r.remaining_calls.push_back(CallSite{0x4a1f2, "engine::BtCursor::seek", "engine::get_varint",
                                       TransferKind::kTailJump, TransferVia::kPlt});
  return r;
}

TEST(ContractResult, LineShowsVerdictKindAndMessage) {
  std::string line = broken_inline().line();
  EXPECT_EQ(line.rfind("BROKEN", 0), 0u) << line;
  EXPECT_NE(line.find("inline"), std::string::npos);
  EXPECT_NE(
      line.find("engine::get_varint: 1 out-of-line call left in engine::BtCursor::seek at 0x4a1f2"),
      std::string::npos)
      << line;
  ContractResult named = broken_inline();
  named.contract.name = "varint in seek";
  EXPECT_NE(named.line().find("[varint in seek] engine::get_varint: 1 out-of-line"),
            std::string::npos)
      << named.line();
}

TEST(ContractResult, JsonCarriesSitesAndBenchmarks) {
  nlohmann::json j = broken_inline().to_json();
  EXPECT_EQ(j["kind"], "inline");
  EXPECT_EQ(j["status"], "broken");
  EXPECT_EQ(j["caller"], "engine::BtCursor::seek");
  EXPECT_EQ(j["benchmarks"][0], "engine/point_lookup");
  EXPECT_EQ(j["inlined_copies"][0]["ranges"][0][0], "0x4a100");
  EXPECT_EQ(j["inlined_copies"][0]["ranges"][0][1], "0x4a120");
  EXPECT_EQ(j["remaining_calls"][0]["address"], "0x4a1f2");
  EXPECT_EQ(j["remaining_calls"][0]["kind"], "tail_jump");
  EXPECT_EQ(j["remaining_calls"][0]["via"], "plt");
  EXPECT_FALSE(j.contains("out_of_line"));
}

TEST(ContractReport, ExitCodeAndSummary) {
  ContractReport report;
  report.binary = "bench";
  ContractResult ok;
  ok.contract.kind = ContractKind::kLayout;
  ok.contract.type = "engine::Value";
  ok.contract.max_bytes = 24;
  ok.verdict = Verdict::kOk;
  ok.size_bytes = 24;
  report.results.push_back(ok);
  EXPECT_EQ(report.exit_code(), 0);
  report.results.push_back(broken_inline());
  EXPECT_EQ(report.exit_code(), 1);
  nlohmann::json j = report.to_json();
  EXPECT_EQ(j["schema"], "perfci.contracts/1");
  EXPECT_EQ(j["summary"]["ok"], 1);
  EXPECT_EQ(j["summary"]["broken"], 1);
  EXPECT_EQ(j["contracts"][0]["size_bytes"], 24);
  EXPECT_EQ(j["contracts"][0]["max_bytes"], 24);
  ContractResult error;
  error.verdict = Verdict::kError;
  report.results.push_back(error);
  EXPECT_EQ(report.exit_code(), 2);
}

// A report's or a baseline's copy of the results reads back as the results
// themselves: the typed results are what check and the renderings use.
TEST(ContractReport, JsonReadsBackToTheSameResults) {
  ContractReport report;
  report.binary = "build/release/engine_bench";
  ContractResult named = broken_inline();
  named.contract.name = "varint in seek";
  named.contract.why = "the hottest loop";
  report.results.push_back(named);
  ContractResult absent;
  absent.contract.kind = ContractKind::kAbsent;
  absent.contract.symbol = "engine::decode*";
  absent.verdict = Verdict::kBroken;
  absent.message = "1 out-of-line copy";
  absent.out_of_line.push_back({"engine::decode_cell() [clone .cold]", 0x5000, 48});
  report.results.push_back(absent);
  ContractResult layout;
  layout.contract.kind = ContractKind::kLayout;
  layout.contract.type = "engine::Value";
  layout.contract.max_bytes = 24;
  layout.verdict = Verdict::kOk;
  layout.message = "16 bytes";
  layout.size_bytes = 16;
  report.results.push_back(layout);
  ContractResult returns;
  returns.contract.kind = ContractKind::kReturnsInRegisters;
  returns.contract.function = "engine::key_of";
  returns.verdict = Verdict::kError;
  returns.message = "names no function";
  report.results.push_back(returns);

  nlohmann::json j = report.to_json();
  ContractReport back = contract_report_from_json(j, "r.json");
  EXPECT_EQ(back.to_json(), j);
  ASSERT_EQ(back.results.size(), 4u);
  EXPECT_EQ(back.results[0].key(), "varint in seek");
  EXPECT_EQ(back.results[1].key(), "absent engine::decode*");
  EXPECT_EQ(back.results[2].label(), "layout");
  EXPECT_EQ(back.results[0].remaining_calls[0].via, TransferVia::kPlt);
  EXPECT_EQ(back.results[0].inlined_copies[0].ranges[0].hi, 0x4a120u);
  EXPECT_TRUE(back.results[0].concerns("engine/point_lookup"));
  EXPECT_FALSE(back.results[0].concerns("sqlite/point_lookup"));
  EXPECT_TRUE(back.results[1].concerns("anything"));  // names no benchmark: concerns all
  EXPECT_EQ(back.exit_code(), 2);

  ContractReport unreadable;
  unreadable.binary = "a.out";
  unreadable.error = "no DWARF debug info";
  nlohmann::json u = unreadable.to_json();
  EXPECT_FALSE(u.contains("summary"));  // nothing was checked: no count of zero
  EXPECT_EQ(contract_report_from_json(u, "u.json").error, "no DWARF debug info");
}

TEST(ContractReport, MalformedJsonIsAClearError) {
  ContractReport report;
  report.binary = "b";
  report.results.push_back(broken_inline());
  const nlohmann::json good = report.to_json();
  auto error_of = [](const nlohmann::json& j) -> std::string {
    try {
      contract_report_from_json(j, "r.json: contracts");
    } catch (const Error& e) {
      return e.what();
    }
    return "accepted";
  };
  auto bad_schema = good;
  bad_schema["schema"] = "perfci.contracts/2";
  EXPECT_EQ(error_of(bad_schema), "r.json: contracts.schema: expected \"perfci.contracts/1\"");
  auto bad_status = good;
  bad_status["contracts"][0]["status"] = "BROKEN";
  EXPECT_EQ(error_of(bad_status),
            "r.json: contracts.contracts[0].status: unknown value \"BROKEN\"");
  auto bad_address = good;
  bad_address["contracts"][0]["remaining_calls"][0]["address"] = "0xzz";
  EXPECT_EQ(
      error_of(bad_address),
      "r.json: contracts.contracts[0].remaining_calls[0].address: expected a hex address, got "
      "\"0xzz\"");
  auto no_caller = good;
  no_caller["contracts"][0].erase("caller");
  EXPECT_EQ(error_of(no_caller), "r.json: contracts.contracts[0].caller: missing");
  auto both = good;
  both["error"] = "no DWARF";
  EXPECT_EQ(error_of(both), "r.json: contracts.contracts: expected none beside an error");
}

}  // namespace
}  // namespace perfci::contracts
