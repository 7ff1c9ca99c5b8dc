#include "perfci/model/bisect_report.h"

#include "perfci/stats/stats_json.h"

namespace perfci {

using nlohmann::json;

int BisectReport::exit_code() const {
  if (incomplete) return incomplete->exit_code();
  if (outcome == "found") return 0;
  if (outcome == "no_regression") return 1;
  if (outcome == "skipped_range" || outcome == "undecided") return 3;
  return 2;
}

void to_json(json& j, const BisectCommit& v) {
  j = {{"commit", v.commit},
       {"subject", v.subject},
       {"position", v.position},
       {"probe", v.probe},
       {"status", v.status},
       {"reason", v.reason},
       {"built", v.built},
       {"reused", v.reused},
       {"build_dir", v.build_dir},
       {"value", stats::json_number(v.value)},
       {"change", stats::json_number(v.change)},
       {"samples", v.samples},
       {"good_samples", v.good_samples},
       {"pairs", v.pairs},
       {"result", v.result ? json(*v.result) : json(nullptr)}};
}

void to_json(json& j, const BisectCulprit& v) {
  j = {{"commit", v.commit},
       {"subject", v.subject},
       {"merge", v.merge},
       {"parent", v.parent},
       {"parent_subject", v.parent_subject},
       {"value_parent", v.value_parent},
       {"value", v.value},
       {"ratio", v.ratio},
       {"method", v.method},
       {"explanation", v.explanation ? json(*v.explanation) : json(nullptr)},
       {"explanation_error", v.explanation_error}};
}

void to_json(json& j, const BisectReport& v) {
  j = {{"schema", v.schema},
       {"tool_version", v.tool_version},
       {"created", v.created},
       {"benchmark", v.benchmark},
       {"metric",
        {{"kind", v.kind},
         {"name", v.metric},
         {"threshold", v.threshold},
         {"threshold_source", v.threshold_source}}},
       {"suite", v.suite},
       {"good", {{"revision", v.good_revision}, {"commit", v.good_commit}}},
       {"bad", {{"revision", v.bad_revision}, {"commit", v.bad_commit}}},
       {"candidates", v.candidates},
       {"builds", v.builds},
       {"fresh_builds", v.fresh_builds},
       {"max_builds", v.max_builds},
       {"outcome", v.outcome},
       {"exit_code", v.exit_code()},
       {"summary", v.summary},
       {"first_bad", v.first_bad ? json(*v.first_bad) : json(nullptr)},
       {"range", v.range},
       {"range_may_be_none", v.range_may_be_none},
       {"commits", v.commits},
       {"settings", v.settings},
       {"machine", v.machine},
       {"incomplete", v.incomplete ? json(*v.incomplete) : json(nullptr)},
       {"elapsed_seconds", v.elapsed_seconds}};
}

}  // namespace perfci
