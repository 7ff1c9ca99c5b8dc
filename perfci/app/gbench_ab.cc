#include "perfci/app/gbench_ab.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "perfci/analysis/report_builder.h"
#include "perfci/app/history_recording.h"
#include "perfci/runner/metric_policy.h"
#include "perfci/stats/run_analysis.h"
#include "perfci/stats/stats_json.h"
#include "perfci/util/error.h"
#include "perfci/util/files.h"

namespace perfci::app {
namespace {

const GbenchSamples* find(const GbenchFile& f, const std::string& name) {
  for (const auto& s : f.benchmarks)
    if (s.name == name) return &s;
  return nullptr;
}

bool all_positive(const std::vector<double>& v) {
  return !v.empty() &&
         std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x) && x > 0; });
}

// The parts of a Google Benchmark context that identify where and how a
// file was measured.
nlohmann::json side_build(const std::string& path, const nlohmann::json& context) {
  nlohmann::json j{{"gbench_file", path}};
  for (const char* key : {"executable", "date", "host_name", "library_build_type", "num_cpus"})
    if (context.contains(key)) j[key] = context[key];
  return j;
}

}  // namespace

Report gbench_ab_report(const GbenchFile& a, const std::string& a_path, const GbenchFile& b,
                        const std::string& b_path, const AbFlags& f, const char* command) {
  std::optional<Config> config = load_optional_config(f);
  MetricPolicies policies;
  if (config) policies = MetricPolicies::from_config(config->raw, config->path.string());

  std::vector<std::string> warnings;
  AbRun run;
  run.seed = f.seed;
  run.context_a = a.context;
  run.context_b = b.context;
  std::vector<stats::MetricSamples> samples;
  std::vector<std::size_t> owner;  // samples[k] belongs to run.benchmarks[owner[k]]
  for (const GbenchSamples& sa : a.benchmarks) {
    const GbenchSamples* sb = find(b, sa.name);
    if (!sb) {
      warnings.push_back(sa.name + " is only in A (" + a_path + "): not compared");
      continue;
    }
    if (!sa.skipped.empty() || !sb->skipped.empty()) {
      warnings.push_back(sa.name + " was skipped by the benchmark in " +
                         (sa.skipped.empty() ? "B: " + sb->skipped : "A: " + sa.skipped) +
                         "; not compared");
      continue;
    }
    BenchmarkRun br;
    br.name = sa.name;
    if (!sa.error.empty()) br.error = "A: " + sa.error;
    if (!sb->error.empty()) br.error += (br.error.empty() ? "" : "\n") + ("B: " + sb->error);
    if (br.failed()) {
      run.benchmarks.push_back(std::move(br));
      continue;
    }
    const std::pair<const char*, const std::vector<double>*> metrics[] = {
        {"real_time_ns", &sa.real_time_ns}, {"cpu_time_ns", &sa.cpu_time_ns}};
    for (const auto& [metric, values_a] : metrics) {
      const std::vector<double>& values_b =
          std::string(metric) == "real_time_ns" ? sb->real_time_ns : sb->cpu_time_ns;
      if (!all_positive(*values_a) || !all_positive(values_b)) {
        warnings.push_back(sa.name + " " + metric +
                           ": a time that is not positive (Google Benchmark rounds very short "
                           "times to 0): not compared");
        continue;
      }
      stats::MetricSamples s;
      s.benchmark = sa.name;
      s.metric = std::string("wall/") + metric;
      s.policy = policies.policy(sa.name, "wall", metric);
      // Each file is one process: its repetitions share one memory layout
      // and one state of the machine, whose effect on the times they cannot
      // measure (engine_bench A/A files from two processes differed by up
      // to 8% with ASLR, 4.8% without, at p < 0.05). An unpaired verdict
      // claims only changes beyond that, its whole interval beyond it.
      s.policy.threshold = std::max(s.policy.threshold, f.unpaired_threshold);
      s.a = *values_a;
      s.b = values_b;
      s.unpaired = true;
      samples.push_back(std::move(s));
      owner.push_back(run.benchmarks.size());
    }
    run.benchmarks.push_back(std::move(br));
  }
  for (const GbenchSamples& sb : b.benchmarks)
    if (!find(a, sb.name))
      warnings.push_back(sb.name + " is only in B (" + b_path + "): not compared");
  if (run.benchmarks.empty())
    throw Error(a_path + " and " + b_path + " have no benchmark in common (by name)");

  stats::RunAnalysisOptions analysis;
  analysis.comparison.bootstrap.seed = f.seed;
  analysis.verdict.require_interval_beyond_threshold = true;
  const std::vector<stats::MetricOutcome> outcomes = stats::analyze_run(samples, analysis);
  for (std::size_t k = 0; k < outcomes.size(); ++k) {
    const stats::MetricOutcome& o = outcomes[k];
    MetricRun m;
    m.kind = "wall";
    m.metric = o.metric.substr(o.metric.find('/') + 1);
    m.policy = o.policy;
    m.a = samples[k].a;
    m.b = samples[k].b;
    m.comparison = o.comparison;
    m.q_value = o.q_value;
    m.first_decision = o.decision;
    m.decision = o.decision;
    run.benchmarks[owner[k]].metrics.push_back(std::move(m));
  }

  analysis::ReportInputs in;
  in.run = std::move(run);
  in.a.label = "A";
  in.a.binary = a_path;
  in.a.build = side_build(a_path, a.context);
  in.b.label = "B";
  in.b.binary = b_path;
  in.b.build = side_build(b_path, b.context);
  // The machine is the one that measured A, as its file says; this one
  // measured nothing.
  in.machine = a.context;
  in.settings = nlohmann::json{{"command", command},
                               {"pairing", "unpaired"},
                               {"samples", "repetitions"},
                               {"a_json", a_path},
                               {"b_json", b_path},
                               {"config", config ? config->path.string() : ""},
                               {"meters", {"wall"}},
                               {"seed", f.seed},
                               {"unpaired_threshold", f.unpaired_threshold},
                               {"analysis", analysis}};
  Report r = analysis::build_report(std::move(in));
  r.pairing = "unpaired";
  r.warnings.insert(r.warnings.end(), warnings.begin(), warnings.end());
  return r;
}

int run_gbench_ab_session(const AbFlags& f, const std::string& a_json, const std::string& b_json,
                          const char* command) {
  const GbenchFile a = parse_gbench_samples(read_file(a_json), a_json);
  const GbenchFile b = parse_gbench_samples(read_file(b_json), b_json);
  const Report rep = gbench_ab_report(a, a_json, b, b_json, f, command);
  const int rc = write_ab_outputs(rep, f, command);
  record_report(f, load_optional_config(f), rep, command, {});
  return rc;
}

}  // namespace perfci::app
