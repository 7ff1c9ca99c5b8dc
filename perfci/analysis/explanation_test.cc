#include "perfci/analysis/explanation.h"

#include <gtest/gtest.h>

#include <tuple>

#include "perfci/analysis/oracle_gap.h"
#include "perfci/analysis/sample_report.h"
#include "perfci/util/error.h"

namespace perfci::analysis {
namespace {

const SymbolChange* find_symbol(const Explanation& e, const std::string& name) {
  for (const auto& s : e.symbols)
    if (s.symbol == name) return &s;
  return nullptr;
}

TEST(Explanation, SymbolsThatAppearedAndGrewWithShares) {
  AbRun run = analysis::testing::sample_run();
  Explanation e = explain(run.benchmarks[0], std::nullopt, std::nullopt);
  EXPECT_EQ(e.source, "callgrind");
  const SymbolChange* varint = find_symbol(e, "decode_varint(unsigned char const*)");
  ASSERT_NE(varint, nullptr);
  EXPECT_EQ(varint->change, "appeared");
  EXPECT_DOUBLE_EQ(varint->cost_b, 2500);  // 25000 Ir over 10 iterations
  EXPECT_NEAR(varint->share_b, 25000.0 / 220000.0, 1e-12);
  // The largest change comes first.
  EXPECT_EQ(e.symbols.front().symbol, varint->symbol);
  const SymbolChange* seek = find_symbol(e, "Cursor::seek(long)");
  ASSERT_NE(seek, nullptr);
  EXPECT_EQ(seek->change, "shrank");
  EXPECT_EQ(find_symbol(e, "memcpy"), nullptr);  // unchanged cost: not worth a line
  bool says_appeared = false;
  for (const auto& n : e.notes)
    says_appeared |= n.find("decode_varint(unsigned char const*) appeared") == 0;
  EXPECT_TRUE(says_appeared);
  // Counter deltas include the deterministic Ir.
  ASSERT_FALSE(e.counters.empty());
  EXPECT_EQ(e.counters[0].metric, "ir");
  EXPECT_NEAR(e.counters[0].change, 0.1, 1e-12);
}

TEST(Explanation, VanishedSymbolAndIpc) {
  BenchmarkRun b;
  b.name = "x";
  using Row = std::tuple<const char*, double, double>;
  for (auto [metric, a, bv] : {Row{"instructions", 1000.0, 1100.0}, Row{"cycles", 500.0, 500.0}}) {
    MetricRun m;
    m.kind = "counters";
    m.metric = metric;
    m.a = {a, a};
    m.b = {bv, bv};
    b.metrics.push_back(m);
  }
  BenchmarkResult ra, rb;
  ra.profile = ProfileResult{"cpu-clock", 100, 0, {{"f", 0.6, 60, ""}, {"g", 0.4, 40, ""}}};
  rb.profile = ProfileResult{"cpu-clock", 100, 0, {{"f", 1.0, 100, ""}}};
  b.detail_a = ra;
  b.detail_b = rb;
  Explanation e = explain(b, std::nullopt, std::nullopt);
  EXPECT_EQ(e.source, "cpu-clock");
  ASSERT_NE(find_symbol(e, "g"), nullptr);
  EXPECT_EQ(find_symbol(e, "g")->change, "vanished");
  EXPECT_EQ(find_symbol(e, "f")->change, "grew");
  const CounterDelta* ipc = nullptr;
  for (const auto& c : e.counters)
    if (c.metric == "ipc") ipc = &c;
  ASSERT_NE(ipc, nullptr);
  EXPECT_DOUBLE_EQ(ipc->a, 2.0);
  EXPECT_DOUBLE_EQ(ipc->b, 2.2);
}

TEST(ContractChanges, OnlyChangedStatusesAndOnlyForTheNamedBenchmarks) {
  Report r = analysis::testing::sample_report();
  ASSERT_EQ(r.contract_changes.size(), 1u);
  EXPECT_EQ(r.contract_changes[0].contract, "varint inlined into seek");
  EXPECT_EQ(r.contract_changes[0].status_a, "ok");
  EXPECT_EQ(r.contract_changes[0].status_b, "broken");
  EXPECT_EQ(contract_changes_for("engine/point_lookup", r.a.contracts, r.b.contracts).size(), 1u);
  EXPECT_TRUE(contract_changes_for("sqlite/point_lookup", r.a.contracts, r.b.contracts).empty());
  ASSERT_TRUE(r.benchmarks[0].explanation);
  EXPECT_EQ(r.benchmarks[0].explanation->contracts.size(), 1u);

  ASSERT_TRUE(r.b.contracts.has_value());
  contracts::ContractReport b = *r.b.contracts;
  b.results.pop_back();
  auto gone = contract_changes(r.a.contracts, b);
  ASSERT_EQ(gone.size(), 2u);
  EXPECT_EQ(gone[0].contract, "layout Cell");
  EXPECT_EQ(gone[0].status_b, "absent");
  EXPECT_TRUE(contract_changes(r.a.contracts, std::nullopt).empty());
}

TEST(OracleGap, EngineOverOracleOnBothSides) {
  Report r = analysis::testing::sample_report();
  ASSERT_EQ(r.oracle_gaps.size(), 2u);
  const OracleGap& wall = r.oracle_gaps[0];
  EXPECT_EQ(wall.workload, "point_lookup");
  EXPECT_EQ(wall.metric, "wall/real_time_ns");
  EXPECT_NEAR(wall.gap_a, 2.0, 1e-9);
  EXPECT_NEAR(wall.gap_b, 2.24, 0.01);
  EXPECT_NEAR(wall.change, 0.12, 0.01);
  EXPECT_EQ(r.oracle_gaps[1].metric, "callgrind/ir");
  EXPECT_NEAR(r.oracle_gaps[1].gap_a, 20000.0 / 9000.0, 1e-12);
}

TEST(OracleGap, PairsFromConfig) {
  auto pairs = oracle_pairs_from_config(
      nlohmann::json::parse(R"({"pairs": [{"a": "fast/", "b": "ref/"}]})"), "p.json");
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].measured, "fast/");
  // No "pairs": no oracle. perfci assumes no project's benchmark names.
  EXPECT_TRUE(oracle_pairs_from_config(nlohmann::json::object(), "p.json").empty());
  EXPECT_THROW(
      oracle_pairs_from_config(nlohmann::json::parse(R"({"pairs": [{"a": "x/"}]})"), "p.json"),
      Error);
  EXPECT_THROW(oracle_pairs_from_config(nlohmann::json::parse(R"({"pairs": {}})"), "p.json"),
               Error);
}

}  // namespace
}  // namespace perfci::analysis
