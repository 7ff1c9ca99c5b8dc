#include "perfci/check/baseline_comparison.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "perfci/analysis/explanation.h"
#include "perfci/analysis/report_builder.h"
#include "perfci/check/comparability.h"
#include "perfci/check/oracle_gap_gate.h"
#include "perfci/model/number_format.h"
#include "perfci/util/timestamp.h"
#include "perfci/version.h"

namespace perfci::check {
namespace {

using nlohmann::json;

const perfci::CheckGate& gate_of(const std::vector<perfci::CheckGate>& gates,
                                 const std::string& kind) {
  for (const auto& g : gates)
    if (g.kind == kind) return g;
  static const perfci::CheckGate gated{"", stats::Gate::kGated, "", "baseline"};
  return gated;
}

// The active entry for this benchmark and metric, or nullptr.
ActiveAccepted* find_accepted(std::vector<ActiveAccepted>& list, const std::string& benchmark,
                              const std::string& metric) {
  for (auto& a : list)
    if (!a.stale && a.entry.benchmark == benchmark && a.entry.metric == metric) return &a;
  return nullptr;
}

std::string accepted_reason(const ActiveAccepted& a) {
  return "accepted in perfci.json at " + a.entry.commit + ": " + a.entry.reason;
}

perfci::Side baseline_side(const baseline::Baseline& b) {
  perfci::Side s;
  s.label = "A";
  s.revision = "baseline";
  s.commit = b.provenance.commit;
  s.dirty = b.provenance.dirty;
  s.binary = b.results.binary;
  s.build_id = b.profile.build_id;
  s.compiler = b.profile.toolchain.producer;
  s.build = {{"profile", b.profile.id},
             {"created", b.provenance.created},
             {"reason", b.provenance.reason}};
  s.contracts = b.contracts;
  return s;
}

perfci::Side current_side(const CheckInputs& in) {
  perfci::Side s;
  s.label = "B";
  s.revision = "current";
  s.commit = in.commit;
  s.dirty = in.dirty;
  s.binary = in.current.binary;
  s.build_id = in.profile.build_id;
  s.compiler = in.profile.toolchain.producer;
  s.build = {{"profile", in.profile.id}};
  s.contracts = in.contracts;
  return s;
}

}  // namespace

RunProblems contract_problems(const std::optional<contracts::ContractReport>& report) {
  RunProblems out;
  if (!report) return out;
  if (!report->error.empty()) {
    out.errors.push_back("contracts could not be checked: " + report->error);
    return out;
  }
  for (const auto& c : report->results) {
    if (c.verdict == contracts::Verdict::kBroken)
      out.findings.push_back("contract broken: " + c.label() + ": " + c.message);
    else if (c.verdict != contracts::Verdict::kOk)
      out.errors.push_back("contract could not be checked: " + c.label() + ": " + c.message);
  }
  return out;
}

std::string failed_benchmark_error(const BenchmarkResult& failed) {
  return "benchmark " + failed.name + " failed: " + failed.error.substr(0, failed.error.find('\n'));
}

// One run against the baseline's stored value: no interval can be drawn, so
// the threshold alone decides (stats::decide_by_threshold).
stats::Decision decide_one_run(const stats::Comparison& c, const stats::MetricPolicy& policy) {
  if (policy.deterministic) return stats::decide(c, policy, std::nullopt);
  double change = c.ratio - 1;
  return stats::decide_by_threshold(
      change, policy, perfci::format_change_precise(change) + " (one run against the baseline's)");
}

perfci::Report compare_with_baseline(CheckInputs in, const CheckConfig& config) {
  perfci::Report r;
  r.tool_version = tool_version();
  r.created = utc_timestamp();
  r.mode = "check";
  r.machine = std::move(in.machine);
  r.a = baseline_side(in.baseline);
  r.b = current_side(in);
  r.settings = std::move(in.settings_json);
  r.pairs = 1;
  r.elapsed_seconds = in.elapsed_seconds;

  perfci::CheckSection check;
  check.suite = in.settings.suite;
  check.baseline_file = in.baseline_file;
  check.profile = in.profile.id;
  check.baseline_profile = in.baseline.profile.id;
  check.baseline_commit = in.baseline.provenance.commit;
  check.baseline_dirty = in.baseline.provenance.dirty;
  check.baseline_created = in.baseline.provenance.created;
  check.baseline_reason = in.baseline.provenance.reason;
  baseline::ProfileComparison profiles =
      baseline::compare_profiles(in.baseline.profile, in.profile);
  for (const auto& d : profiles.toolchain)
    check.toolchain_differences.push_back({d.fact, d.baseline, d.current});
  for (const auto& d : profiles.machine)
    check.machine_differences.push_back({d.fact, d.baseline, d.current});
  // Only the kinds this run measured: a gate for a meter that did not run says nothing.
  for (auto& g : decide_gates(profiles, config.information_only)) {
    const auto& meters = in.settings.meters;
    if (std::find(meters.begin(), meters.end(), g.kind) != meters.end())
      check.gates.push_back(std::move(g));
  }
  // The reference measured here stands in for the stored baseline's Ir.
  const bool use_reference = in.reference && in.reference->error.empty();
  check.reference = in.reference;
  for (auto& g : check.gates) {
    if (g.kind != "callgrind" || !in.reference) continue;
    if (use_reference) {
      g.gate = stats::Gate::kGated;
      g.source = "reference";
      g.reason = fmt::format(
          "by an in-runner A/B against {} ({}), built and counted on this runner: the stored "
          "baseline cannot gate it here ({})",
          in.reference->revision, in.reference->commit.substr(0, 12), in.reference->why);
    } else {
      g.reason += "; no in-runner reference either: " + in.reference->error;
    }
  }
  for (auto& g : check.gates)
    if (g.gate == stats::Gate::kGated && g.source.empty()) g.source = "baseline";

  std::set<std::string> current_names;
  std::vector<BenchmarkRun> runs;
  for (const BenchmarkResult& cur : in.current.benchmarks) {
    current_names.insert(cur.name);
    const BenchmarkResult* base = in.baseline.results.find(cur.name);
    const BenchmarkResult* ref = use_reference ? in.reference_results.find(cur.name) : nullptr;
    if (cur.failed()) {
      BenchmarkRun run;
      run.name = cur.name;
      run.error = cur.error;
      check.errors.push_back(failed_benchmark_error(cur));
      runs.push_back(std::move(run));
      continue;
    }
    if (!base) {
      if (!metric_values(cur).empty()) check.new_benchmarks.push_back(cur.name);
      continue;
    }
    std::map<std::pair<std::string, std::string>, double> base_values;
    for (const auto& v : metric_values(*base))
      if (!use_reference || v.kind != "callgrind") base_values[{v.kind, v.metric}] = v.value;
    if (ref && !ref->failed())
      for (const auto& v : metric_values(*ref))
        if (v.kind == "callgrind") base_values[{v.kind, v.metric}] = v.value;
    // Counted in another mode (the hook added or removed since): another
    // quantity, never compared, and an error so that the check cannot pass
    // on what is left.
    std::vector<ModeMismatch> modes;
    for (auto& mm : mode_mismatches(*base, cur))
      if (!(use_reference && mm.kind == "callgrind")) modes.push_back(std::move(mm));
    if (ref && !ref->failed())
      for (auto& mm : mode_mismatches(*ref, cur))
        if (mm.kind == "callgrind") modes.push_back(std::move(mm));
    for (const auto& mm : modes) {
      std::erase_if(base_values, [&](const auto& kv) { return kv.first.first == mm.kind; });
      check.errors.push_back("benchmark " + cur.name + ": " + mm.why +
                             ": not comparable; update the baseline (perfci baseline update)");
    }
    // A count the reference could not give is an error, never a benchmark
    // that quietly drops out of the gate.
    if (use_reference && cur.callgrind && (!ref || ref->failed() || !ref->callgrind)) {
      std::string why = !ref            ? "not in it"
                        : ref->failed() ? "failed: " + ref->error.substr(0, ref->error.find('\n'))
                                        : "not counted";
      check.errors.push_back("benchmark " + cur.name +
                             " has a callgrind count here but none in the reference " +
                             in.reference->revision + " (" + why + ")");
    }
    // A callgrind metric the baseline gates and this run did not measure
    // (the cache simulation turned off, bytes not measurable here) would
    // drop out of the gate unseen.
    if (cur.callgrind) {
      std::set<std::string> measured;
      for (const auto& v : metric_values(cur)) measured.insert(v.metric);
      std::vector<std::string> lost;
      for (const auto& [key, value] : base_values)
        if (key.first == "callgrind" && !measured.count(key.second)) lost.push_back(key.second);
      auto lost_one = [&](const char* m) { return std::count(lost.begin(), lost.end(), m) > 0; };
      std::vector<std::string> why;
      if (!cur.callgrind->cache &&
          (lost_one("l1_misses") || lost_one("ll_misses") || lost_one("estimated_cycles")))
        why.push_back(
            "the cache simulation is off: --cache-sim, or the suite's \"callgrind\": "
            "{\"cache_sim\": true}");
      const Allocations* al = cur.callgrind->allocations ? &*cur.callgrind->allocations : nullptr;
      if (lost_one("allocated_bytes") && al && !al->bytes_unmeasured.empty())
        why.push_back("bytes: " + al->bytes_unmeasured);
      if (!lost.empty())
        check.errors.push_back(fmt::format(
            "benchmark {}: the baseline has callgrind {} but this run did not measure {}{}: not "
            "comparable; measure {} or update the baseline (perfci baseline update)",
            cur.name, fmt::join(lost, ", "), lost.size() == 1 ? "it" : "them",
            why.empty() ? "" : " (" + fmt::format("{}", fmt::join(why, "; ")) + ")",
            lost.size() == 1 ? "it" : "them"));
    }
    BenchmarkRun run;
    run.name = cur.name;
    for (const auto& v : metric_values(cur)) {
      auto it = base_values.find({v.kind, v.metric});
      if (it == base_values.end()) continue;
      // Times and Ir are never zero; a count (allocations) may be, and a
      // zero there is a measurement.
      const bool usable =
          v.deterministic ? it->second >= 0 && v.value >= 0 : it->second > 0 && v.value > 0;
      if (!usable) continue;
      MetricRun m;
      m.kind = v.kind;
      m.metric = v.metric;
      m.policy = config.policies.policy(cur.name, v.kind, v.metric);
      m.a = {it->second};
      m.b = {v.value};
      m.comparison = stats::compare_deterministic(m.a, m.b);
      m.comparison.deterministic = m.policy.deterministic;
      m.decision = decide_one_run(m.comparison, m.policy);
      m.first_decision = m.decision;
      const perfci::CheckGate& g = gate_of(check.gates, v.kind);
      m.gate = g.gate;
      m.gate_reason = g.reason;
      if (m.gate == stats::Gate::kGated && m.decision.verdict == stats::Verdict::kRegressed) {
        if (ActiveAccepted* a = find_accepted(in.accepted, cur.name, v.kind + "/" + v.metric)) {
          m.gate = stats::Gate::kAccepted;
          m.gate_reason = accepted_reason(*a);
        } else {
          check.findings.push_back(fmt::format("{}: {} {} regressed {} (threshold {})", cur.name,
                                               v.kind, v.metric,
                                               perfci::format_change_precise(m.comparison.change()),
                                               perfci::format_threshold(m.policy.threshold)));
        }
      }
      run.metrics.push_back(std::move(m));
    }
    if (run.metrics.empty()) {
      // Measured on both sides, but by different meters (a callgrind-only
      // check of a benchmark outside the callgrind filter): nothing to say.
      continue;
    }
    const BenchmarkResult* profile_a = use_reference ? ref : base;
    if (profile_a && profile_a->callgrind && cur.callgrind) {
      run.detail_a = *profile_a;
      run.detail_b = cur;
    }
    runs.push_back(std::move(run));
  }
  for (const auto& b : in.baseline.results.benchmarks)
    if (!current_names.count(b.name)) check.missing_benchmarks.push_back(b.name);
  // A check that compared nothing must not pass as if all were well.
  if (runs.empty())
    check.errors.push_back(
        "nothing was compared: no benchmark has a metric measured both in the baseline (" +
        fmt::format("{}", fmt::join(in.baseline.settings.meters, ",")) + ") and in this run (" +
        fmt::format("{}", fmt::join(in.settings.meters, ",")) + ")");

  const OracleGapRules gap_rules{in.oracle_pairs, config};
  r.settings["oracle_gap"] = oracle_gap_rules_json(gap_rules);
  r.oracle_gaps = gate_oracle_gaps(
      runs, gap_rules,
      [&](const std::string& benchmark, const std::string& metric) {
        return find_accepted(in.accepted, benchmark, metric) != nullptr;
      },
      check.findings);
  // Which entries did anything: the benchmarks' gates and the gaps say so.
  for (const auto& a : in.accepted) {
    std::string status = "unused";
    if (a.stale) {
      status = "stale";
    } else {
      for (const auto& run : runs)
        for (const auto& m : run.metrics)
          if (m.gate == stats::Gate::kAccepted && run.name == a.entry.benchmark &&
              m.kind + "/" + m.metric == a.entry.metric)
            status = "applied";
      for (const auto& g : r.oracle_gaps)
        if (g.gate == stats::Gate::kAccepted && g.benchmark == a.entry.benchmark &&
            g.metric == a.entry.metric)
          status = "applied";
    }
    check.accepted.push_back(
        {a.entry.benchmark, a.entry.metric, a.entry.commit, a.entry.reason, status});
  }

  // A run cut short by a signal never passes: what it measured is shown,
  // and the check is an error.
  if (in.current.incomplete) {
    check.errors.push_back("the run was " + in.current.incomplete->reason() +
                           ": an incomplete check proves nothing");
    r.incomplete = in.current.incomplete;
  }
  RunProblems contracts = contract_problems(in.contracts);
  check.errors.insert(check.errors.end(), contracts.errors.begin(), contracts.errors.end());
  check.findings.insert(check.findings.end(), contracts.findings.begin(), contracts.findings.end());
  r.contract_changes = analysis::contract_changes(r.a.contracts, r.b.contracts);

  for (auto& run : runs) {
    perfci::BenchmarkReport br;
    bool changed = std::any_of(run.metrics.begin(), run.metrics.end(), [](const MetricRun& m) {
      return m.decision.verdict == stats::Verdict::kRegressed ||
             m.decision.verdict == stats::Verdict::kImproved;
    });
    if (!run.failed() && changed && run.detail_a)
      br.explanation = analysis::explain(run, r.a.contracts, r.b.contracts);
    br.run = std::move(run);
    r.benchmarks.push_back(std::move(br));
  }
  analysis::summarize(r);
  for (const auto& b : r.benchmarks)
    for (const auto& m : b.run.metrics)
      if (stats::counts_for_gate(m.gate)) ++check.gated_metrics;
  check.outcome =
      stats::decide_check(!check.errors.empty(), !check.findings.empty(), check.gated_metrics);
  if (check.outcome == stats::CheckOutcome::kNotGated) {
    std::string why;
    for (const auto& g : check.gates)
      why += (why.empty() ? "" : "; ") + g.kind + ": " +
             (g.gate == stats::Gate::kGated ? "gated, but no benchmark had it on both sides"
                                            : g.reason);
    check.not_gated_reason =
        "no benchmark metric could be gated against the baseline on this runner, so this run "
        "proves nothing about a regression (" +
        (why.empty() ? "no metric kind was measured" : why) + ")";
  }
  r.check = std::move(check);
  return r;
}

}  // namespace perfci::check
