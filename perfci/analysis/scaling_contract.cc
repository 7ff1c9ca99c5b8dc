#include "perfci/analysis/scaling_contract.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "perfci/stats/scaling_fit.h"

namespace perfci::analysis {
namespace {

using contracts::ContractResult;
using contracts::Verdict;

// "4k" for 4000, "1M" for 1000000: the sizes as Google Benchmark's ranges
// are usually written.
std::string size_words(double n) {
  if (n >= 1e6 && std::fmod(n, 1e6) == 0) return fmt::format("{:g}M", n / 1e6);
  if (n >= 1e3 && std::fmod(n, 1e3) == 0) return fmt::format("{:g}k", n / 1e3);
  return fmt::format("{:g}", n);
}

// The size of "<family>/<n>", or none for another benchmark.
std::optional<double> size_of(const std::string& family, const std::string& name) {
  if (name.size() <= family.size() + 1 || name.compare(0, family.size(), family) != 0 ||
      name[family.size()] != '/')
    return std::nullopt;
  const std::string rest = name.substr(family.size() + 1);
  if (!std::all_of(rest.begin(), rest.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
      rest.size() > 15)
    return std::nullopt;
  return std::stod(rest);
}

}  // namespace

std::pair<std::string, std::string> scaling_metric(const contracts::Contract& c) {
  return c.metric == "wall" ? std::pair<std::string, std::string>{"wall", "real_time_ns"}
                            : std::pair<std::string, std::string>{"callgrind", "ir"};
}

ContractResult check_scaling(const contracts::Contract& contract, const MetricSamples& samples) {
  ContractResult r;
  r.contract = contract;
  r.verdict = Verdict::kError;
  const auto [kind, metric] = scaling_metric(contract);
  const bool wall = kind == "wall";
  std::vector<std::pair<double, std::vector<double>>> sizes;
  for (const auto& [name, values] : samples)
    if (auto n = size_of(contract.family, name)) {
      if (values.empty() ||
          std::any_of(values.begin(), values.end(), [](double v) { return !(v > 0); })) {
        r.message = fmt::format(
            "{}: no {} {} measured (the benchmark failed, or the meter's filter leaves it out)",
            name, kind, metric);
        return r;
      }
      if (wall && values.size() < 3) {
        r.message = fmt::format(
            "{}: {} wall sample(s); a wall scaling contract needs 3 or more per size (an A/B "
            "run's pairs) to tell growth from noise, or use \"metric\": \"callgrind\"",
            name, values.size());
        return r;
      }
      sizes.emplace_back(*n, values);
    }
  std::sort(sizes.begin(), sizes.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  if (sizes.size() < 2) {
    r.message =
        fmt::format("{} size(s) of {}/<n> measured with {}; a scaling contract needs two or more",
                    sizes.size(), contract.family, kind);
    return r;
  }

  contracts::ScalingFit fit;
  fit.metric = kind + "/" + metric;
  for (auto& [n, values] : sizes) {
    std::vector<double> v = values;
    std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
    fit.points.emplace_back(n, v[v.size() / 2]);
  }
  try {
    fit.exponent = stats::fitted_exponent(fit.points);
    double worst_margin = -INFINITY;
    for (std::size_t i = 0; i + 1 < sizes.size(); ++i) {
      const double n1 = sizes[i].first, n2 = sizes[i + 1].first;
      // Wall: the lowest slope the samples allow; callgrind: the slope.
      const double c1 = wall ? *std::max_element(sizes[i].second.begin(), sizes[i].second.end())
                             : fit.points[i].second;
      const double c2 =
          wall ? *std::min_element(sizes[i + 1].second.begin(), sizes[i + 1].second.end())
               : fit.points[i + 1].second;
      const double slope = stats::loglog_slope(n1, c1, n2, c2);
      const double bound = contract.order.empty()
                               ? contract.max_exponent
                               : stats::order_exponent(contract.order, n1, n2) + contract.tolerance;
      if (slope - bound > worst_margin) {
        worst_margin = slope - bound;
        fit.steepest = slope;
        fit.from = n1;
        fit.to = n2;
        fit.bound = bound;
      }
    }
  } catch (const std::invalid_argument& e) {
    r.message = fmt::format("{}: {}", contract.family, e.what());
    return r;
  }
  const bool broken = fit.steepest > fit.bound;
  r.verdict = broken ? Verdict::kBroken : Verdict::kOk;
  const std::string bound_words =
      contract.order.empty()
          ? fmt::format("bound {:.2f}", fit.bound)
          : fmt::format("bound {:.2f}: {} + {:g}", fit.bound, contract.order, contract.tolerance);
  r.message = fmt::format(
      "{}/n {} as n^{:.2f} between {} and {} ({}; {}{}); n^{:.2f} fitted over {} sizes {}..{}",
      contract.family, broken ? "grows" : "grows at most", fit.steepest, size_words(fit.from),
      size_words(fit.to), bound_words, fit.metric, wall ? ", lowest slope the samples allow" : "",
      fit.exponent, fit.points.size(), size_words(fit.points.front().first),
      size_words(fit.points.back().first));
  r.scaling = std::move(fit);
  return r;
}

MetricSamples run_samples(const RunResults& results, const std::string& kind,
                          const std::string& metric) {
  MetricSamples out;
  for (const auto& b : results.benchmarks) {
    auto& v = out[b.name];  // a failed benchmark stays, without samples
    for (const auto& m : metric_values(b))
      if (m.kind == kind && m.metric == metric) v.push_back(m.value);
  }
  return out;
}

MetricSamples side_samples(const AbRun& run, bool side_b, const std::string& kind,
                           const std::string& metric) {
  MetricSamples out;
  for (const auto& b : run.benchmarks) {
    auto& v = out[b.name];
    for (const auto& m : b.metrics)
      if (m.kind == kind && m.metric == metric) v = side_b ? m.b : m.a;
  }
  return out;
}

bool family_measured(const contracts::Contract& contract, const std::vector<std::string>& names) {
  return std::any_of(names.begin(), names.end(),
                     [&](const std::string& n) { return size_of(contract.family, n).has_value(); });
}

void add_scaling_results(
    std::optional<contracts::ContractReport>& report,
    const std::vector<contracts::Contract>& contracts, const std::string& binary,
    const std::function<MetricSamples(const std::string&, const std::string&)>& samples,
    bool only_measured_families) {
  if (report && !report->error.empty()) return;
  std::map<std::pair<std::string, std::string>, MetricSamples> by_metric;
  for (const auto& c : contracts) {
    if (!c.measured()) continue;
    const auto key = scaling_metric(c);
    if (!by_metric.count(key)) by_metric[key] = samples(key.first, key.second);
    const MetricSamples& s = by_metric[key];
    if (only_measured_families) {
      std::vector<std::string> names;
      for (const auto& [name, values] : s) names.push_back(name);
      if (!family_measured(c, names)) continue;
    }
    if (!report) {
      report.emplace();
      report->binary = binary;
    }
    report->results.push_back(check_scaling(c, s));
  }
}

}  // namespace perfci::analysis
