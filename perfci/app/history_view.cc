#include "perfci/app/history_view.h"

#include <regex>
#include <set>

#include "perfci/history/results_db.h"
#include "perfci/model/report.h"
#include "perfci/runner/git_history.h"
#include "perfci/runner/revision.h"
#include "perfci/stats/outcome.h"
#include "perfci/util/error.h"

namespace perfci::app {
namespace {

// Splits "kind/metric" or a bare metric name.
std::pair<std::string, std::string> metric_filter(const std::string& m) {
  if (m.empty()) return {};
  const auto slash = m.find('/');
  if (slash == std::string::npos) return {"", m};
  if (slash == 0 || slash + 1 == m.size() || m.find('/', slash + 1) != std::string::npos)
    throw Error("--metric '" + m + "': expected a metric (ir) or kind/metric (callgrind/ir)");
  return {m.substr(0, slash), m.substr(slash + 1)};
}

std::set<std::string> changed_benchmarks(const std::filesystem::path& report_file) {
  const Report r = load_report(report_file.string());
  std::set<std::string> out;
  for (const auto& b : r.benchmarks) {
    const auto o = benchmark_outcome(b.run);
    if (o == stats::Outcome::kRegressed || o == stats::Outcome::kImproved ||
        o == stats::Outcome::kAccepted)
      out.insert(b.run.name);
  }
  return out;
}

}  // namespace

std::vector<history::Series> load_history_series(const HistoryViewOptions& o) {
  const auto [kind, metric] = metric_filter(o.metric);
  try {
    (void)std::regex(o.benchmark_regex);
  } catch (const std::regex_error& e) {
    throw Error("--benchmark '" + o.benchmark_regex + "': not a regular expression: " + e.what());
  }
  auto log = first_parent_log(git_toplevel(o.repo), o.head, o.last);
  std::vector<CommitSubject> oldest_first(log.rbegin(), log.rend());

  // Reading never creates one: a mistyped --history is an error, not an empty history.
  if (!std::filesystem::exists(o.database))
    throw Error("history: no results database at " + o.database.string() +
                " (perfci check --history, or perfci.json's history.database, records one)");
  const auto db = history::ResultsDb::open(o.database);
  history::PointQuery q;
  q.profile = o.profile;
  q.benchmark_regex = o.benchmark_regex;
  q.kind = kind;
  q.metric = metric;
  for (const auto& c : oldest_first) q.commits.push_back(c.commit);
  auto points = db.points(q);

  const std::vector<history::AcceptedMark> accepted = db.accepted_marks();

  if (o.changed_report) {
    const auto changed = changed_benchmarks(*o.changed_report);
    std::erase_if(points, [&](const history::StoredPoint& p) {
      return changed.count(p.point.benchmark) == 0;
    });
  }
  return history::build_series(points, accepted, oldest_first, o.policies, o.change);
}

}  // namespace perfci::app
