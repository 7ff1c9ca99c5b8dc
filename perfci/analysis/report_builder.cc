#include "perfci/analysis/report_builder.h"

#include <algorithm>

#include "perfci/analysis/explanation.h"
#include "perfci/env/build_info.h"
#include "perfci/util/error.h"
#include "perfci/util/timestamp.h"
#include "perfci/version.h"

namespace perfci::analysis {
namespace {

// Fills the side's identity and returns its build facts (null when the
// binary is not ELF or unreadable: the report still stands, without them).
nlohmann::json identify(Side& side) {
  if (side.binary.empty()) return nullptr;
  try {
    BuildInfo info = read_build_info(side.binary);
    side.build_id = info.build_id;
    side.compiler = info.producer;
    return info;
  } catch (const Error&) {
    return nullptr;
  }
}

void add_warnings(Report& r, const std::string& label, const nlohmann::json& build,
                  const nlohmann::json& context) {
  for (std::string& w : provenance_warnings(label, build, context))
    if (std::find(r.warnings.begin(), r.warnings.end(), w) == r.warnings.end())
      r.warnings.push_back(std::move(w));
}

}  // namespace

void summarize(Report& report) {
  report.counts = {};
  using stats::Outcome;
  report.verdict = report.benchmarks.empty() ? Outcome::kUnchanged : Outcome::kInformation;
  for (const auto& b : report.benchmarks) {
    Outcome v = benchmark_outcome(b.run);
    switch (v) {
      case Outcome::kFailed:
        ++report.counts.failed;
        break;
      case Outcome::kRegressed:
        ++report.counts.regressed;
        break;
      case Outcome::kAccepted:
        ++report.counts.accepted;
        break;
      case Outcome::kImproved:
        ++report.counts.improved;
        break;
      case Outcome::kNoisy:
        ++report.counts.noisy;
        break;
      case Outcome::kInformation:
        ++report.counts.information;
        break;
      case Outcome::kUnchanged:
        ++report.counts.unchanged;
        break;
    }
    report.verdict = stats::worse(report.verdict, v);
  }
}

Report build_report(ReportInputs in) {
  Report r;
  r.tool_version = tool_version();
  r.created = utc_timestamp();
  r.mode = in.run.aa ? "aa" : "ab";
  r.machine = std::move(in.machine);
  r.a = std::move(in.a);
  r.b = std::move(in.b);
  const nlohmann::json build_a = identify(r.a);
  const nlohmann::json build_b = identify(r.b);
  add_warnings(r, "A", build_a, in.run.context_a);
  add_warnings(r, "B", build_b, in.run.context_b);
  r.settings = std::move(in.settings);
  r.seed = in.run.seed;
  r.warmup = in.run.warmup;
  r.pairs = in.run.pairs;
  r.confirmation_pairs = in.run.confirmation_pairs;
  r.order = in.run.order;
  r.elapsed_seconds = in.run.elapsed_seconds;
  r.incomplete = in.run.incomplete;
  r.contract_changes = contract_changes(r.a.contracts, r.b.contracts);
  r.oracle_gaps = oracle_gaps(in.run.benchmarks, in.oracle_pairs);
  for (auto& b : in.run.benchmarks) {
    BenchmarkReport br;
    stats::Outcome v = benchmark_outcome(b);
    if (v == stats::Outcome::kRegressed || v == stats::Outcome::kImproved)
      br.explanation = explain(b, r.a.contracts, r.b.contracts);
    br.run = std::move(b);
    r.benchmarks.push_back(std::move(br));
  }
  summarize(r);
  return r;
}

}  // namespace perfci::analysis
