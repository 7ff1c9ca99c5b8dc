#include "perfci/analysis/ab_shard_merge.h"

#include <gtest/gtest.h>

#include "perfci/stats/outcome.h"
#include "perfci/stats/run_analysis.h"
#include "perfci/stats/stats_json.h"
#include "perfci/util/error.h"

namespace perfci::analysis {
namespace {

// Six pairs, B above A in every one: the exact two-sided signed-rank
// p-value is 2/64 = 0.03125.
const std::vector<double> kA{100, 100, 100, 100, 100, 100};
const std::vector<double> kUp{110, 111, 109, 112, 108, 110};
// Symmetric around A: p close to 1.
const std::vector<double> kFlat{101, 99, 102, 98, 103, 97};

struct Bench {
  std::string name;
  const std::vector<double>* b;
};

// Part k of `plan`, analysed as its own run would be (one BH family per
// part); its suspects are confirmed by fresh pairs that agree.
ReportPart part(int k, const ShardPlan& plan, const std::vector<Bench>& benches) {
  Report r;
  r.mode = "ab";
  r.a.commit = "aaaa";
  r.b.commit = "bbbb";
  r.seed = 1;
  r.pairs = 6;
  r.order = "AB";
  stats::RunAnalysisOptions options;
  r.settings = {{"command", "ab"},
                {"analysis", options},
                {"oracle_pairs", nlohmann::json::array()},
                {"shard", std::to_string(k) + "/" + std::to_string(plan.count)}};
  r.shard = ShardSection{{k, plan.count}, plan};
  std::vector<stats::MetricSamples> samples;
  for (const auto& b : benches) samples.push_back({b.name, "wall/real_time_ns", {}, kA, *b.b});
  auto outcomes = stats::analyze_run(samples, options);
  for (std::size_t i = 0; i < benches.size(); ++i) {
    MetricRun m;
    m.kind = "wall";
    m.metric = "real_time_ns";
    m.a = kA;
    m.b = *benches[i].b;
    m.comparison = outcomes[i].comparison;
    m.q_value = outcomes[i].q_value;
    m.first_decision = outcomes[i].decision;
    m.decision = m.first_decision;
    if (stats::needs_confirmation(m.policy, m.first_decision)) {
      m.confirmation = Confirmation{kA, *benches[i].b, m.comparison, m.q_value, m.first_decision};
      m.decision = stats::confirm(m.first_decision, m.first_decision, 6);
    }
    BenchmarkReport br;
    br.run.name = benches[i].name;
    br.run.metrics.push_back(std::move(m));
    r.benchmarks.push_back(std::move(br));
  }
  return {"ab" + std::to_string(k) + ".json", r};
}

ShardPlan plan_of(const std::vector<std::vector<std::string>>& shards) {
  ShardPlan p;
  p.count = static_cast<int>(shards.size());
  for (std::size_t k = 0; k < shards.size(); ++k)
    for (const auto& n : shards[k]) p.entries.push_back({n, static_cast<int>(k) + 1, {1, "none"}});
  return p;
}

const MetricRun& metric(const Report& r, const std::string& name) {
  for (const auto& b : r.benchmarks)
    if (b.run.name == name) return b.run.metrics.at(0);
  throw std::runtime_error("no benchmark " + name);
}

TEST(MergeAbParts, ASuspectOfItsPartIsNoLongerOneInTheWholeFamily) {
  // x alone in part 1: q = p = 0.031, a confirmed regression there. Among
  // five flat benchmarks of part 2 its q is 6 x 0.031: not significant.
  std::vector<std::string> flat{"f1", "f2", "f3", "f4", "f5"};
  ShardPlan plan = plan_of({{"x"}, flat});
  std::vector<Bench> part2;
  for (const auto& f : flat) part2.push_back({f, &kFlat});
  ReportPart p1 = part(1, plan, {{"x", &kUp}});
  ASSERT_EQ(metric(p1.report, "x").decision.verdict, stats::Verdict::kRegressed);
  Report r = merge_ab_parts({p1, part(2, plan, part2)});
  const MetricRun& x = metric(r, "x");
  EXPECT_NEAR(*x.q_value, 6 * 0.03125, 1e-9);
  EXPECT_NE(x.decision.verdict, stats::Verdict::kRegressed) << x.decision.reason;
  EXPECT_FALSE(x.confirmation);
  EXPECT_EQ(r.counts.regressed, 0);
  EXPECT_EQ(r.benchmarks.size(), 6u);
  EXPECT_EQ(r.benchmarks.front().run.name, "x");
}

TEST(MergeAbParts, ASuspectOnlyOfTheWholeFamilyIsNotClaimedWithoutConfirmation) {
  // Part 1: x beside a flat y, q(x) = 2 x 0.031 = 0.0625: no suspect, no
  // confirmation. Part 2: eight more like x. Together q(x) = 10/9 x 0.031.
  std::vector<std::string> ups{"u1", "u2", "u3", "u4", "u5", "u6", "u7", "u8"};
  ShardPlan plan = plan_of({{"x", "y"}, ups});
  std::vector<Bench> part2;
  for (const auto& u : ups) part2.push_back({u, &kUp});
  ReportPart p1 = part(1, plan, {{"x", &kUp}, {"y", &kFlat}});
  ASSERT_FALSE(metric(p1.report, "x").confirmation);
  ASSERT_NE(metric(p1.report, "x").decision.verdict, stats::Verdict::kRegressed);
  Report r = merge_ab_parts({part(2, plan, part2), p1});
  const MetricRun& x = metric(r, "x");
  EXPECT_NEAR(*x.q_value, 0.03125 * 10 / 9, 1e-9);
  EXPECT_EQ(x.first_decision.verdict, stats::Verdict::kRegressed);
  EXPECT_EQ(x.decision.verdict, stats::Verdict::kNoisy);
  EXPECT_NE(x.decision.reason.find("a suspect only across all shards"), std::string::npos)
      << x.decision.reason;
  // The eight were suspects of their part and confirmed there: they stand.
  EXPECT_EQ(metric(r, "u1").decision.verdict, stats::Verdict::kRegressed);
  EXPECT_EQ(r.counts.regressed, 8);
  EXPECT_EQ(r.exit_code(), 1);
  ASSERT_TRUE(r.merged);
  EXPECT_EQ(r.merged->parts.size(), 2u);
  EXPECT_EQ(r.merged->parts[0].index, 1);
}

TEST(MergeAbParts, RefusesPartsOfAnotherRun) {
  ShardPlan plan = plan_of({{"x"}, {"y"}});
  ReportPart other = part(2, plan, {{"y", &kFlat}});
  other.report.b.commit = "cccc";
  try {
    merge_ab_parts({part(1, plan, {{"x", &kUp}}), other});
    ADD_FAILURE() << "merged two runs";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("side B"), std::string::npos) << e.what();
  }
  ReportPart reseeded = part(2, plan, {{"y", &kFlat}});
  reseeded.report.seed = 7;
  EXPECT_THROW(merge_ab_parts({part(1, plan, {{"x", &kUp}}), reseeded}), Error);
  ReportPart check = part(2, plan, {{"y", &kFlat}});
  check.report.mode = "check";
  EXPECT_THROW(merge_ab_parts({part(1, plan, {{"x", &kUp}}), check}), Error);
  EXPECT_THROW(merge_ab_parts({part(1, plan, {{"x", &kUp}})}), Error);  // 2/2 missing
}

}  // namespace
}  // namespace perfci::analysis
