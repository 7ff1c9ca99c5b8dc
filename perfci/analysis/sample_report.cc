#include "perfci/analysis/sample_report.h"

#include "perfci/analysis/report_builder.h"
#include "perfci/stats/run_analysis.h"

namespace perfci::analysis::testing {
namespace {

std::vector<double> scaled(const std::vector<double>& base, double factor) {
  std::vector<double> out;
  for (double v : base) out.push_back(v * factor);
  return out;
}

MetricRun metric(const std::string& bench, const std::string& kind, const std::string& name,
                 std::vector<double> a, std::vector<double> b, double threshold,
                 bool deterministic) {
  stats::MetricSamples s{
      bench, kind + "/" + name, {threshold, stats::Direction::kHigherIsWorse, deterministic}, a, b,
      false};
  auto oc = stats::analyze_run(std::span<const stats::MetricSamples>(&s, 1)).front();
  MetricRun m;
  m.kind = kind;
  m.metric = name;
  m.policy = s.policy;
  m.a = std::move(a);
  m.b = std::move(b);
  m.comparison = oc.comparison;
  m.q_value = oc.q_value;
  m.first_decision = oc.decision;
  m.decision = oc.decision;
  return m;
}

BenchmarkResult detail(const std::string& name, std::uint64_t hash_ir, std::uint64_t varint_ir) {
  BenchmarkResult r;
  r.name = name;
  r.iterations = 10;
  CallgrindResult cg;
  cg.iterations = 10;
  cg.functions.push_back({"Cursor::seek(long)", "/bin/bench", hash_ir, hash_ir + varint_ir});
  if (varint_ir)
    cg.functions.push_back(
        {"decode_varint(unsigned char const*)", "/bin/bench", varint_ir, varint_ir});
  cg.functions.push_back({"memcpy", "/lib/libc.so.6", 5000, 5000});
  for (const auto& f : cg.functions) cg.total_ir += f.self_ir;
  cg.ir_per_iteration = static_cast<double>(cg.total_ir) / 10;
  r.callgrind = cg;
  return r;
}

}  // namespace

AbRun sample_run() {
  const std::vector<double> base{1000, 1012, 995, 1003, 990, 1007, 1001, 998, 1010, 994};
  const std::vector<double> jitter{1.001, 0.998, 1.002, 0.999, 1.0,
                                   1.001, 0.997, 1.003, 0.999, 1.0};
  std::vector<double> same;
  for (std::size_t i = 0; i < base.size(); ++i) same.push_back(base[i] * jitter[i]);

  AbRun run;
  run.seed = 7;
  run.warmup = 1;
  run.pairs = 10;
  run.order = "AB BA BA AB AB BA AB BA BA AB";
  run.elapsed_seconds = 42;

  BenchmarkRun slow;
  slow.name = "engine/point_lookup";
  slow.metrics.push_back(
      metric(slow.name, "wall", "real_time_ns", base, scaled(same, 1.12), 0.03, false));
  slow.metrics.push_back(metric(slow.name, "callgrind", "ir", {20000}, {22000}, 0.002, true));
  slow.detail_a = detail(slow.name, 195000, 0);
  slow.detail_b = detail(slow.name, 190000, 25000);
  run.benchmarks.push_back(slow);

  BenchmarkRun same_bench;
  same_bench.name = "sqlite/point_lookup";
  same_bench.metrics.push_back(metric(same_bench.name, "wall", "real_time_ns", scaled(base, 0.5),
                                      scaled(same, 0.5), 0.03, false));
  same_bench.metrics.push_back(
      metric(same_bench.name, "callgrind", "ir", {9000}, {9000}, 0.002, true));
  run.benchmarks.push_back(same_bench);

  BenchmarkRun failed;
  failed.name = "engine/<crash>";
  failed.error =
      "pair 2 of B: killed by signal 11 (Segmentation fault); stderr ends with:\nboom & <oops>";
  run.benchmarks.push_back(failed);
  return run;
}

Report sample_report() {
  ReportInputs in;
  in.run = sample_run();
  in.a.label = "A";
  in.a.revision = "HEAD~1";
  in.a.commit = std::string(40, 'a');
  in.a.binary = "/nonexistent/a/bench";
  in.b.label = "B";
  in.b.revision = "WORKTREE";
  in.b.commit = std::string(40, 'b');
  in.b.dirty = true;
  in.b.binary = "/nonexistent/b/bench";
  // The varint contract holds on A and breaks on B; the layout one holds on both.
  auto side_contracts = [](const std::string& binary, contracts::Verdict varint,
                           const std::string& message) {
    contracts::ContractReport report;
    report.binary = binary;
    contracts::ContractResult inl;
    inl.contract.kind = contracts::ContractKind::kInline;
    inl.contract.name = "varint inlined into seek";
    inl.contract.caller = "Cursor::seek";
    inl.contract.callee = "decode_varint";
    inl.contract.benchmarks = {"engine/point_lookup"};
    inl.verdict = varint;
    inl.message = message;
    contracts::ContractResult layout;
    layout.contract.kind = contracts::ContractKind::kLayout;
    layout.contract.type = "Cell";
    layout.contract.max_bytes = 16;
    layout.verdict = contracts::Verdict::kOk;
    layout.message = "12 bytes";
    layout.size_bytes = 12;
    report.results = {inl, layout};
    return report;
  };
  in.a.contracts = side_contracts(in.a.binary, contracts::Verdict::kOk, "3 inlined copies");
  in.b.contracts =
      side_contracts(in.b.binary, contracts::Verdict::kBroken, "1 out-of-line call left");
  in.oracle_pairs = {{"engine/", "sqlite/"}};
  in.machine = {{"cpu_model", "Test CPU"}, {"logical_cpus", 2}};
  in.settings = {{"meters", {"wall", "callgrind"}}, {"pairs", 10}};
  return build_report(std::move(in));
}

}  // namespace perfci::analysis::testing
