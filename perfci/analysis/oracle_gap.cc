#include "perfci/analysis/oracle_gap.h"

#include "perfci/stats/descriptive.h"
#include "perfci/util/error.h"

namespace perfci::analysis {

std::vector<PrefixPair> oracle_pairs_from_config(const nlohmann::json& config,
                                                 const std::string& origin) {
  if (!config.is_object() || !config.contains("pairs")) return {};
  const auto& pairs = config["pairs"];
  if (!pairs.is_array())
    throw Error(origin + ": pairs: expected an array of {\"a\": PREFIX, \"b\": PREFIX}");
  std::vector<PrefixPair> out;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    std::string f = origin + ": pairs[" + std::to_string(i) + "]";
    const auto& p = pairs[i];
    if (!p.is_object() || !p.contains("a") || !p.contains("b") || !p["a"].is_string() ||
        !p["b"].is_string() || p["a"].get<std::string>().empty() ||
        p["b"].get<std::string>().empty())
      throw Error(f +
                  ": expected {\"a\": \"<measured prefix>\", \"b\": \"<oracle prefix>\"} (two "
                  "non-empty prefixes)");
    if (p["a"] == p["b"]) throw Error(f + ": the two prefixes are the same");
    out.push_back({p["a"].get<std::string>(), p["b"].get<std::string>()});
  }
  return out;
}

std::vector<OracleGap> oracle_gaps(const std::vector<BenchmarkRun>& benchmarks,
                                   const std::vector<PrefixPair>& pairs) {
  std::vector<OracleGap> out;
  auto find = [&](const std::string& name) -> const BenchmarkRun* {
    for (const auto& b : benchmarks)
      if (b.name == name && !b.failed()) return &b;
    return nullptr;
  };
  for (const auto& pair : pairs) {
    for (const auto& b : benchmarks) {
      if (b.failed() || b.name.rfind(pair.measured, 0) != 0) continue;
      std::string workload = b.name.substr(pair.measured.size());
      const BenchmarkRun* oracle = find(pair.oracle + workload);
      if (!oracle) continue;
      for (const auto& m : b.metrics) {
        for (const auto& o : oracle->metrics) {
          if (o.kind != m.kind || o.metric != m.metric || m.a.empty() || o.a.empty() ||
              m.b.empty() || o.b.empty())
            continue;
          double oa = stats::median(o.a), ob = stats::median(o.b);
          if (oa <= 0 || ob <= 0) continue;
          OracleGap g;
          g.workload = workload;
          g.benchmark = b.name;
          g.oracle = oracle->name;
          g.metric = m.kind + "/" + m.metric;
          g.gap_a = stats::median(m.a) / oa;
          g.gap_b = stats::median(m.b) / ob;
          g.change = g.gap_a > 0 ? g.gap_b / g.gap_a - 1 : 0;
          out.push_back(g);
        }
      }
    }
  }
  return out;
}

}  // namespace perfci::analysis
