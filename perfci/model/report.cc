#include "perfci/model/report.h"

#include "perfci/stats/stats_json.h"
#include "perfci/util/error.h"
#include "perfci/util/files.h"

namespace perfci {

using nlohmann::json;

namespace {

// What a metric counts as in the run's verdict, as JSON writes it.
std::string_view metric_outcome_name(const MetricRun& m) {
  std::optional<stats::Outcome> o = stats::metric_outcome(m.decision.verdict, m.gate);
  return o ? stats::to_string(*o) : stats::to_string(stats::Outcome::kInformation);
}

template <typename E>
E parse_or_throw(std::optional<E> parsed, const std::string& text, const char* what) {
  if (!parsed) throw Error("unknown " + std::string(what) + " \"" + text + "\"");
  return *parsed;
}

stats::Gate gate_from_json(const json& j) {
  std::string text = j.value("gate", "");
  return parse_or_throw(stats::parse_gate(text), text, "gate");
}

json samples_json(const std::vector<double>& a, const std::vector<double>& b) {
  return {{"a", a}, {"b", b}};
}

json metric_json(const MetricRun& m) {
  json j{{"kind", m.kind},
         {"metric", m.metric},
         {"unit", metric_unit(m.kind, m.metric)},
         {"outcome", metric_outcome_name(m)},
         {"policy", m.policy},
         {"samples", samples_json(m.a, m.b)},
         {"comparison", m.comparison},
         {"q_value", m.q_value ? json(*m.q_value) : json(nullptr)},
         {"first_decision", m.first_decision},
         {"decision", m.decision.verdict},
         {"reason", m.decision.reason}};
  if (m.confirmation) {
    const auto& c = *m.confirmation;
    j["confirmation"] = {{"samples", samples_json(c.a, c.b)},
                         {"comparison", c.comparison},
                         {"q_value", c.q_value ? json(*c.q_value) : json(nullptr)},
                         {"decision", c.decision}};
  }
  if (m.noise) j["noise"] = *m.noise;
  if (m.gate != stats::Gate::kAll) j["gate"] = stats::to_string(m.gate);
  if (!m.gate_reason.empty()) j["gate_reason"] = m.gate_reason;
  return j;
}

std::optional<double> optional_number(const json& j, const char* key) {
  if (!j.contains(key) || j[key].is_null()) return std::nullopt;
  return j[key].get<double>();
}

MetricRun metric_from_json(const json& j) {
  MetricRun m;
  m.kind = j.at("kind").get<std::string>();
  m.metric = j.at("metric").get<std::string>();
  m.policy = j.at("policy").get<stats::MetricPolicy>();
  m.a = j.at("samples").at("a").get<std::vector<double>>();
  m.b = j.at("samples").at("b").get<std::vector<double>>();
  if (m.a.size() != m.b.size()) throw Error("samples.a and samples.b differ in length");
  m.comparison = j.at("comparison").get<stats::Comparison>();
  m.q_value = optional_number(j, "q_value");
  m.first_decision = j.at("first_decision").get<stats::Decision>();
  // "verdict" is what reports written before the outcome/decision split call it.
  m.decision.verdict = j.at(j.contains("decision") ? "decision" : "verdict").get<stats::Verdict>();
  m.decision.reason = j.at("reason").get<std::string>();
  if (j.contains("confirmation")) {
    const json& c = j["confirmation"];
    Confirmation conf;
    conf.a = c.at("samples").at("a").get<std::vector<double>>();
    conf.b = c.at("samples").at("b").get<std::vector<double>>();
    conf.comparison = c.at("comparison").get<stats::Comparison>();
    conf.q_value = optional_number(c, "q_value");
    conf.decision = c.at("decision").get<stats::Decision>();
    m.confirmation = std::move(conf);
  }
  if (j.contains("noise")) m.noise = j["noise"].get<stats::NoiseSummary>();
  m.gate = gate_from_json(j);
  m.gate_reason = j.value("gate_reason", "");
  return m;
}

}  // namespace

stats::Outcome benchmark_outcome(const BenchmarkRun& b) {
  if (b.failed()) return stats::Outcome::kFailed;
  std::optional<stats::Outcome> worst;
  for (const auto& m : b.metrics)
    if (auto o = stats::metric_outcome(m.decision.verdict, m.gate))
      worst = worst ? stats::worse(*worst, *o) : *o;
  if (worst) return *worst;
  return b.metrics.empty() ? stats::Outcome::kUnchanged : stats::Outcome::kInformation;
}

std::string metric_unit(const std::string& kind, const std::string& metric) {
  if (kind == "wall") return metric.size() > 3 && metric.ends_with("_ns") ? "ns" : "1/iteration";
  if (kind == "callgrind") return "instructions/iteration";
  if (metric == "ipc" || metric.ends_with("_ratio") || metric.ends_with("-ratio")) return "ratio";
  return "events/iteration";
}

int Report::exit_code() const {
  if (incomplete) return incomplete->exit_code();
  if (check) return check->exit_code();
  if (counts.failed > 0) return 2;
  if (counts.regressed > 0) return 1;
  return 0;
}

void to_json(json& j, const Side& v) {
  j = json{{"label", v.label},
           {"revision", v.revision},
           {"commit", v.commit},
           {"dirty", v.dirty},
           {"binary", v.binary},
           {"build_id", v.build_id},
           {"compiler", v.compiler},
           {"build", v.build},
           {"contracts", v.contracts ? v.contracts->to_json() : json(nullptr)}};
}
void from_json(const json& j, Side& v) {
  v.label = j.at("label").get<std::string>();
  v.revision = j.value("revision", "");
  v.commit = j.value("commit", "");
  v.dirty = j.value("dirty", false);
  v.binary = j.at("binary").get<std::string>();
  v.build_id = j.value("build_id", "");
  v.compiler = j.value("compiler", "");
  v.build = j.value("build", json::object());
  v.contracts.reset();
  if (j.contains("contracts") && !j["contracts"].is_null())
    v.contracts = contracts::contract_report_from_json(j["contracts"], "contracts");
}

void to_json(json& j, const SymbolChange& v) {
  j = json{{"symbol", v.symbol},   {"change", v.change}, {"share_a", v.share_a},
           {"share_b", v.share_b}, {"cost_a", v.cost_a}, {"cost_b", v.cost_b}};
}
void from_json(const json& j, SymbolChange& v) {
  v.symbol = j.at("symbol").get<std::string>();
  v.change = j.at("change").get<std::string>();
  v.share_a = j.at("share_a").get<double>();
  v.share_b = j.at("share_b").get<double>();
  v.cost_a = j.at("cost_a").get<double>();
  v.cost_b = j.at("cost_b").get<double>();
}

void to_json(json& j, const CounterDelta& v) {
  j = json{{"metric", v.metric}, {"a", v.a}, {"b", v.b}, {"change", v.change}};
}
void from_json(const json& j, CounterDelta& v) {
  v.metric = j.at("metric").get<std::string>();
  v.a = j.at("a").get<double>();
  v.b = j.at("b").get<double>();
  v.change = j.at("change").get<double>();
}

void to_json(json& j, const CheckSection& v) {
  auto facts = [](const std::vector<CheckFact>& list) {
    json out = json::array();
    for (const auto& f : list)
      out.push_back({{"fact", f.fact}, {"baseline", f.baseline}, {"current", f.current}});
    return out;
  };
  json gates = json::array();
  for (const auto& g : v.gates)
    gates.push_back({{"kind", g.kind},
                     {"gate", stats::to_string(g.gate)},
                     {"reason", g.reason},
                     {"source", g.source}});
  json accepted = json::array();
  for (const auto& a : v.accepted)
    accepted.push_back({{"benchmark", a.benchmark},
                        {"metric", a.metric},
                        {"commit", a.commit},
                        {"reason", a.reason},
                        {"status", a.status}});
  j = json{{"suite", v.suite},
           {"baseline_file", v.baseline_file},
           {"profile", v.profile},
           {"baseline_profile", v.baseline_profile},
           {"baseline_commit", v.baseline_commit},
           {"baseline_dirty", v.baseline_dirty},
           {"baseline_created", v.baseline_created},
           {"baseline_reason", v.baseline_reason},
           {"toolchain_differences", facts(v.toolchain_differences)},
           {"machine_differences", facts(v.machine_differences)},
           {"gates", gates},
           {"accepted", accepted},
           {"new_benchmarks", v.new_benchmarks},
           {"missing_benchmarks", v.missing_benchmarks},
           {"findings", v.findings},
           {"errors", v.errors},
           {"gated_metrics", v.gated_metrics},
           {"outcome", stats::to_string(v.outcome)},
           {"not_gated_reason", v.not_gated_reason},
           {"exit_code", v.exit_code()}};
  if (v.reference) {
    const CheckReference& ref = *v.reference;
    j["reference"] = {{"revision", ref.revision},   {"commit", ref.commit}, {"why", ref.why},
                      {"build_dir", ref.build_dir}, {"reused", ref.reused}, {"error", ref.error}};
  }
}

void from_json(const json& j, CheckSection& v) {
  auto facts = [](const json& list) {
    std::vector<CheckFact> out;
    for (const auto& f : list)
      out.push_back({f.at("fact").get<std::string>(), f.at("baseline").get<std::string>(),
                     f.at("current").get<std::string>()});
    return out;
  };
  v.suite = j.at("suite").get<std::string>();
  v.baseline_file = j.at("baseline_file").get<std::string>();
  v.profile = j.at("profile").get<std::string>();
  v.baseline_profile = j.at("baseline_profile").get<std::string>();
  v.baseline_commit = j.at("baseline_commit").get<std::string>();
  v.baseline_dirty = j.at("baseline_dirty").get<bool>();
  v.baseline_created = j.at("baseline_created").get<std::string>();
  v.baseline_reason = j.at("baseline_reason").get<std::string>();
  v.toolchain_differences = facts(j.at("toolchain_differences"));
  v.machine_differences = facts(j.at("machine_differences"));
  v.gates.clear();
  for (const auto& g : j.at("gates"))
    v.gates.push_back({g.at("kind").get<std::string>(), gate_from_json(g),
                       g.at("reason").get<std::string>(), g.value("source", "")});
  v.accepted.clear();
  for (const auto& a : j.at("accepted"))
    v.accepted.push_back({a.at("benchmark").get<std::string>(), a.at("metric").get<std::string>(),
                          a.at("commit").get<std::string>(), a.at("reason").get<std::string>(),
                          a.at("status").get<std::string>()});
  v.new_benchmarks = j.at("new_benchmarks").get<std::vector<std::string>>();
  v.missing_benchmarks = j.at("missing_benchmarks").get<std::vector<std::string>>();
  v.findings = j.at("findings").get<std::vector<std::string>>();
  v.errors = j.at("errors").get<std::vector<std::string>>();
  // The outcome decides; reports written before it existed have only the
  // exit code. A report whose two disagree is refused.
  int exit_code = j.at("exit_code").get<int>();
  v.outcome = stats::check_outcome_from_exit_code(exit_code);
  if (j.contains("outcome")) {
    std::string text = j["outcome"].get<std::string>();
    v.outcome = parse_or_throw(stats::parse_check_outcome(text), text, "check outcome");
  }
  if (v.exit_code() != exit_code)
    throw Error("check.outcome \"" + std::string(stats::to_string(v.outcome)) +
                "\" contradicts check.exit_code " + std::to_string(exit_code));
  v.gated_metrics = j.value("gated_metrics", 0);
  v.not_gated_reason = j.value("not_gated_reason", "");
  if (j.contains("reference")) {
    const json& r = j["reference"];
    v.reference =
        CheckReference{r.at("revision").get<std::string>(), r.at("commit").get<std::string>(),
                       r.at("why").get<std::string>(),      r.at("build_dir").get<std::string>(),
                       r.at("reused").get<bool>(),          r.at("error").get<std::string>()};
  }
}

void to_json(json& j, const ContractChange& v) {
  j = json{{"contract", v.contract},
           {"status_a", v.status_a},
           {"status_b", v.status_b},
           {"message", v.message}};
}
void from_json(const json& j, ContractChange& v) {
  v.contract = j.at("contract").get<std::string>();
  v.status_a = j.at("status_a").get<std::string>();
  v.status_b = j.at("status_b").get<std::string>();
  v.message = j.value("message", "");
}

void to_json(json& j, const Explanation& v) {
  j = json{{"source", v.source},     {"measured_by", v.measured_by}, {"symbols", v.symbols},
           {"counters", v.counters}, {"contracts", v.contracts},     {"notes", v.notes}};
  if (!v.allocation_sites.empty()) j["allocation_sites"] = v.allocation_sites;
  if (!v.cache_misses.empty()) j["cache_misses"] = v.cache_misses;
}
void from_json(const json& j, Explanation& v) {
  v.source = j.value("source", "");
  v.measured_by = j.value("measured_by", "");
  v.symbols = j.at("symbols").get<std::vector<SymbolChange>>();
  v.counters = j.at("counters").get<std::vector<CounterDelta>>();
  v.contracts = j.at("contracts").get<std::vector<ContractChange>>();
  v.notes = j.at("notes").get<std::vector<std::string>>();
  if (j.contains("allocation_sites"))
    v.allocation_sites = j.at("allocation_sites").get<std::vector<SymbolChange>>();
  if (j.contains("cache_misses"))
    v.cache_misses = j.at("cache_misses").get<std::vector<SymbolChange>>();
}

void to_json(json& j, const OracleGap& v) {
  j = json{{"workload", v.workload}, {"benchmark", v.benchmark}, {"oracle", v.oracle},
           {"metric", v.metric},     {"gap_a", v.gap_a},         {"gap_b", v.gap_b},
           {"change", v.change}};
  if (v.threshold) j["threshold"] = *v.threshold;
  if (v.verdict) j["verdict"] = stats::to_string(*v.verdict);
  if (v.gate != stats::Gate::kAll) j["gate"] = stats::to_string(v.gate);
}
void from_json(const json& j, OracleGap& v) {
  v.workload = j.at("workload").get<std::string>();
  v.benchmark = j.at("benchmark").get<std::string>();
  v.oracle = j.at("oracle").get<std::string>();
  v.metric = j.at("metric").get<std::string>();
  v.gap_a = j.at("gap_a").get<double>();
  v.gap_b = j.at("gap_b").get<double>();
  v.change = j.at("change").get<double>();
  if (j.contains("threshold")) v.threshold = j["threshold"].get<double>();
  if (j.contains("verdict")) v.verdict = j["verdict"].get<stats::Verdict>();
  v.gate = gate_from_json(j);
}

void to_json(json& j, const BenchmarkReport& v) {
  const BenchmarkRun& b = v.run;
  j = json{{"name", b.name}, {"outcome", stats::to_string(benchmark_outcome(b))}};
  if (b.failed()) j["error"] = b.error;
  json metrics = json::array();
  for (const auto& m : b.metrics) metrics.push_back(metric_json(m));
  j["metrics"] = metrics;
  if (b.detail_a) j["detail_a"] = *b.detail_a;
  if (b.detail_b) j["detail_b"] = *b.detail_b;
  if (v.explanation) j["explanation"] = *v.explanation;
}

namespace {

json plan_json(const ShardPlan& plan) {
  json entries = json::array();
  for (const auto& e : plan.entries)
    entries.push_back({{"name", e.name},
                       {"shard", e.shard},
                       {"cost_s", e.cost.seconds},
                       {"cost_source", e.cost.source}});
  return entries;
}

ShardPlan plan_from_json(const json& entries, int count) {
  ShardPlan plan;
  plan.count = count;
  for (const auto& e : entries) {
    ShardPlan::Entry entry{e.at("name").get<std::string>(),
                           e.at("shard").get<int>(),
                           {e.at("cost_s").get<double>(), e.at("cost_source").get<std::string>()}};
    if (entry.shard < 1 || entry.shard > count)
      throw Error("plan: " + entry.name + " is in shard " + std::to_string(entry.shard) + " of " +
                  std::to_string(count));
    plan.entries.push_back(std::move(entry));
  }
  return plan;
}

json shard_json(const ShardSection& v) {
  return {{"index", v.spec.index},
          {"count", v.spec.count},
          {"benchmarks", v.plan.names_of(v.spec.index)},
          {"expected_s", v.plan.shard_seconds()[static_cast<std::size_t>(v.spec.index - 1)]},
          {"plan", plan_json(v.plan)}};
}

ShardSection shard_from_json(const json& j) {
  ShardSection v;
  v.spec = {j.at("index").get<int>(), j.at("count").get<int>()};
  if (v.spec.count < 1 || v.spec.index < 1 || v.spec.index > v.spec.count)
    throw Error("shard " + format_shard(v.spec) + " is not K/N with 1 <= K <= N");
  v.plan = plan_from_json(j.at("plan"), v.spec.count);
  return v;
}

json merged_json(const MergeSection& v) {
  json parts = json::array();
  for (const auto& p : v.parts)
    parts.push_back({{"index", p.index},
                     {"file", p.file},
                     {"created", p.created},
                     {"hostname", p.hostname},
                     {"cpu_model", p.cpu_model},
                     {"outcome", p.outcome},
                     {"gated_metrics", p.gated_metrics},
                     {"elapsed_s", p.elapsed_seconds},
                     {"expected_s", p.expected_seconds},
                     {"benchmarks", p.benchmarks}});
  return {{"count", v.plan.count}, {"plan", plan_json(v.plan)}, {"parts", parts}};
}

MergeSection merged_from_json(const json& j) {
  MergeSection v;
  v.plan = plan_from_json(j.at("plan"), j.at("count").get<int>());
  for (const auto& p : j.at("parts"))
    v.parts.push_back({p.at("index").get<int>(), p.at("file").get<std::string>(),
                       p.at("created").get<std::string>(), p.at("hostname").get<std::string>(),
                       p.at("cpu_model").get<std::string>(), p.at("outcome").get<std::string>(),
                       p.at("gated_metrics").get<int>(), p.at("elapsed_s").get<double>(),
                       p.at("expected_s").get<double>(),
                       p.at("benchmarks").get<std::vector<std::string>>()});
  return v;
}

}  // namespace

void to_json(json& j, const Report& v) {
  json benchmarks = json::array();
  for (const auto& b : v.benchmarks) benchmarks.push_back(b);
  j = json{
      {"schema", v.schema},
      {"tool_version", v.tool_version},
      {"created", v.created},
      {"mode", v.mode},
      {"machine", v.machine},
      {"a", v.a},
      {"b", v.b},
      {"settings", v.settings},
      {"run",
       {{"seed", v.seed},
        {"warmup", v.warmup},
        {"pairs", v.pairs},
        {"confirmation_pairs", v.confirmation_pairs},
        {"order", v.order},
        {"elapsed_s", v.elapsed_seconds},
        {"pairing", v.pairing}}},
      {"warnings", v.warnings},
      {"summary",
       {{"outcome", v.check ? stats::to_string(v.check->outcome) : stats::to_string(v.verdict)},
        {"verdict", stats::to_string(v.verdict)},
        {"gated_metrics", v.check ? json(v.check->gated_metrics) : json(nullptr)},
        {"regressed", v.counts.regressed},
        {"improved", v.counts.improved},
        {"unchanged", v.counts.unchanged},
        {"noisy", v.counts.noisy},
        {"failed", v.counts.failed},
        {"accepted", v.counts.accepted},
        {"information", v.counts.information},
        {"exit_code", v.exit_code()}}},
      {"benchmarks", benchmarks},
      {"contract_changes", v.contract_changes},
      {"oracle_gaps", v.oracle_gaps}};
  if (v.check) j["check"] = *v.check;
  if (v.shard) j["shard"] = shard_json(*v.shard);
  if (v.merged) j["merged"] = merged_json(*v.merged);
  if (v.incomplete) j["incomplete"] = *v.incomplete;
}

Report report_from_json(const json& j, const std::string& origin) {
  if (!j.is_object()) throw Error(origin + ": not a perfci report (expected a JSON object)");
  std::string schema = j.value("schema", "");
  if (schema != kReportSchema)
    throw Error(origin + ": schema is \"" + schema + "\", this perfci reads \"" + kReportSchema +
                "\"");
  std::string where = "(top level)";
  try {
    Report r;
    r.tool_version = j.value("tool_version", "");
    r.created = j.value("created", "");
    where = "mode";
    r.mode = j.at("mode").get<std::string>();
    where = "machine";
    r.machine = j.value("machine", json::object());
    where = "a";
    r.a = j.at("a").get<Side>();
    where = "b";
    r.b = j.at("b").get<Side>();
    r.settings = j.value("settings", json::object());
    where = "run";
    const json& run = j.at("run");
    r.seed = run.at("seed").get<std::uint64_t>();
    r.warmup = run.at("warmup").get<int>();
    r.pairs = run.at("pairs").get<int>();
    r.confirmation_pairs = run.at("confirmation_pairs").get<int>();
    r.order = run.at("order").get<std::string>();
    r.elapsed_seconds = run.at("elapsed_s").get<double>();
    r.pairing = run.value("pairing", "paired");
    if (r.pairing != "paired" && r.pairing != "unpaired")
      throw Error("pairing: expected \"paired\" or \"unpaired\", got \"" + r.pairing + "\"");
    where = "warnings";
    r.warnings = j.value("warnings", std::vector<std::string>{});
    where = "summary";
    const json& s = j.at("summary");
    std::string verdict = s.at("verdict").get<std::string>();
    r.verdict = parse_or_throw(stats::parse_outcome(verdict), verdict, "verdict");
    r.counts = {s.at("regressed").get<int>(), s.at("improved").get<int>(),
                s.at("unchanged").get<int>(), s.at("noisy").get<int>(),
                s.at("failed").get<int>(),    s.value("accepted", 0),
                s.value("information", 0)};
    if (j.contains("incomplete"))
      r.incomplete = incomplete_from_json(j["incomplete"], "incomplete");
    const json& list = j.at("benchmarks");
    for (std::size_t i = 0; i < list.size(); ++i) {
      where = "benchmarks[" + std::to_string(i) + "]";
      const json& bj = list[i];
      BenchmarkReport b;
      b.run.name = bj.at("name").get<std::string>();
      b.run.error = bj.value("error", "");
      for (std::size_t k = 0; k < bj.at("metrics").size(); ++k) {
        where = "benchmarks[" + std::to_string(i) + "].metrics[" + std::to_string(k) + "]";
        b.run.metrics.push_back(metric_from_json(bj["metrics"][k]));
      }
      where = "benchmarks[" + std::to_string(i) + "]";
      if (bj.contains("detail_a"))
        b.run.detail_a = benchmark_result_from_json(bj["detail_a"], origin);
      if (bj.contains("detail_b"))
        b.run.detail_b = benchmark_result_from_json(bj["detail_b"], origin);
      if (bj.contains("explanation")) b.explanation = bj["explanation"].get<Explanation>();
      r.benchmarks.push_back(std::move(b));
    }
    where = "contract_changes";
    r.contract_changes = j.value("contract_changes", std::vector<ContractChange>{});
    where = "oracle_gaps";
    r.oracle_gaps = j.value("oracle_gaps", std::vector<OracleGap>{});
    if (j.contains("check")) {
      where = "check";
      r.check = j["check"].get<CheckSection>();
    }
    if (j.contains("shard")) {
      where = "shard";
      r.shard = shard_from_json(j["shard"]);
    }
    if (j.contains("merged")) {
      where = "merged";
      r.merged = merged_from_json(j["merged"]);
    }
    return r;
  } catch (const json::exception& e) {
    throw Error(origin + ": " + where + ": " + e.what());
  } catch (const std::invalid_argument& e) {
    throw Error(origin + ": " + where + ": " + e.what());
  } catch (const Error& e) {
    throw Error(origin + ": " + where + ": " + e.what());
  }
}

Report load_report(const std::string& path) {
  json j;
  try {
    j = json::parse(read_file(path));
  } catch (const json::parse_error& e) {
    throw Error(path + ": not valid JSON: " + e.what());
  }
  return report_from_json(j, path);
}

void save_report(const Report& report, const std::string& path) {
  write_file_atomic(path, json(report).dump(2) + "\n");
}

}  // namespace perfci
