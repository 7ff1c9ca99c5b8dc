// All statistics of one A/B run at once: every benchmark x metric compared,
// the p-values of the paired tests adjusted together (Benjamini–Hochberg),
// then each verdict decided against its q-value. This is the entry point the
// A/B runner calls; the pieces stay usable one by one.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "perfci/stats/comparison.h"
#include "perfci/stats/verdict.h"

namespace perfci::stats {

struct MetricSamples {
  std::string benchmark;
  std::string metric;
  MetricPolicy policy;
  std::vector<double> a;  // a[i] and b[i] from pair i (unless unpaired)
  std::vector<double> b;
  // Measured apart (compare_unpaired): a and b may differ in length.
  bool unpaired = false;
};

struct MetricOutcome {
  std::string benchmark;
  std::string metric;
  MetricPolicy policy;
  Comparison comparison;
  std::optional<double> q_value;  // absent for deterministic metrics
  Decision decision;
};

struct RunAnalysisOptions {
  ComparisonOptions comparison;  // its bootstrap.seed is the run's base seed
  VerdictOptions verdict;
};

// Outcomes in the order of the inputs. Each comparison's bootstrap seed is
// derived from the base seed and its benchmark and metric names, so adding a
// benchmark to a run does not change the intervals of the others. Throws
// std::invalid_argument (naming the benchmark and metric) on invalid samples.
std::vector<MetricOutcome> analyze_run(std::span<const MetricSamples> samples,
                                       const RunAnalysisOptions& options = {});

// The seed analyze_run uses for one benchmark x metric.
std::uint64_t derive_seed(std::uint64_t base, std::string_view benchmark, std::string_view metric);

}  // namespace perfci::stats
