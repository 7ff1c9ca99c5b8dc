#include "perfci/check/check_config.h"

#include <algorithm>

#include "perfci/util/error.h"
#include "perfci/util/json_fields.h"

namespace perfci::check {
namespace {

using nlohmann::json;

const std::vector<std::string>& metric_kinds() {
  static const std::vector<std::string> kinds{"wall", "counters", "callgrind"};
  return kinds;
}

std::filesystem::path folder(const Fields& f, const std::string& key,
                             const std::filesystem::path& root) {
  const json& v = f.at(key);
  if (!v.is_string() || v.get_ref<const std::string&>().empty())
    f.fail(key, "expected a folder name");
  std::filesystem::path p = v.get<std::string>();
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

  Fields top(config.raw, origin);
  const json& check = top.object("check");
  Fields s(check, top.where("check"));
  s.only({"baselines", "reports", "meters", "information_only", "libraries", "fallback", "metrics",
          "oracle_gap"});
  for (const auto& [key, value] : check.items()) {
    if (key == "baselines") {
      c.baselines = folder(s, key, root);
    } else if (key == "reports") {
      c.reports = folder(s, key, root);
    } else if (key == "meters") {
      c.meters = s.strings(key, false);
      if (c.meters.empty()) s.fail(key, "expected at least one meter");
      // The profile meter has no baseline to compare with: refused here, when
      // perfci.json is read, not after a build.
      for (const auto& m : c.meters)
        if (std::find(metric_kinds().begin(), metric_kinds().end(), m) == metric_kinds().end())
          s.fail(key, "unknown meter '" + m + "' for check (known: wall, counters, callgrind)");
    } else if (key == "information_only") {
      c.information_only = s.strings(key, false);
      for (const auto& k : c.information_only)
        if (std::find(metric_kinds().begin(), metric_kinds().end(), k) == metric_kinds().end())
          s.fail(key, "unknown metric kind '" + k + "' (known: wall, counters, callgrind)");
    } else if (key == "libraries") {
      c.libraries = s.strings(key, false);
    } else if (key == "fallback") {
      if (!value.is_string() || (value != "compare" && value != "none"))
        s.fail(key, "expected \"compare\" (the default) or \"none\"");
      c.fallback_compare = value == "compare";
    } else if (key == "metrics") {
      c.policies = MetricPolicies::from_config(json{{"metrics", value}}, origin + ": check");
    } else if (key == "oracle_gap") {
      Fields gap(s.object(key), s.where(key));
      for (const auto& [kind, t] : value.items()) {
        if (std::find(metric_kinds().begin(), metric_kinds().end(), kind) == metric_kinds().end())
          gap.fail(kind, "unknown metric kind (known: wall, counters, callgrind)");
        c.oracle_gap[kind] = threshold_from_json(t, gap.where(kind));
      }
    }
  }
  return c;
}

}  // namespace perfci::check
