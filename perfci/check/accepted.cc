#include "perfci/check/accepted.h"

#include <algorithm>
#include <set>

#include "perfci/model/results.h"
#include "perfci/util/error.h"
#include "perfci/util/json_fields.h"

namespace perfci::check {
namespace {

using nlohmann::json;

bool known_metric(const std::string& metric) {
  auto slash = metric.find('/');
  if (slash == std::string::npos || slash + 1 >= metric.size()) return false;
  std::string kind = metric.substr(0, slash), name = metric.substr(slash + 1);
  if (kind == "callgrind")
    return std::find(callgrind_metrics().begin(), callgrind_metrics().end(), name) !=
           callgrind_metrics().end();
  if (kind == "wall") return name == "real_time_ns" || name == "cpu_time_ns";
  return kind == "counters";
}

}  // namespace

std::vector<AcceptedEntry> parse_accepted(const json& config, const std::string& origin) {
  std::vector<AcceptedEntry> out;
  if (!config.is_object() || !config.contains("accepted")) return out;
  Fields top(config, origin);
  const json& list = top.array("accepted");
  std::set<std::pair<std::string, std::string>> seen;
  for (std::size_t i = 0; i < list.size(); ++i) {
    Fields f(list[i], top.where("accepted", i));
    f.only({"benchmark", "metric", "commit", "reason"});
    auto field = [&](const char* key) {
      std::string value = f.str(key, false);
      if (value.find_first_not_of(" \t") == std::string::npos)
        f.fail(key, "expected a non-empty string");
      return value;
    };
    AcceptedEntry a{field("benchmark"), field("metric"), field("commit"), field("reason")};
    if (!known_metric(a.metric))
      f.fail("metric", "'" + a.metric +
                           "' is not a metric (callgrind/ir, wall/real_time_ns, wall/cpu_time_ns, "
                           "counters/<event>)");
    if (a.commit.size() < 7 || a.commit.size() > 40 ||
        a.commit.find_first_not_of("0123456789abcdef") != std::string::npos)
      f.fail("commit", "'" + a.commit + "' is not a commit hash (7 to 40 lower-case hex digits)");
    if (!seen.emplace(a.benchmark, a.metric).second)
      f.fail("", "a second entry for " + a.benchmark + " " + a.metric);
    out.push_back(std::move(a));
  }
  return out;
}

std::vector<ActiveAccepted> resolve_accepted(const std::vector<AcceptedEntry>& entries,
                                             const std::string& head,
                                             const std::string& baseline_commit,
                                             const GitHistory& git, const std::string& origin) {
  std::vector<ActiveAccepted> out;
  if (entries.empty()) return out;
  if (head.empty())
    throw Error(origin +
                ": accepted: its entries name commits, and this project is not in a git repository "
                "(perfci check cannot tell which of them apply)");
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const AcceptedEntry& e = entries[i];
    const std::string f = origin + ": accepted[" + std::to_string(i) + "].commit";
    ActiveAccepted a;
    a.entry = e;
    try {
      a.commit = git.resolve(e.commit);
    } catch (const Error& err) {
      throw Error(f + ": " + e.commit +
                  " is not a commit of this repository (a shallow clone? fetch the history): " +
                  err.what());
    }
    bool in_history = false;
    try {
      in_history = git.is_ancestor(a.commit, head);
    } catch (const Error& err) {
      throw Error(f + ": cannot tell whether " + e.commit + " is in HEAD's history: " + err.what());
    }
    if (!in_history)
      throw Error(f + ": " + e.commit +
                  " is not HEAD or an ancestor of HEAD; accept a regression with the commit "
                  "that makes it, once it is in this branch");
    if (!baseline_commit.empty()) {
      try {
        a.stale = git.is_ancestor(a.commit, baseline_commit);
      } catch (const Error&) {
        a.stale =
            false;  // the baseline's commit is not here (another branch): the entry still applies
      }
    }
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace perfci::check
