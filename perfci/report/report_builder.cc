#include "perfci/report/report_builder.h"

#include <chrono>
#include <ctime>

#include "perfci/env/build_info.h"
#include "perfci/report/explanation.h"
#include "perfci/util/error.h"
#include "perfci/version.h"

namespace perfci::report {
namespace {

std::string utc_now() {
  std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

void identify(Side& side) {
  if (side.binary.empty()) return;
  try {
    BuildInfo info = read_build_info(side.binary);
    side.build_id = info.build_id;
    side.compiler = info.producer;
  } catch (const Error&) {
    // Not ELF or unreadable: the report still stands, without identity.
  }
}

}  // namespace

void summarize(Report& report) {
  report.counts = {};
  report.verdict = "unchanged";
  auto worse = [](const std::string& x, const std::string& y) {
    auto rank = [](const std::string& v) {
      return v == "failed" ? 4 : v == "regressed" ? 3 : v == "improved" ? 2 : v == "noisy" ? 1 : 0;
    };
    return rank(x) > rank(y);
  };
  for (const auto& b : report.benchmarks) {
    std::string v = benchmark_verdict(b.run);
    if (v == "failed") ++report.counts.failed;
    else if (v == "regressed") ++report.counts.regressed;
    else if (v == "improved") ++report.counts.improved;
    else if (v == "noisy") ++report.counts.noisy;
    else ++report.counts.unchanged;
    if (worse(v, report.verdict)) report.verdict = v;
  }
}

Report build_report(ReportInputs in) {
  Report r;
  r.tool_version = tool_version();
  r.created = utc_now();
  r.mode = in.run.aa ? "aa" : "ab";
  r.machine = std::move(in.machine);
  r.a = std::move(in.a);
  r.b = std::move(in.b);
  identify(r.a);
  identify(r.b);
  r.settings = std::move(in.settings);
  r.seed = in.run.seed;
  r.warmup = in.run.warmup;
  r.pairs = in.run.pairs;
  r.confirmation_pairs = in.run.confirmation_pairs;
  r.order = in.run.order;
  r.elapsed_seconds = in.run.elapsed_seconds;
  r.contract_changes = contract_changes(r.a.contracts, r.b.contracts);
  r.oracle_gaps = oracle_gaps(in.run.benchmarks, in.oracle_pairs);
  for (auto& b : in.run.benchmarks) {
    BenchmarkReport br;
    std::string v = benchmark_verdict(b);
    if (v == "regressed" || v == "improved") br.explanation = explain(b, r.a.contracts, r.b.contracts);
    br.run = std::move(b);
    r.benchmarks.push_back(std::move(br));
  }
  summarize(r);
  return r;
}

}  // namespace perfci::report
