#include "perfci/contracts/contract_result.h"

#include <gtest/gtest.h>

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
  r.remaining_calls.push_back(
      CallSite{0x4a1f2, "engine::BtCursor::seek", "engine::get_varint", TransferKind::kTailJump, TransferVia::kPlt});
  return r;
}

TEST(ContractResult, LineShowsVerdictKindAndMessage) {
  std::string line = broken_inline().line();
  EXPECT_EQ(line.rfind("BROKEN", 0), 0u) << line;
  EXPECT_NE(line.find("inline"), std::string::npos);
  EXPECT_NE(line.find("engine::get_varint: 1 out-of-line call left in engine::BtCursor::seek at 0x4a1f2"),
            std::string::npos)
      << line;
  ContractResult named = broken_inline();
  named.contract.name = "varint in seek";
  EXPECT_NE(named.line().find("[varint in seek] engine::get_varint: 1 out-of-line"), std::string::npos)
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

}  // namespace
}  // namespace perfci::contracts
