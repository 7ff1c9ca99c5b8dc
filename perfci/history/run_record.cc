#include "perfci/history/run_record.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <set>

#include "perfci/runner/git_history.h"
#include "perfci/stats/descriptive.h"
#include "perfci/stats/median_interval.h"
#include "perfci/stats/outcome.h"
#include "perfci/util/error.h"
#include "perfci/util/files.h"
#include "perfci/util/subprocess.h"
#include "perfci/util/timestamp.h"
#include "perfci/version.h"

namespace perfci::history {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string text_field(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

// The median of one side's samples, with its interval when the samples are
// enough for one; none when no sample is a finite number.
std::optional<Point> point_of(const std::string& benchmark, const MetricRun& m,
                              const std::vector<double>& samples) {
  std::vector<double> x;
  for (double v : samples)
    if (std::isfinite(v)) x.push_back(v);
  if (x.empty()) return std::nullopt;
  Point p;
  p.benchmark = benchmark;
  p.kind = m.kind;
  p.metric = m.metric;
  p.unit = metric_unit(m.kind, m.metric);
  p.median = stats::median(x);
  p.n = static_cast<int>(x.size());
  p.deterministic = m.policy.deterministic;
  if (!p.deterministic)
    if (auto iv = stats::median_interval(x)) {
      p.lo = iv->lo;
      p.hi = iv->hi;
    }
  return p;
}

std::optional<double> finite(double v) {
  return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

ComparisonRecord comparison_of(const std::string& benchmark, const MetricRun& m) {
  ComparisonRecord c;
  c.benchmark = benchmark;
  c.kind = m.kind;
  c.metric = m.metric;
  c.estimate = m.comparison.ratio;
  c.lo = finite(m.comparison.interval.lo);
  c.hi = finite(m.comparison.interval.hi);
  c.q = m.q_value;
  c.decision = std::string(stats::to_string(m.decision.verdict));
  auto outcome = stats::metric_outcome(m.decision.verdict, m.gate);
  c.outcome = outcome ? std::string(stats::to_string(*outcome)) : "information";
  c.gate = m.gate == stats::Gate::kAll ? "all" : std::string(stats::to_string(m.gate));
  return c;
}

SideRecord side_of(const Side& s, const std::string& profile) {
  SideRecord r;
  r.label = s.label;
  r.revision = s.revision;
  r.commit = s.commit;
  r.dirty = s.dirty;
  r.profile = profile;
  return r;
}

void add_contracts(RunRecord& run, const std::string& side,
                   const std::optional<contracts::ContractReport>& report) {
  if (!report) return;
  if (!report->error.empty()) run.contracts.push_back({side, "(binary)", "error", report->error});
  for (const auto& c : report->results)
    run.contracts.push_back(
        {side, c.key(), std::string(contracts::verdict_name(c.verdict)), c.message});
}

// 64-bit FNV-1a (Fowler, Noll, Vo): the offset basis and prime of the
// published 64-bit parameters. Fixed by definition, unlike std::hash.
std::uint64_t fnv1a64(const std::string& bytes) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::string file_time_utc(const fs::path& file) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) return utc_timestamp();
  return utc_timestamp(st.st_mtime);
}

// A report's record without its key: record_from_report hashes the report
// as it is in memory, record_from_file the file as it was read.
RunRecord record_of_report(const Report& report, const std::string& command);

}  // namespace

std::string content_key(const nlohmann::json& document) {
  return fmt::format("fnv1a64:{:016x}", fnv1a64(document.dump()));
}

RunRecord record_from_report(const Report& report, const std::string& command) {
  RunRecord run = record_of_report(report, command);
  run.key = content_key(json(report));
  return run;
}

namespace {

RunRecord record_of_report(const Report& report, const std::string& command) {
  RunRecord run;
  run.command = command;
  run.created = report.created;
  run.branch = text_field(report.settings, "branch");
  run.tool_version = report.tool_version;
  run.hostname = text_field(report.machine, "hostname");
  run.cpu_model = text_field(report.machine, "cpu_model");
  run.machine = report.machine.is_object() ? report.machine : json::object();
  run.suite = report.check ? report.check->suite : text_field(report.settings, "suite");
  run.outcome = report.check ? std::string(stats::to_string(report.check->outcome))
                             : std::string(stats::to_string(report.verdict));

  SideRecord a, b, reference;
  std::set<std::string> from_reference;  // kinds whose side A was measured here
  if (report.check) {
    const CheckSection& c = *report.check;
    a = side_of(report.a, c.baseline_profile);
    a.label = "A";
    if (a.commit.empty()) a.commit = c.baseline_commit;
    a.dirty = a.dirty || c.baseline_dirty;
    b = side_of(report.b, c.profile);
    b.label = "B";
    if (c.reference && c.reference->error.empty()) {
      for (const auto& g : c.gates)
        if (g.source == "reference") from_reference.insert(g.kind);
      reference.label = "R";
      reference.revision = c.reference->revision;
      reference.commit = c.reference->commit;
      reference.profile = c.profile;
    }
  } else {
    a = side_of(report.a, "");
    b = side_of(report.b, "");
    if (a.label.empty()) a.label = "A";
    if (b.label.empty()) b.label = "B";
  }
  for (const auto& bench : report.benchmarks) {
    const BenchmarkRun& br = bench.run;
    if (br.failed()) continue;
    for (const MetricRun& m : br.metrics) {
      SideRecord& side_a = from_reference.count(m.kind) ? reference : a;
      if (auto p = point_of(br.name, m, m.a)) side_a.points.push_back(std::move(*p));
      if (auto p = point_of(br.name, m, m.b)) b.points.push_back(std::move(*p));
      run.comparisons.push_back(comparison_of(br.name, m));
    }
  }
  run.sides.push_back(std::move(a));
  run.sides.push_back(std::move(b));
  if (!reference.label.empty()) run.sides.push_back(std::move(reference));
  add_contracts(run, "A", report.a.contracts);
  // An A/A run checks one binary: its contracts once.
  if (!(report.mode == "aa" && report.a.binary == report.b.binary))
    add_contracts(run, "B", report.b.contracts);
  return run;
}

}  // namespace

RunRecord record_from_results(const RunResults& results, const std::string& commit, bool dirty,
                              const std::string& profile) {
  RunRecord run;
  run.key = content_key(json(results));
  run.command = "run";
  run.created = utc_timestamp();
  run.tool_version = results.tool_version;
  run.hostname = text_field(results.environment, "hostname");
  run.cpu_model = text_field(results.environment, "cpu_model");
  run.machine = results.environment.is_object() ? results.environment : json::object();
  run.machine.erase("build");
  bool failed = results.any_failed();
  run.outcome = results.incomplete ? "incomplete" : failed ? "failed" : "ok";
  SideRecord side;
  side.commit = commit;
  side.dirty = dirty;
  side.profile = profile;
  side.revision = commit;
  for (const BenchmarkResult& b : results.benchmarks) {
    if (b.failed()) continue;
    for (const MetricValue& v : metric_values(b)) {
      if (!std::isfinite(v.value)) continue;
      Point p;
      p.benchmark = b.name;
      p.kind = v.kind;
      p.metric = v.metric;
      p.unit = metric_unit(v.kind, v.metric);
      p.median = v.value;
      p.n = 1;
      p.deterministic = v.deterministic;
      side.points.push_back(std::move(p));
    }
  }
  run.sides.push_back(std::move(side));
  return run;
}

RunRecord record_from_bisect(const BisectReport& report,
                             const std::map<std::string, std::string>& profiles) {
  RunRecord run;
  run.key = content_key(json(report));
  run.command = "bisect";
  run.created = report.created;
  run.tool_version = report.tool_version;
  run.hostname = text_field(report.machine, "hostname");
  run.cpu_model = text_field(report.machine, "cpu_model");
  run.machine = report.machine.is_object() ? report.machine : json::object();
  run.suite = report.suite;
  run.outcome = report.outcome;
  const bool deterministic = report.kind == "callgrind";
  for (const BisectCommit& c : report.commits) {
    if (!c.value || !std::isfinite(*c.value)) continue;  // not measured, or skipped
    SideRecord side;
    side.label = std::to_string(c.position);
    side.revision = c.commit;
    side.commit = c.commit;
    if (const auto at = profiles.find(c.commit); at != profiles.end()) side.profile = at->second;
    Point p;
    p.benchmark = report.benchmark;
    p.kind = report.kind;
    p.metric = report.metric;
    p.unit = metric_unit(report.kind, report.metric);
    p.deterministic = deterministic;
    // Wall: this commit's own samples of its A/B against GOOD; callgrind
    // (or a commit without samples): the one value.
    const std::vector<double>& samples = c.samples;
    if (!deterministic && !samples.empty()) {
      p.median = stats::median(samples);
      if (const auto i = stats::median_interval(samples)) {
        p.lo = i->lo;
        p.hi = i->hi;
      }
      p.n = static_cast<int>(samples.size());
    } else {
      p.median = *c.value;
      p.n = 1;
    }
    side.points.push_back(std::move(p));
    run.sides.push_back(std::move(side));
  }
  return run;
}

RunRecord record_from_file(const fs::path& file) {
  const std::string where = file.string();
  json j;
  try {
    j = json::parse(read_file(file));
  } catch (const json::parse_error& e) {
    throw Error(where + ": not valid JSON: " + e.what());
  }
  const std::string schema = text_field(j, "schema");
  RunRecord run;
  if (schema == kReportSchema) {
    Report report = report_from_json(j, where);
    // compare writes mode "ab"; its settings say which command it was.
    std::string command = text_field(report.settings, "command");
    if (command.empty()) command = report.mode;
    run = record_of_report(report, command);
  } else if (schema == kResultsSchema) {
    run = record_from_results(run_results_from_json(j, where), "", false, "");
    // A results file has no date of its own: the file's is the best there is.
    run.created = file_time_utc(file);
  } else {
    throw Error(where + ": schema " + (schema.empty() ? "missing" : "\"" + schema + "\"") +
                "; history import reads reports (" + kReportSchema + ") and results (" +
                kResultsSchema + ")");
  }
  run.key = content_key(j);
  run.source = where;
  return run;
}

void fill_parents(RunRecord& run, const fs::path& repo) {
  for (SideRecord& side : run.sides) {
    if (side.commit.empty() || !side.parent.empty()) continue;
    try {
      const auto parents = commit_parents(repo, side.commit);
      if (!parents.empty()) side.parent = parents.front();  // none: a root commit
    } catch (const Error&) {
      // A commit this repository does not have, or no git: the parent stays unknown.
    }
  }
}

}  // namespace perfci::history
