// Which change counts for which metric: the thresholds of perfci.json's
// "metrics" section, per metric kind, per metric and per benchmark.
//
//   "metrics": {
//     "wall":      {"threshold": 0.03},
//     "counters":  {"threshold": 0.01, "per_metric": {"context-switches": 0.25}},
//     "callgrind": {"threshold": 0.002,
//                   "per_benchmark": {"engine/tpcc_.*": 0.005}}
//   }
//
// The most specific entry wins: per_benchmark (a regex matched against the
// whole benchmark name, first match in file order), then per_metric, then the
// kind's threshold, then the built-in default. Higher is worse for every
// metric perfci measures (time, instructions, misses).
#pragma once

#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "perfci/stats/verdict.h"

namespace perfci {

class MetricPolicies {
 public:
  // The defaults alone: 3% wall, 1% counters, 0.2% callgrind Ir.
  MetricPolicies() = default;

  // `config` is the whole perfci.json document (Config::raw); a missing
  // "metrics" section means the defaults. Throws perfci::Error naming the
  // field ("perfci.json: metrics.wall.threshold: expected a number in [0, 10)").
  static MetricPolicies from_config(const nlohmann::json& config, const std::string& origin);

  stats::MetricPolicy policy(const std::string& benchmark, const std::string& kind,
                             const std::string& metric) const;

  static double default_threshold(const std::string& kind);

 private:
  struct KindRule {
    std::string kind;
    double threshold = 0;
    std::vector<std::pair<std::string, double>> per_metric;
    std::vector<std::pair<std::regex, double>> per_benchmark;
  };
  std::vector<KindRule> kinds_;
};

}  // namespace perfci
