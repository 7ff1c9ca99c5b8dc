#include "perfci/check/check_config.h"

#include <algorithm>

#include "perfci/util/error.h"

namespace perfci::check {
namespace {

using nlohmann::json;

const std::vector<std::string>& metric_kinds() {
  static const std::vector<std::string> kinds{"wall", "counters", "callgrind"};
  return kinds;
}

std::vector<std::string> string_list(const json& j, const std::string& field) {
  if (!j.is_array()) throw Error(field + ": expected an array of strings");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_string() || j[i].get<std::string>().empty())
      throw Error(field + "[" + std::to_string(i) + "]: expected a non-empty string");
    out.push_back(j[i].get<std::string>());
  }
  return out;
}

std::filesystem::path folder(const json& j, const std::string& field,
                             const std::filesystem::path& root) {
  if (!j.is_string() || j.get<std::string>().empty())
    throw Error(field + ": expected a folder name");
  std::filesystem::path p = j.get<std::string>();
  return (p.is_absolute() ? p : root / p).lexically_normal();
}

}  // namespace

double CheckConfig::oracle_gap_threshold(const std::string& kind) const {
  auto it = oracle_gap.find(kind);
  return it == oracle_gap.end() ? kDefaultOracleGapThreshold : it->second;
}

bool CheckConfig::information_only_kind(const std::string& kind) const {
  return std::find(information_only.begin(), information_only.end(), kind) !=
         information_only.end();
}

CheckConfig check_config_from(const Config& config) {
  const std::string origin =
      config.path.empty() ? std::string("perfci.json") : config.path.string();
  std::error_code ec;
  std::filesystem::path root = config.path.empty()
                                   ? std::filesystem::current_path()
                                   : std::filesystem::absolute(config.path, ec).parent_path();
  CheckConfig c;
  c.baselines = root / "baselines";
  c.reports = root / "reports";
  c.meters = config.meters;
  c.policies = MetricPolicies::from_config(config.raw, origin);
  if (!config.raw.is_object() || !config.raw.contains("check")) return c;

  const json& s = config.raw["check"];
  const std::string base = origin + ": check";
  if (!s.is_object()) throw Error(base + ": expected an object");
  for (const auto& [key, value] : s.items()) {
    const std::string f = base + "." + key;
    if (key == "baselines") {
      c.baselines = folder(value, f, root);
    } else if (key == "reports") {
      c.reports = folder(value, f, root);
    } else if (key == "meters") {
      c.meters = string_list(value, f);
      if (c.meters.empty()) throw Error(f + ": expected at least one meter");
      // The profile meter has no baseline to compare with: refused here, when
      // perfci.json is read, not after a build.
      for (const auto& m : c.meters)
        if (std::find(metric_kinds().begin(), metric_kinds().end(), m) == metric_kinds().end())
          throw Error(f + ": unknown meter '" + m +
                      "' for check (known: wall, counters, callgrind)");
    } else if (key == "information_only") {
      c.information_only = string_list(value, f);
      for (const auto& k : c.information_only)
        if (std::find(metric_kinds().begin(), metric_kinds().end(), k) == metric_kinds().end())
          throw Error(f + ": unknown metric kind '" + k + "' (known: wall, counters, callgrind)");
    } else if (key == "libraries") {
      c.libraries = string_list(value, f);
    } else if (key == "fallback") {
      if (!value.is_string() || (value != "compare" && value != "none"))
        throw Error(f + ": expected \"compare\" (the default) or \"none\"");
      c.fallback_compare = value == "compare";
    } else if (key == "metrics") {
      c.policies = MetricPolicies::from_config(json{{"metrics", value}}, origin + ": check");
    } else if (key == "oracle_gap") {
      if (!value.is_object()) throw Error(f + ": expected an object keyed by metric kind");
      for (const auto& [kind, t] : value.items()) {
        if (std::find(metric_kinds().begin(), metric_kinds().end(), kind) == metric_kinds().end())
          throw Error(f + "." + kind + ": unknown metric kind (known: wall, counters, callgrind)");
        if (!t.is_number() || t.get<double>() < 0 || t.get<double>() >= 10)
          throw Error(f + "." + kind + ": expected a number in [0, 10) (0.25 is 25%)");
        c.oracle_gap[kind] = t.get<double>();
      }
    } else {
      throw Error(
          f +
          ": unknown field (baselines, reports, meters, information_only, libraries, fallback, "
          "metrics, oracle_gap)");
    }
  }
  return c;
}

}  // namespace perfci::check
