#include "perfci/check/oracle_gap_gate.h"

#include <fmt/format.h>

#include "perfci/model/number_format.h"
#include "perfci/util/error.h"

namespace perfci::check {

std::vector<OracleGap> gate_oracle_gaps(const std::vector<BenchmarkRun>& runs,
                                        const OracleGapRules& rules, const AcceptedLookup& accepted,
                                        std::vector<std::string>& findings) {
  std::vector<OracleGap> gaps = analysis::oracle_gaps(runs, rules.pairs);
  for (auto& g : gaps) {
    std::string kind = g.metric.substr(0, g.metric.find('/'));
    double t = rules.config.oracle_gap_threshold(kind);
    g.threshold = t;
    // A gap is a ratio of two medians: higher is worse, whatever the metric.
    g.verdict = stats::verdict_by_threshold(g.change, t, stats::Direction::kHigherIsWorse);
    g.gate =
        rules.config.information_only_kind(kind) ? stats::Gate::kInformation : stats::Gate::kGated;
    if (g.gate == stats::Gate::kGated && g.verdict == stats::Verdict::kRegressed) {
      if (accepted(g.benchmark, g.metric)) {
        g.gate = stats::Gate::kAccepted;
      } else {
        findings.push_back(
            fmt::format("oracle gap of {} ({}): {:.2f}x -> {:.2f}x, {} (threshold {})", g.workload,
                        g.metric, g.gap_a, g.gap_b, perfci::format_change_precise(g.change),
                        perfci::format_threshold(t)));
      }
    }
  }
  return gaps;
}

nlohmann::json oracle_gap_rules_json(const OracleGapRules& rules) {
  nlohmann::json pairs = nlohmann::json::array();
  for (const auto& p : rules.pairs)
    pairs.push_back({{"measured", p.measured}, {"oracle", p.oracle}});
  nlohmann::json threshold = nlohmann::json::object();
  for (const char* kind : {"wall", "counters", "callgrind"})
    threshold[kind] = rules.config.oracle_gap_threshold(kind);
  return {{"pairs", pairs},
          {"threshold", threshold},
          {"information_only", rules.config.information_only}};
}

OracleGapRules oracle_gap_rules_from_json(const nlohmann::json& j, const std::string& origin) {
  try {
    OracleGapRules rules;
    for (const auto& p : j.at("pairs"))
      rules.pairs.push_back(
          {p.at("measured").get<std::string>(), p.at("oracle").get<std::string>()});
    for (const auto& [kind, t] : j.at("threshold").items())
      rules.config.oracle_gap[kind] = t.get<double>();
    rules.config.information_only = j.at("information_only").get<std::vector<std::string>>();
    return rules;
  } catch (const nlohmann::json::exception& e) {
    throw Error(origin + ": settings.oracle_gap: " + e.what());
  }
}

}  // namespace perfci::check
