#include "perfci/baseline/baseline.h"

#include <set>

#include "perfci/util/error.h"
#include "perfci/util/json_fields.h"
#include "perfci/version.h"

namespace perfci::baseline {

using nlohmann::json;

json baseline_to_json(const Baseline& b) {
  const SuiteSettings& s = b.settings;
  return json{{"schema", kBaselineSchema},
              {"profile", b.profile},
              {"provenance",
               {{"commit", b.provenance.commit},
                {"dirty", b.provenance.dirty},
                {"created", b.provenance.created},
                {"reason", b.provenance.reason},
                {"tool_version", b.provenance.tool_version}}},
              {"settings",
               {{"suite", s.suite},
                {"binary", s.binary},
                {"args", s.args},
                {"meters", s.meters},
                {"filter", s.filter},
                {"callgrind_filter", s.callgrind_filter},
                {"callgrind_iterations", s.callgrind_iterations},
                {"min_time", s.min_time ? json(*s.min_time) : json(nullptr)}}},
              {"contracts", b.contracts ? b.contracts->to_json() : json(nullptr)},
              {"results", b.results}};
}

Baseline parse_baseline(const std::string& text, const std::string& origin) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    throw Error(origin + ": not valid JSON (truncated or edited by hand?): " + e.what());
  }
  if (!doc.is_object()) throw Error(origin + ": expected a JSON object");
  Fields f(doc, origin);
  std::string schema = f.str("schema");
  if (schema != kBaselineSchema)
    f.fail("schema", "is \"" + schema + "\", this perfci reads \"" + kBaselineSchema + "\"");
  Baseline b;
  b.profile = profile_from_json(f.at("profile"), f.where("profile"));

  Fields p(f.object("provenance"), f.where("provenance"));
  b.provenance.commit = p.str("commit");
  if (!b.provenance.commit.empty() &&
      (b.provenance.commit.size() != 40 ||
       b.provenance.commit.find_first_not_of("0123456789abcdef") != std::string::npos))
    p.fail("commit", "expected a full 40-digit commit hash (or empty)");
  b.provenance.dirty = p.boolean("dirty");
  b.provenance.created = p.str("created", false);
  b.provenance.reason = p.str("reason", false);
  b.provenance.tool_version = p.str("tool_version");

  Fields s(f.object("settings"), f.where("settings"));
  b.settings.suite = s.str("suite", false);
  b.settings.binary = s.str("binary", false);
  b.settings.args = s.strings("args");
  b.settings.meters = s.strings("meters");
  if (b.settings.meters.empty()) s.fail("meters", "empty");
  b.settings.filter = s.str("filter", false);
  b.settings.callgrind_filter = s.str("callgrind_filter", false);
  std::uint64_t iterations = s.count("callgrind_iterations");
  if (iterations < 1 || iterations > 1000000)
    s.fail("callgrind_iterations", "expected 1 to 1000000");
  b.settings.callgrind_iterations = static_cast<int>(iterations);
  if (!s.at("min_time").is_null()) b.settings.min_time = s.num("min_time");

  const json& contracts = f.at("contracts");
  if (!contracts.is_null() &&
      !(contracts.is_object() && contracts.value("schema", "") == "perfci.contracts/1"))
    f.fail("contracts", "expected null or a perfci.contracts/1 object");
  if (!contracts.is_null())
    b.contracts = contracts::contract_report_from_json(contracts, f.where("contracts"));

  b.results = run_results_from_json(f.at("results"), f.where("results"));
  if (b.results.benchmarks.empty())
    f.fail("results.benchmarks", "empty: a baseline must hold results");
  std::set<std::string> names;
  for (std::size_t i = 0; i < b.results.benchmarks.size(); ++i) {
    const BenchmarkResult& r = b.results.benchmarks[i];
    std::string where = "results.benchmarks[" + std::to_string(i) + "]";
    if (r.failed())
      f.fail(where, "benchmark " + r.name + " failed; a baseline holds only measured ones");
    if (!names.insert(r.name).second) f.fail(where, "benchmark " + r.name + " appears twice");
  }
  return b;
}

}  // namespace perfci::baseline
