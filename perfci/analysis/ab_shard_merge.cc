#include "perfci/analysis/ab_shard_merge.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "perfci/analysis/oracle_gap.h"
#include "perfci/analysis/report_builder.h"
#include "perfci/stats/run_analysis.h"
#include "perfci/stats/stats_json.h"
#include "perfci/util/error.h"
#include "perfci/util/timestamp.h"

namespace perfci::analysis {
namespace {

std::string side_identity(const Side& s) {
  if (!s.commit.empty()) return s.commit + (s.dirty ? " (dirty)" : "");
  return "binary with build-id " + s.build_id;
}

// What the runner compares: paired, finite, non-negative samples where a
// zero on one side is a zero on the other (ab_runner.cc, samples_of).
bool comparable(const MetricRun& m) {
  if (m.a.empty() || m.a.size() != m.b.size()) return false;
  for (std::size_t i = 0; i < m.a.size(); ++i)
    if (!(std::isfinite(m.a[i]) && std::isfinite(m.b[i]) && m.a[i] >= 0 && m.b[i] >= 0) ||
        ((m.a[i] == 0) != (m.b[i] == 0)))
      return false;
  return true;
}

}  // namespace

Report merge_ab_parts(std::vector<ReportPart> parts) {
  check_one_sharded_run(parts, {"ab", "aa"},
                        {{"the mode", [](const Report& r) { return r.mode; }},
                         {"side A", [](const Report& r) { return side_identity(r.a); }},
                         {"side B", [](const Report& r) { return side_identity(r.b); }},
                         {"the seed", [](const Report& r) { return std::to_string(r.seed); }},
                         {"the pairing", [](const Report& r) { return r.pairing; }}});
  sort_parts(parts);
  const ShardPlan plan = parts.front().report.shard->plan;
  stats::RunAnalysisOptions options;
  try {
    options = parts.front().report.settings.at("analysis").get<stats::RunAnalysisOptions>();
  } catch (const nlohmann::json::exception& e) {
    throw Error(parts.front().file + ": settings.analysis: " + e.what());
  }

  Report r = parts.front().report;
  r.created = utc_timestamp();
  r.settings = settings_without_shard(r);
  r.shard.reset();
  r.benchmarks.clear();
  r.contract_changes.clear();
  r.elapsed_seconds = 0;
  r.confirmation_pairs = 0;
  std::vector<std::string> orders;
  for (const auto& p : parts) {
    for (const auto& b : p.report.benchmarks) r.benchmarks.push_back(b);
    add_missing(r.contract_changes, p.report.contract_changes);
    r.pairs = std::min(r.pairs, p.report.pairs);
    r.confirmation_pairs += p.report.confirmation_pairs;
    r.elapsed_seconds = std::max(r.elapsed_seconds, p.report.elapsed_seconds);
    if (!p.report.order.empty()) orders.push_back(p.report.order);
  }
  // The parts' pair orders one after the other, in shard order.
  r.order = fmt::format("{}", fmt::join(orders, " "));
  sort_by_plan(r.benchmarks, plan);

  // One family over the whole suite, in the plan's order.
  std::vector<stats::MetricSamples> samples;
  std::vector<MetricRun*> targets;
  for (auto& b : r.benchmarks) {
    if (b.run.failed()) continue;
    for (auto& m : b.run.metrics) {
      if (!comparable(m)) continue;
      samples.push_back({b.run.name, m.kind + "/" + m.metric, m.policy, m.a, m.b});
      targets.push_back(&m);
    }
  }
  const auto outcomes = stats::analyze_run(samples, options);
  for (std::size_t i = 0; i < targets.size(); ++i) {
    MetricRun& m = *targets[i];
    const auto& oc = outcomes[i];
    m.comparison = oc.comparison;
    m.q_value = oc.q_value;
    m.first_decision = oc.decision;
    if (r.mode == "aa" && !m.policy.deterministic) m.noise = stats::summarize_noise(oc.comparison);
    if (!stats::needs_confirmation(m.policy, m.first_decision)) {
      m.decision = m.first_decision;
      m.confirmation.reset();
    } else if (m.confirmation) {
      m.decision = stats::confirm(m.first_decision, m.confirmation->decision,
                                  static_cast<int>(m.confirmation->a.size()));
    } else {
      m.decision = {stats::Verdict::kNoisy,
                    m.first_decision.reason +
                        "; a suspect only across all shards' tests, and its shard (where it was "
                        "none) ran no confirmation pairs for it: not claimed — measure it alone "
                        "to decide"};
    }
  }
  // An explanation stands only where the merged verdict is still a change.
  for (auto& b : r.benchmarks) {
    bool changed = std::any_of(b.run.metrics.begin(), b.run.metrics.end(), [](const MetricRun& m) {
      return m.decision.verdict == stats::Verdict::kRegressed ||
             m.decision.verdict == stats::Verdict::kImproved;
    });
    if (!changed) b.explanation.reset();
  }
  std::vector<BenchmarkRun> runs;
  for (const auto& b : r.benchmarks) runs.push_back(b.run);
  std::vector<PrefixPair> pairs;
  for (const auto& p : r.settings.value("oracle_pairs", nlohmann::json::array()))
    pairs.push_back({p.at("measured").get<std::string>(), p.at("oracle").get<std::string>()});
  r.oracle_gaps = oracle_gaps(runs, pairs);
  summarize(r);

  MergeSection merged;
  merged.plan = plan;
  merged.parts = merged_parts(
      parts, [](const Report& p) { return std::string(stats::to_string(p.verdict)); },
      [](const Report&) { return 0; });
  r.merged = std::move(merged);
  return r;
}

}  // namespace perfci::analysis
