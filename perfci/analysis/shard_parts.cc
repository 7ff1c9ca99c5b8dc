#include "perfci/analysis/shard_parts.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "perfci/util/error.h"

namespace perfci::analysis {

nlohmann::json settings_without_shard(const Report& r) {
  nlohmann::json s = r.settings;
  s.erase("shard");
  return s;
}

void check_one_sharded_run(const std::vector<ReportPart>& parts,
                           const std::vector<std::string>& modes,
                           const std::vector<RunFact>& identity) {
  if (parts.empty()) throw Error("perfci merge needs the partial reports to join");
  for (const auto& p : parts) {
    if (!p.report.shard)
      throw Error(p.file +
                  ": not a partial report (no \"shard\" section): only the reports of "
                  "`--shard K/N` runs are merged");
    if (p.report.incomplete)
      throw Error(p.file + ": shard " + format_shard(p.report.shard->spec) + " was " +
                  p.report.incomplete->reason() +
                  ": a part cut short cannot stand for its benchmarks; re-run that shard");
    if (std::find(modes.begin(), modes.end(), p.report.mode) == modes.end())
      throw Error(
          fmt::format("{}: a partial report of mode \"{}\", not {}: the parts of one run "
                      "have one mode",
                      p.file, p.report.mode, fmt::join(modes, " or ")));
  }
  const ReportPart& first = parts.front();
  std::vector<RunFact> facts{
      {"the shard count", [](const Report& r) { return std::to_string(r.shard->spec.count); }},
      {"the settings", [](const Report& r) { return settings_without_shard(r).dump(); }}};
  facts.insert(facts.end(), identity.begin(), identity.end());
  std::vector<std::string> problems;
  for (const auto& f : facts)
    for (const auto& p : parts)
      if (f.of(p.report) != f.of(first.report))
        problems.push_back(fmt::format("{}: {} is \"{}\", {} has \"{}\"", p.file, f.what,
                                       f.of(p.report), first.file, f.of(first.report)));
  if (!problems.empty()) {
    std::string msg = "these reports are not parts of one sharded run:";
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

  for (const auto& p : parts) {
    const auto mine = p.report.shard->plan.names_of(p.report.shard->spec.index);
    const std::set<std::string> allowed(mine.begin(), mine.end());
    for (const auto& b : p.report.benchmarks)
      if (!allowed.count(b.run.name))
        throw Error(fmt::format("{}: benchmark {} is not in its shard {} of the plan", p.file,
                                b.run.name, format_shard(p.report.shard->spec)));
  }
}

void sort_parts(std::vector<ReportPart>& parts) {
  std::sort(parts.begin(), parts.end(), [](const ReportPart& x, const ReportPart& y) {
    return x.report.shard->spec.index < y.report.shard->spec.index;
  });
}

void sort_by_plan(std::vector<BenchmarkReport>& benchmarks, const ShardPlan& plan) {
  std::map<std::string, std::size_t> position;
  for (std::size_t i = 0; i < plan.entries.size(); ++i) position[plan.entries[i].name] = i;
  std::stable_sort(benchmarks.begin(), benchmarks.end(),
                   [&](const BenchmarkReport& x, const BenchmarkReport& y) {
                     return position[x.run.name] < position[y.run.name];
                   });
}

std::vector<MergedPart> merged_parts(const std::vector<ReportPart>& parts,
                                     const std::function<std::string(const Report&)>& outcome,
                                     const std::function<int(const Report&)>& gated_metrics) {
  std::vector<MergedPart> out;
  for (const auto& p : parts) {
    const Report& r = p.report;
    MergedPart m;
    m.index = r.shard->spec.index;
    m.file = p.file;
    m.created = r.created;
    m.hostname = r.machine.value("hostname", "");
    m.cpu_model = r.machine.value("cpu_model", "");
    m.outcome = outcome(r);
    m.gated_metrics = gated_metrics(r);
    m.elapsed_seconds = r.elapsed_seconds;
    m.expected_seconds = r.shard->plan.shard_seconds()[static_cast<std::size_t>(m.index - 1)];
    for (const auto& b : r.benchmarks) m.benchmarks.push_back(b.run.name);
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace perfci::analysis
