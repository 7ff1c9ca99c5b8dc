#include "perfci/stats/stats_json.h"

#include <fmt/core.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace perfci::stats {
namespace {

using nlohmann::json;

double read_number(const json& j, const char* key, double if_null) {
  const json& v = j.at(key);
  return v.is_null() ? if_null : v.get<double>();
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

template <typename Enum, std::size_t N>
Enum parse_enum(const json& j, const Enum (&all)[N], const char* what) {
  const std::string text = j.get<std::string>();
  for (Enum e : all)
    if (to_string(e) == text) return e;
  throw std::invalid_argument(fmt::format("unknown {} \"{}\"", what, text));
}

}  // namespace

json json_number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }
json json_number(const std::optional<double>& v) { return v ? json_number(*v) : json(nullptr); }

void to_json(json& j, Estimator v) { j = std::string(to_string(v)); }
void from_json(const json& j, Estimator& v) {
  constexpr Estimator all[] = {Estimator::kMedian, Estimator::kHodgesLehmann};
  v = parse_enum(j, all, "estimator");
}
void to_json(json& j, IntervalMethod v) { j = std::string(to_string(v)); }
void from_json(const json& j, IntervalMethod& v) {
  constexpr IntervalMethod all[] = {IntervalMethod::kPercentile, IntervalMethod::kBca};
  v = parse_enum(j, all, "interval method");
}
void to_json(json& j, ZeroMethod v) { j = std::string(to_string(v)); }
void from_json(const json& j, ZeroMethod& v) {
  constexpr ZeroMethod all[] = {ZeroMethod::kPratt, ZeroMethod::kDrop};
  v = parse_enum(j, all, "zero method");
}
void to_json(json& j, Verdict v) { j = std::string(to_string(v)); }
void from_json(const json& j, Verdict& v) {
  constexpr Verdict all[] = {Verdict::kRegressed, Verdict::kImproved, Verdict::kUnchanged,
                             Verdict::kNoisy};
  v = parse_enum(j, all, "verdict");
}
void to_json(json& j, Direction v) { j = std::string(to_string(v)); }
void from_json(const json& j, Direction& v) {
  constexpr Direction all[] = {Direction::kHigherIsWorse, Direction::kHigherIsBetter};
  v = parse_enum(j, all, "direction");
}

void to_json(json& j, const Summary& v) {
  j = json{{"n", v.n},
           {"min", json_number(v.min)},
           {"max", json_number(v.max)},
           {"mean", json_number(v.mean)},
           {"stddev", json_number(v.stddev)},
           {"cv", json_number(v.cv)},
           {"median", json_number(v.median)},
           {"q1", json_number(v.q1)},
           {"q3", json_number(v.q3)},
           {"iqr", json_number(v.iqr)},
           {"mad", json_number(v.mad)}};
}
void from_json(const json& j, Summary& v) {
  v.n = j.at("n").get<std::size_t>();
  v.min = read_number(j, "min", kNaN);
  v.max = read_number(j, "max", kNaN);
  v.mean = read_number(j, "mean", kNaN);
  v.stddev = read_number(j, "stddev", kNaN);
  v.cv = read_number(j, "cv", kNaN);
  v.median = read_number(j, "median", kNaN);
  v.q1 = read_number(j, "q1", kNaN);
  v.q3 = read_number(j, "q3", kNaN);
  v.iqr = read_number(j, "iqr", kNaN);
  v.mad = read_number(j, "mad", kNaN);
}

void to_json(json& j, const Interval& v) {
  j = json{{"lo", json_number(v.lo)}, {"hi", json_number(v.hi)}, {"level", v.level}};
}
void from_json(const json& j, Interval& v) {
  v.lo = read_number(j, "lo", kNaN);
  v.hi = read_number(j, "hi", kNaN);
  v.level = j.at("level").get<double>();
}

void to_json(json& j, const WilcoxonResult& v) {
  j = json{{"name", "wilcoxon-signed-rank"},
           {"n", v.n},
           {"zeros", v.zeros},
           {"w_plus", v.w_plus},
           {"w_minus", v.w_minus},
           {"z", json_number(v.z)},
           {"p_value", v.p_value},
           {"exact", v.exact},
           {"ties", v.ties}};
}
void from_json(const json& j, WilcoxonResult& v) {
  v.n = j.at("n").get<std::size_t>();
  v.zeros = j.at("zeros").get<std::size_t>();
  v.w_plus = j.at("w_plus").get<double>();
  v.w_minus = j.at("w_minus").get<double>();
  v.z = read_number(j, "z", kNaN);
  v.p_value = j.at("p_value").get<double>();
  v.exact = j.at("exact").get<bool>();
  v.ties = j.at("ties").get<bool>();
}

void to_json(json& j, const RankSumResult& v) {
  j = json{
      {"name", "mann-whitney-u"}, {"n_a", v.n_a},         {"n_b", v.n_b},     {"u_b", v.u_b},
      {"z", json_number(v.z)},    {"p_value", v.p_value}, {"exact", v.exact}, {"ties", v.ties}};
}
void from_json(const json& j, RankSumResult& v) {
  v.n_a = j.at("n_a").get<std::size_t>();
  v.n_b = j.at("n_b").get<std::size_t>();
  v.u_b = j.at("u_b").get<double>();
  v.z = read_number(j, "z", kNaN);
  v.p_value = j.at("p_value").get<double>();
  v.exact = j.at("exact").get<bool>();
  v.ties = j.at("ties").get<bool>();
}

void to_json(json& j, const Comparison& v) {
  j = json{{"deterministic", v.deterministic},
           {"a", v.a},
           {"b", v.b},
           {"ratios", v.ratios},
           {"median_ratio", json_number(v.median_ratio)},
           {"hl_ratio", json_number(v.hl_ratio)},
           {"estimator", v.estimator},
           {"ratio", json_number(v.ratio)},
           {"change", json_number(v.change())},
           {"interval", v.interval},
           {"test", v.test       ? json(*v.test)
                    : v.rank_sum ? json(*v.rank_sum)
                                 : json(nullptr)},
           {"log_ratio_sigma", json_number(v.log_ratio_sigma)},
           {"detectable_effect", json_number(v.detectable_effect)}};
}
void from_json(const json& j, Comparison& v) {
  v.deterministic = j.at("deterministic").get<bool>();
  v.a = j.at("a").get<Summary>();
  v.b = j.at("b").get<Summary>();
  v.ratios = j.at("ratios").get<std::vector<double>>();
  v.median_ratio = read_number(j, "median_ratio", kNaN);
  v.hl_ratio = read_number(j, "hl_ratio", kNaN);
  v.estimator = j.at("estimator").get<Estimator>();
  v.ratio = read_number(j, "ratio", kNaN);
  v.interval = j.at("interval").get<Interval>();
  const json& test = j.at("test");
  v.test.reset();
  v.rank_sum.reset();
  if (!test.is_null()) {
    if (test.value("name", "") == "mann-whitney-u")
      v.rank_sum = test.get<RankSumResult>();
    else
      v.test = test.get<WilcoxonResult>();
  }
  v.log_ratio_sigma = read_number(j, "log_ratio_sigma", kNaN);
  v.detectable_effect = read_number(j, "detectable_effect", kInf);
}

void to_json(json& j, const NoiseSummary& v) {
  j = json{{"pairs", v.pairs},
           {"cv_a", json_number(v.cv_a)},
           {"cv_b", json_number(v.cv_b)},
           {"pair_noise", json_number(v.pair_noise)},
           {"p95_abs_change", json_number(v.p95_abs_change)},
           {"ratio", json_number(v.ratio)},
           {"interval", v.interval},
           {"p_value", v.p_value},
           {"detectable_effect", json_number(v.detectable_effect)}};
}
void from_json(const json& j, NoiseSummary& v) {
  v.pairs = j.at("pairs").get<std::size_t>();
  v.cv_a = read_number(j, "cv_a", kNaN);
  v.cv_b = read_number(j, "cv_b", kNaN);
  v.pair_noise = read_number(j, "pair_noise", kNaN);
  v.p95_abs_change = read_number(j, "p95_abs_change", kNaN);
  v.ratio = read_number(j, "ratio", kNaN);
  v.interval = j.at("interval").get<Interval>();
  v.p_value = j.at("p_value").get<double>();
  v.detectable_effect = read_number(j, "detectable_effect", kInf);
}

void to_json(json& j, const MetricPolicy& v) {
  j = json{
      {"threshold", v.threshold}, {"direction", v.direction}, {"deterministic", v.deterministic}};
}
void from_json(const json& j, MetricPolicy& v) {
  v.threshold = j.at("threshold").get<double>();
  v.direction = j.at("direction").get<Direction>();
  v.deterministic = j.at("deterministic").get<bool>();
}

void to_json(json& j, const Decision& v) { j = json{{"verdict", v.verdict}, {"reason", v.reason}}; }
void from_json(const json& j, Decision& v) {
  v.verdict = j.at("verdict").get<Verdict>();
  v.reason = j.at("reason").get<std::string>();
}

void to_json(json& j, const MetricOutcome& v) {
  j = json{{"benchmark", v.benchmark},
           {"metric", v.metric},
           {"policy", v.policy},
           {"statistics", v.comparison},
           {"q_value", v.q_value ? json(*v.q_value) : json(nullptr)},
           {"verdict", v.decision.verdict},
           {"reason", v.decision.reason}};
}
void from_json(const json& j, MetricOutcome& v) {
  v.benchmark = j.at("benchmark").get<std::string>();
  v.metric = j.at("metric").get<std::string>();
  v.policy = j.at("policy").get<MetricPolicy>();
  v.comparison = j.at("statistics").get<Comparison>();
  const json& q = j.at("q_value");
  v.q_value = q.is_null() ? std::nullopt : std::optional(q.get<double>());
  v.decision = j.get<Decision>();
}

void to_json(json& j, const BootstrapOptions& v) {
  j = json{{"resamples", v.resamples},
           {"confidence", v.confidence},
           {"method", v.method},
           {"seed", v.seed}};
}
void from_json(const json& j, BootstrapOptions& v) {
  v.resamples = j.at("resamples").get<std::size_t>();
  v.confidence = j.at("confidence").get<double>();
  v.method = j.at("method").get<IntervalMethod>();
  v.seed = j.at("seed").get<std::uint64_t>();
}

void to_json(json& j, const WilcoxonOptions& v) {
  j = json{{"zero_method", v.zero_method},
           {"exact_max_n", v.exact_max_n},
           {"continuity_correction", v.continuity_correction}};
}
void from_json(const json& j, WilcoxonOptions& v) {
  v.zero_method = j.at("zero_method").get<ZeroMethod>();
  v.exact_max_n = j.at("exact_max_n").get<std::size_t>();
  v.continuity_correction = j.at("continuity_correction").get<bool>();
}

void to_json(json& j, const DetectableEffectOptions& v) {
  j = json{{"alpha", v.alpha}, {"power", v.power}};
}
void from_json(const json& j, DetectableEffectOptions& v) {
  v.alpha = j.at("alpha").get<double>();
  v.power = j.at("power").get<double>();
}

void to_json(json& j, const ComparisonOptions& v) {
  j = json{{"estimator", v.estimator},
           {"bootstrap", v.bootstrap},
           {"wilcoxon", v.wilcoxon},
           {"detectable", v.detectable}};
}
void from_json(const json& j, ComparisonOptions& v) {
  v.estimator = j.at("estimator").get<Estimator>();
  v.bootstrap = j.at("bootstrap").get<BootstrapOptions>();
  v.wilcoxon = j.at("wilcoxon").get<WilcoxonOptions>();
  v.detectable = j.at("detectable").get<DetectableEffectOptions>();
}

void to_json(json& j, const VerdictOptions& v) {
  j = json{{"alpha", v.alpha},
           {"require_interval_beyond_threshold", v.require_interval_beyond_threshold}};
}
void from_json(const json& j, VerdictOptions& v) {
  v.alpha = j.at("alpha").get<double>();
  v.require_interval_beyond_threshold = j.at("require_interval_beyond_threshold").get<bool>();
}

void to_json(json& j, const RunAnalysisOptions& v) {
  j = json{{"comparison", v.comparison}, {"verdict", v.verdict}};
}
void from_json(const json& j, RunAnalysisOptions& v) {
  v.comparison = j.at("comparison").get<ComparisonOptions>();
  v.verdict = j.at("verdict").get<VerdictOptions>();
}

}  // namespace perfci::stats
