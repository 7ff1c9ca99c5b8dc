#include "perfci/check/shard_merge.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "perfci/analysis/report_builder.h"
#include "perfci/check/oracle_gap_gate.h"
#include "perfci/util/error.h"
#include "perfci/util/timestamp.h"

namespace perfci::check {
namespace {

std::string hostname(const Report& r) { return r.machine.value("hostname", ""); }

// Parts on machines that differ may gate a kind differently (one runner's
// valgrind view matches the baseline's, another's needs a reference): each
// way is kept once, naming the parts it held on unless it held on all.
std::vector<CheckGate> merged_gates(const std::vector<ReportPart>& parts) {
  std::vector<CheckGate> distinct;
  std::vector<std::vector<std::string>> where;
  for (const auto& p : parts)
    for (const auto& g : p.report.check->gates) {
      auto it = std::find(distinct.begin(), distinct.end(), g);
      auto i = static_cast<std::size_t>(it - distinct.begin());
      if (it == distinct.end()) {
        distinct.push_back(g);
        where.emplace_back();
      }
      where[i].push_back(
          fmt::format("{} ({})", format_shard(p.report.shard->spec), hostname(p.report)));
    }
  for (std::size_t i = 0; i < distinct.size(); ++i)
    if (where[i].size() != parts.size())
      distinct[i].reason =
          fmt::format("shard{} {}{}", where[i].size() > 1 ? "s" : "", fmt::join(where[i], ", "),
                      distinct[i].reason.empty() ? "" : ": " + distinct[i].reason);
  return distinct;
}

}  // namespace

Report merge_check_parts(std::vector<ReportPart> parts) {
  analysis::check_one_sharded_run(
      parts, {"check"},
      {{"the commit", [](const Report& r) { return r.b.commit + (r.b.dirty ? " (dirty)" : ""); }},
       {"the suite", [](const Report& r) { return r.check ? r.check->suite : ""; }},
       {"the profile", [](const Report& r) { return r.check ? r.check->profile : ""; }},
       {"the baseline", [](const Report& r) {
          return r.check ? r.check->baseline_file + " @ " + r.check->baseline_commit : "";
        }}});
  for (const auto& p : parts)
    if (!p.report.check) throw Error(p.file + ": a check report without its \"check\" section");
  analysis::sort_parts(parts);

  const ShardPlan plan = parts.front().report.shard->plan;
  std::map<std::string, std::size_t> position;
  for (std::size_t i = 0; i < plan.entries.size(); ++i) position[plan.entries[i].name] = i;
  auto by_plan = [&](const std::string& x, const std::string& y) {
    return position[x] < position[y];
  };

  Report r = parts.front().report;
  r.created = utc_timestamp();
  r.settings = analysis::settings_without_shard(r);
  r.shard.reset();
  r.benchmarks.clear();
  r.oracle_gaps.clear();
  r.contract_changes.clear();
  r.elapsed_seconds = 0;
  CheckSection& c = *r.check;
  c = CheckSection{};
  const CheckSection& head = *parts.front().report.check;
  c.suite = head.suite;
  c.baseline_file = head.baseline_file;
  c.profile = head.profile;
  c.baseline_profile = head.baseline_profile;
  c.baseline_commit = head.baseline_commit;
  c.baseline_dirty = head.baseline_dirty;
  c.baseline_created = head.baseline_created;
  c.baseline_reason = head.baseline_reason;

  MergeSection merged;
  merged.plan = plan;
  std::vector<std::string> not_gated;
  // Each accepted entry: applied when any part applied it.
  std::map<std::string, AcceptedStatus> accepted;
  std::vector<std::string> accepted_order;
  for (const auto& p : parts) {
    const Report& part = p.report;
    const CheckSection& pc = *part.check;
    for (const auto& b : part.benchmarks) r.benchmarks.push_back(b);
    analysis::add_missing(r.contract_changes, part.contract_changes);
    analysis::add_missing(c.toolchain_differences, pc.toolchain_differences);
    analysis::add_missing(c.machine_differences, pc.machine_differences);
    for (const auto& a : pc.accepted) {
      std::string key = a.benchmark + "\n" + a.metric + "\n" + a.commit;
      auto [it, fresh] = accepted.emplace(key, a);
      if (fresh) accepted_order.push_back(key);
      if (a.status == "applied") it->second.status = "applied";
    }
    analysis::add_missing(c.new_benchmarks, pc.new_benchmarks);
    analysis::add_missing(c.missing_benchmarks, pc.missing_benchmarks);
    analysis::add_missing(c.findings, pc.findings);
    analysis::add_missing(c.errors, pc.errors);
    if (pc.reference && !c.reference) c.reference = pc.reference;
    if (!pc.not_gated_reason.empty())
      not_gated.push_back(
          fmt::format("shard {}: {}", format_shard(part.shard->spec), pc.not_gated_reason));
    // The parts ran side by side: the run took as long as its slowest part.
    r.elapsed_seconds = std::max(r.elapsed_seconds, part.elapsed_seconds);
  }
  c.gates = merged_gates(parts);
  std::sort(c.new_benchmarks.begin(), c.new_benchmarks.end(), by_plan);
  analysis::sort_by_plan(r.benchmarks, plan);

  // The gaps of pairs whose two benchmarks ran in different parts exist
  // only now: every gap is judged again over the whole suite, by the rules
  // the parts ran with (the findings of the gaps a part judged itself are
  // the same words, and appear once).
  const OracleGapRules rules = oracle_gap_rules_from_json(
      r.settings.value("oracle_gap", nlohmann::json::object()), parts.front().file);
  std::vector<BenchmarkRun> runs;
  for (const auto& b : r.benchmarks) runs.push_back(b.run);
  std::set<std::string> gap_accepted;
  r.oracle_gaps = gate_oracle_gaps(
      runs, rules,
      [&](const std::string& benchmark, const std::string& metric) {
        for (const auto& [key, a] : accepted)
          if (a.status != "stale" && a.benchmark == benchmark && a.metric == metric) {
            gap_accepted.insert(key);
            return true;
          }
        return false;
      },
      c.findings);
  for (const auto& key : gap_accepted) accepted[key].status = "applied";
  for (const auto& key : accepted_order) c.accepted.push_back(accepted[key]);

  analysis::summarize(r);
  for (const auto& b : r.benchmarks)
    for (const auto& m : b.run.metrics)
      if (stats::counts_for_gate(m.gate)) ++c.gated_metrics;
  c.outcome = stats::decide_check(!c.errors.empty(), !c.findings.empty(), c.gated_metrics);
  if (c.outcome == stats::CheckOutcome::kNotGated)
    c.not_gated_reason = fmt::format("{}", fmt::join(not_gated, "; "));
  merged.parts = analysis::merged_parts(
      parts, [](const Report& p) { return std::string(stats::to_string(p.check->outcome)); },
      [](const Report& p) { return p.check->gated_metrics; });
  r.merged = std::move(merged);
  return r;
}

}  // namespace perfci::check
