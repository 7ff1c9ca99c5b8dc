#include "perfci/stats/run_analysis.h"

#include <fmt/core.h>

#include <stdexcept>

#include "perfci/stats/false_discovery.h"

namespace perfci::stats {
namespace {

std::uint64_t fnv1a(std::uint64_t h, std::string_view s) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

// SplitMix64's finaliser: nearby inputs give unrelated seeds.
std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

std::uint64_t derive_seed(std::uint64_t base, std::string_view benchmark, std::string_view metric) {
  std::uint64_t h = fnv1a(0xcbf29ce484222325ULL, benchmark);
  h = fnv1a(h ^ 0xff, metric);  // a separator, so ("ab","c") differs from ("a","bc")
  return mix(base ^ mix(h));
}

std::vector<MetricOutcome> analyze_run(std::span<const MetricSamples> samples,
                                       const RunAnalysisOptions& options) {
  std::vector<MetricOutcome> out;
  out.reserve(samples.size());
  std::vector<double> p_values;
  std::vector<std::size_t> tested;
  for (const MetricSamples& s : samples) {
    MetricOutcome o{s.benchmark, s.metric, s.policy, {}, std::nullopt, {}};
    try {
      if (s.policy.deterministic) {
        o.comparison = compare_deterministic(s.a, s.b);
      } else {
        ComparisonOptions co = options.comparison;
        co.bootstrap.seed = derive_seed(options.comparison.bootstrap.seed, s.benchmark, s.metric);
        o.comparison = s.unpaired ? compare_unpaired(s.a, s.b, co) : compare_paired(s.a, s.b, co);
        p_values.push_back(*o.comparison.p_value());
        tested.push_back(out.size());
      }
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(fmt::format("{} / {}: {}", s.benchmark, s.metric, e.what()));
    }
    out.push_back(std::move(o));
  }
  const std::vector<double> q = benjamini_hochberg(p_values);
  for (std::size_t k = 0; k < tested.size(); ++k) out[tested[k]].q_value = q[k];
  for (MetricOutcome& o : out)
    o.decision = decide(o.comparison, o.policy, o.q_value, options.verdict);
  return out;
}

}  // namespace perfci::stats
