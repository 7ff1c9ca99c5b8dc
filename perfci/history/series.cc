#include "perfci/history/series.h"

#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "perfci/stats/stats_json.h"

namespace perfci::history {
namespace {

// A later run replaces an earlier one at the same commit; `created` is ISO
// 8601 UTC, so it orders as text, and the run id breaks ties.
bool newer(const StoredPoint& a, const StoredPoint& b) {
  return std::tie(a.created, a.run_id) > std::tie(b.created, b.run_id);
}

struct Slot {
  const StoredPoint* point = nullptr;
  int runs = 0;
  bool baseline = false;
};

std::vector<SeriesChange> place(const std::vector<stats::ChangePoint>& points,
                                const std::vector<SeriesEntry>& entries, const char* method) {
  std::vector<SeriesChange> out;
  for (const auto& p : points) {
    const auto& before = entries.at(p.index - 1);
    const auto& after = entries.at(p.index);
    out.push_back(
        {p, before.commit, after.commit, after.subject, after.position - before.position, method});
  }
  return out;
}

}  // namespace

std::vector<Series> build_series(const std::vector<StoredPoint>& points,
                                 const std::vector<AcceptedMark>& accepted,
                                 const std::vector<CommitSubject>& history,
                                 const MetricPolicies& policies, const ChangeOptions& options) {
  std::map<std::string, std::size_t> position;
  for (std::size_t i = 0; i < history.size(); ++i) position.emplace(history[i].commit, i);

  std::map<SeriesKey, std::map<std::size_t, Slot>> grouped;
  for (const auto& sp : points) {
    if (sp.dirty || sp.commit.empty()) continue;
    const auto at = position.find(sp.commit);
    if (at == position.end()) continue;
    // A value that is not a positive finite number cannot be compared as a
    // ratio; the meters never store one, so a stored one is left out.
    if (!std::isfinite(sp.point.median) || sp.point.median <= 0) continue;
    const bool baseline_side = sp.command == "check" && sp.side == "A";
    std::string machine;
    if (!sp.point.deterministic) {
      if (baseline_side) continue;
      machine = sp.cpu_model + " @ " + sp.hostname;
    }
    SeriesKey key{sp.profile, machine, sp.point.benchmark, sp.point.kind, sp.point.metric};
    Slot& slot = grouped[key][at->second];
    ++slot.runs;
    // A check's side A is the stored baseline: its commit is where a baseline was taken.
    if (baseline_side) slot.baseline = true;
    if (slot.point == nullptr || newer(sp, *slot.point)) slot.point = &sp;
  }
  std::set<std::tuple<std::string, std::string, std::string, std::string>> accepted_at;
  for (const auto& a : accepted) accepted_at.insert({a.commit, a.benchmark, a.kind, a.metric});

  std::vector<Series> out;
  for (const auto& [key, slots] : grouped) {
    Series s;
    s.key = key;
    const auto policy = policies.policy(key.benchmark, key.kind, key.metric);
    s.threshold = policy.threshold;
    for (const auto& [pos, slot] : slots) {
      const Point& p = slot.point->point;
      s.unit = p.unit;
      s.deterministic = s.deterministic || p.deterministic;
      SeriesEntry e;
      e.position = pos;
      e.commit = history[pos].commit;
      e.subject = history[pos].subject;
      e.value = p.median;
      e.lo = p.lo;
      e.hi = p.hi;
      e.n = p.n;
      e.runs = slot.runs;
      e.created = slot.point->created;
      e.baseline = slot.baseline;
      e.accepted = accepted_at.count({e.commit, key.benchmark, key.kind, key.metric}) > 0;
      s.entries.push_back(std::move(e));
    }
    std::vector<double> values;
    for (const auto& e : s.entries) values.push_back(e.value);
    if (s.deterministic)
      s.changes = place(stats::deterministic_steps(values, s.threshold), s.entries, "step");
    else
      s.changes = place(stats::e_divisive(values, options.e_divisive), s.entries, "e-divisive");
    out.push_back(std::move(s));
  }
  return out;
}

nlohmann::json series_json(const std::vector<Series>& series, const std::string& database,
                           const std::string& head) {
  nlohmann::json out = {{"schema", "perfci.history/1"},
                        {"database", database},
                        {"head", head},
                        {"series", nlohmann::json::array()}};
  for (const auto& s : series) {
    nlohmann::json j = {{"profile", s.key.profile},
                        {"machine", s.key.machine},
                        {"benchmark", s.key.benchmark},
                        {"kind", s.key.kind},
                        {"metric", s.key.metric},
                        {"unit", s.unit},
                        {"deterministic", s.deterministic},
                        {"threshold", s.threshold},
                        {"entries", nlohmann::json::array()},
                        {"changes", nlohmann::json::array()}};
    for (const auto& e : s.entries)
      j["entries"].push_back({{"commit", e.commit},
                              {"subject", e.subject},
                              {"value", e.value},
                              {"lo", stats::json_number(e.lo)},
                              {"hi", stats::json_number(e.hi)},
                              {"n", e.n},
                              {"runs", e.runs},
                              {"created", e.created},
                              {"baseline", e.baseline},
                              {"accepted", e.accepted}});
    for (const auto& c : s.changes)
      j["changes"].push_back({{"from_commit", c.from_commit},
                              {"to_commit", c.to_commit},
                              {"subject", c.to_subject},
                              {"commits", c.commits},
                              {"method", c.method},
                              {"before", c.point.before},
                              {"after", c.point.after},
                              {"magnitude", c.point.magnitude},
                              {"lo", stats::json_number(c.point.lo)},
                              {"hi", stats::json_number(c.point.hi)},
                              {"p_value", stats::json_number(c.point.p_value)}});
    out["series"].push_back(std::move(j));
  }
  return out;
}

}  // namespace perfci::history
