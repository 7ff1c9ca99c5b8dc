// JSON for the statistics, so reports embed them and `perfci report` can
// render a saved run again. Found by nlohmann's ADL: `json j = comparison;`
// and `j.get<Comparison>()`.
//
// Numbers that are not finite (a detectable effect of +inf: too few pairs)
// are written as null and read back as +inf; enums are lower-case strings
// ("hodges-lehmann", "regressed", "higher-is-worse"). Reading an unknown enum
// string throws std::invalid_argument; a missing or mistyped field throws
// nlohmann::json's exceptions.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>

#include "perfci/stats/bootstrap.h"
#include "perfci/stats/comparison.h"
#include "perfci/stats/descriptive.h"
#include "perfci/stats/noise_summary.h"
#include "perfci/stats/run_analysis.h"
#include "perfci/stats/verdict.h"
#include "perfci/stats/wilcoxon.h"

namespace perfci::stats {

// A number as every perfci JSON writes it: null when absent or not finite.
nlohmann::json json_number(double v);
nlohmann::json json_number(const std::optional<double>& v);

void to_json(nlohmann::json& j, Estimator v);
void from_json(const nlohmann::json& j, Estimator& v);
void to_json(nlohmann::json& j, IntervalMethod v);
void from_json(const nlohmann::json& j, IntervalMethod& v);
void to_json(nlohmann::json& j, ZeroMethod v);
void from_json(const nlohmann::json& j, ZeroMethod& v);
void to_json(nlohmann::json& j, Verdict v);
void from_json(const nlohmann::json& j, Verdict& v);
void to_json(nlohmann::json& j, Direction v);
void from_json(const nlohmann::json& j, Direction& v);

void to_json(nlohmann::json& j, const Summary& v);
void from_json(const nlohmann::json& j, Summary& v);
void to_json(nlohmann::json& j, const Interval& v);
void from_json(const nlohmann::json& j, Interval& v);
void to_json(nlohmann::json& j, const WilcoxonResult& v);
void from_json(const nlohmann::json& j, WilcoxonResult& v);
void to_json(nlohmann::json& j, const RankSumResult& v);
void from_json(const nlohmann::json& j, RankSumResult& v);
void to_json(nlohmann::json& j, const Comparison& v);
void from_json(const nlohmann::json& j, Comparison& v);
void to_json(nlohmann::json& j, const NoiseSummary& v);
void from_json(const nlohmann::json& j, NoiseSummary& v);
void to_json(nlohmann::json& j, const MetricPolicy& v);
void from_json(const nlohmann::json& j, MetricPolicy& v);
void to_json(nlohmann::json& j, const Decision& v);
void from_json(const nlohmann::json& j, Decision& v);
void to_json(nlohmann::json& j, const MetricOutcome& v);
void from_json(const nlohmann::json& j, MetricOutcome& v);

// The settings a report records so that its numbers can be reproduced.
void to_json(nlohmann::json& j, const BootstrapOptions& v);
void from_json(const nlohmann::json& j, BootstrapOptions& v);
void to_json(nlohmann::json& j, const WilcoxonOptions& v);
void from_json(const nlohmann::json& j, WilcoxonOptions& v);
void to_json(nlohmann::json& j, const DetectableEffectOptions& v);
void from_json(const nlohmann::json& j, DetectableEffectOptions& v);
void to_json(nlohmann::json& j, const ComparisonOptions& v);
void from_json(const nlohmann::json& j, ComparisonOptions& v);
void to_json(nlohmann::json& j, const VerdictOptions& v);
void from_json(const nlohmann::json& j, VerdictOptions& v);
void to_json(nlohmann::json& j, const RunAnalysisOptions& v);
void from_json(const nlohmann::json& j, RunAnalysisOptions& v);

}  // namespace perfci::stats
