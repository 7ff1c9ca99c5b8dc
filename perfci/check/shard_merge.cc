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

using nlohmann::json;

// Appends what `from` has that `into` lacks, keeping first-seen order: the
// contract findings every part repeats appear once.
template <typename T>
void add_missing(std::vector<T>& into, const std::vector<T>& from) {
  for (const auto& x : from)
    if (std::find(into.begin(), into.end(), x) == into.end()) into.push_back(x);
}

json settings_without_shard(const Report& r) {
  json s = r.settings;
  s.erase("shard");
  return s;
}

// Every way the parts could fail to be one run, as one message listing all.
void check_one_run(const std::vector<ReportPart>& parts) {
  const ReportPart& first = parts.front();
  std::vector<std::string> problems;
  auto differs = [&](const std::string& what, auto get) {
    for (const auto& p : parts)
      if (get(p.report) != get(first.report))
        problems.push_back(fmt::format("{}: {} is \"{}\", {} has \"{}\"", p.file, what,
                                       get(p.report), first.file, get(first.report)));
  };
  differs("the shard count", [](const Report& r) { return std::to_string(r.shard->spec.count); });
  differs("the commit", [](const Report& r) { return r.b.commit + (r.b.dirty ? " (dirty)" : ""); });
  differs("the suite", [](const Report& r) { return r.check->suite; });
  differs("the profile", [](const Report& r) { return r.check->profile; });
  differs("the baseline", [](const Report& r) {
    return r.check->baseline_file + " @ " + r.check->baseline_commit;
  });
  differs("the settings", [](const Report& r) { return settings_without_shard(r).dump(); });
  if (!problems.empty()) {
    std::string msg = "these reports are not parts of one sharded check:";
    for (const auto& p : problems) msg += "\n  " + p;
    throw Error(msg);
  }
  for (const auto& p : parts)
    if (!(p.report.shard->plan == first.report.shard->plan))
      throw Error(p.file + " and " + first.file +
                  " split the suite differently (their shard plans differ): they were planned "
                  "from different baselines or benchmark lists, so they are not one run");

  const int n = first.report.shard->spec.count;
  std::map<int, std::string> seen;
  for (const auto& p : parts) {
    int k = p.report.shard->spec.index;
    if (auto [it, fresh] = seen.emplace(k, p.file); !fresh)
      throw Error(fmt::format("shard {}/{} is given twice: {} and {}", k, n, it->second, p.file));
  }
  std::vector<std::string> missing;
  for (int k = 1; k <= n; ++k)
    if (!seen.count(k)) missing.push_back(fmt::format("{}/{}", k, n));
  if (!missing.empty())
    throw Error(
        fmt::format("shard(s) {} missing: {} part(s) of {} given; the suite's verdict "
                    "needs every part (a job that failed before writing its report "
                    "has to be re-run)",
                    fmt::join(missing, ", "), parts.size(), n));

  // A part holds only the benchmarks the plan gave it.
  for (const auto& p : parts) {
    const auto mine = p.report.shard->plan.names_of(p.report.shard->spec.index);
    const std::set<std::string> allowed(mine.begin(), mine.end());
    for (const auto& b : p.report.benchmarks)
      if (!allowed.count(b.run.name))
        throw Error(fmt::format("{}: benchmark {} is not in its shard {} of the plan", p.file,
                                b.run.name, format_shard(p.report.shard->spec)));
  }
}

std::string hostname(const Report& r) { return r.machine.value("hostname", ""); }
std::string cpu_model(const Report& r) { return r.machine.value("cpu_model", ""); }

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
  if (parts.empty()) throw Error("perfci merge needs the partial reports to join");
  for (const auto& p : parts) {
    if (!p.report.shard)
      throw Error(p.file +
                  ": not a partial report (no \"shard\" section): only the reports of "
                  "`perfci check --shard K/N` are merged");
    if (p.report.mode != "check" || !p.report.check)
      throw Error(p.file + ": a partial report of mode \"" + p.report.mode +
                  "\"; perfci merge joins the parts of a sharded `perfci check`");
  }
  check_one_run(parts);
  std::sort(parts.begin(), parts.end(), [](const ReportPart& x, const ReportPart& y) {
    return x.report.shard->spec.index < y.report.shard->spec.index;
  });

  const ShardPlan plan = parts.front().report.shard->plan;
  std::map<std::string, std::size_t> position;
  for (std::size_t i = 0; i < plan.entries.size(); ++i) position[plan.entries[i].name] = i;
  auto by_plan = [&](const std::string& x, const std::string& y) {
    return position[x] < position[y];
  };

  Report r = parts.front().report;
  r.created = utc_timestamp();
  r.settings = settings_without_shard(r);
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
    add_missing(r.contract_changes, part.contract_changes);
    add_missing(c.toolchain_differences, pc.toolchain_differences);
    add_missing(c.machine_differences, pc.machine_differences);
    for (const auto& a : pc.accepted) {
      std::string key = a.benchmark + "\n" + a.metric + "\n" + a.commit;
      auto [it, fresh] = accepted.emplace(key, a);
      if (fresh) accepted_order.push_back(key);
      if (a.status == "applied") it->second.status = "applied";
    }
    add_missing(c.new_benchmarks, pc.new_benchmarks);
    add_missing(c.missing_benchmarks, pc.missing_benchmarks);
    add_missing(c.findings, pc.findings);
    add_missing(c.errors, pc.errors);
    if (pc.reference && !c.reference) c.reference = pc.reference;
    if (!pc.not_gated_reason.empty())
      not_gated.push_back(
          fmt::format("shard {}: {}", format_shard(part.shard->spec), pc.not_gated_reason));
    // The parts ran side by side: the run took as long as its slowest part.
    r.elapsed_seconds = std::max(r.elapsed_seconds, part.elapsed_seconds);

    MergedPart m;
    m.index = part.shard->spec.index;
    m.file = p.file;
    m.created = part.created;
    m.hostname = hostname(part);
    m.cpu_model = cpu_model(part);
    m.outcome = std::string(stats::to_string(pc.outcome));
    m.gated_metrics = pc.gated_metrics;
    m.elapsed_seconds = part.elapsed_seconds;
    m.expected_seconds = plan.shard_seconds()[static_cast<std::size_t>(m.index - 1)];
    for (const auto& b : part.benchmarks) m.benchmarks.push_back(b.run.name);
    merged.parts.push_back(std::move(m));
  }
  c.gates = merged_gates(parts);
  std::sort(c.new_benchmarks.begin(), c.new_benchmarks.end(), by_plan);
  std::sort(r.benchmarks.begin(), r.benchmarks.end(),
            [&](const BenchmarkReport& x, const BenchmarkReport& y) {
              return by_plan(x.run.name, y.run.name);
            });

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
  r.merged = std::move(merged);
  return r;
}

}  // namespace perfci::check
