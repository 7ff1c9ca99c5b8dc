#include "perfci/runner/metric_policy.h"

#include "perfci/config/config.h"
#include "perfci/util/error.h"

namespace perfci {
namespace {

double threshold_value(const nlohmann::json& j, const std::string& field) {
  return threshold_from_json(j, field);
}

}  // namespace

double MetricPolicies::default_threshold(const std::string& kind) {
  if (kind == "wall") return 0.03;
  if (kind == "counters") return 0.01;
  if (kind == "callgrind") return 0.002;
  return 0.03;
}

MetricPolicies MetricPolicies::from_config(const nlohmann::json& config,
                                           const std::string& origin) {
  MetricPolicies out;
  if (!config.is_object() || !config.contains("metrics")) return out;
  const auto& metrics = config["metrics"];
  std::string base = origin + ": metrics";
  if (!metrics.is_object()) throw Error(base + ": expected an object keyed by meter kind");
  for (const auto& [kind, rule] : metrics.items()) {
    std::string f = base + "." + kind;
    if (kind != "wall" && kind != "counters" && kind != "callgrind")
      throw Error(f + ": unknown metric kind (known: wall, counters, callgrind)");
    if (!rule.is_object()) throw Error(f + ": expected an object");
    KindRule k;
    k.kind = kind;
    k.threshold = default_threshold(kind);
    for (const auto& [key, value] : rule.items()) {
      if (key == "threshold") {
        k.threshold = threshold_value(value, f + ".threshold");
      } else if (key == "per_metric" || key == "per_benchmark") {
        if (!value.is_object()) throw Error(f + "." + key + ": expected an object");
        for (const auto& [name, t] : value.items()) {
          double v = threshold_value(t, f + "." + key + "." + name);
          if (key == "per_metric") {
            k.per_metric.emplace_back(name, v);
            continue;
          }
          try {
            k.per_benchmark.emplace_back(std::regex(name, std::regex::extended), v);
          } catch (const std::regex_error& e) {
            throw Error(f + ".per_benchmark." + name + ": not a valid regex: " + e.what());
          }
        }
      } else {
        throw Error(f + "." + key + ": unknown field (threshold, per_metric, per_benchmark)");
      }
    }
    out.kinds_.push_back(std::move(k));
  }
  return out;
}

stats::MetricPolicy MetricPolicies::policy(const std::string& benchmark, const std::string& kind,
                                           const std::string& metric) const {
  stats::MetricPolicy p;
  p.direction = stats::Direction::kHigherIsWorse;
  p.deterministic = kind == "callgrind";
  p.threshold = default_threshold(kind);
  for (const auto& k : kinds_) {
    if (k.kind != kind) continue;
    p.threshold = k.threshold;
    for (const auto& [name, t] : k.per_metric)
      if (name == metric) p.threshold = t;
    for (const auto& [re, t] : k.per_benchmark) {
      if (std::regex_match(benchmark, re)) {
        p.threshold = t;
        break;
      }
    }
  }
  return p;
}

}  // namespace perfci
