// The report of an A/B or A/A run: what was compared (both sides with their
// revision, build and binary identity), on which machine, with which
// settings, every sample, the statistics, each verdict with its reason, the
// explanation of every change, and one summary verdict. Schema
// "perfci.report/1", documented in reports/README.md and
// reports/schema/report.schema.json; `perfci report` renders a saved one.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "perfci/runner/ab_run.h"
#include "perfci/version.h"  // kReportSchema

namespace perfci::report {

struct Side {
  std::string label;     // "A" or "B"
  std::string revision;  // as the user named it; empty when binaries were given
  std::string commit;    // full hash, when known
  bool dirty = false;    // WORKTREE with uncommitted changes
  std::string binary;
  std::string build_id;  // GNU build-id of the binary, hex
  std::string compiler;  // DWARF producer: compiler, version and flags
  nlohmann::json build = nlohmann::json::object();  // build folder, preset, reused, ...
  nlohmann::json contracts;  // "perfci.contracts/1" results, null when not checked
};

// One function's cost in A and in B, per iteration and as a share of the
// side's total (callgrind self Ir, or profile samples).
struct SymbolChange {
  std::string symbol;
  std::string change;  // appeared, vanished, grew, shrank
  double share_a = 0;
  double share_b = 0;
  double cost_a = 0;  // per iteration (Ir) or samples share x 100 for profiles
  double cost_b = 0;
};

struct CounterDelta {
  std::string metric;  // "instructions", "ipc", "context-switches", "ir", ...
  double a = 0;        // per iteration, median over trials
  double b = 0;
  double change = 0;  // b / a - 1
};

struct ContractChange {
  std::string contract;  // its name, or a description of what it checks
  std::string status_a;  // ok, broken, error, absent
  std::string status_b;
  std::string message;  // B's message
};

struct Explanation {
  std::string source;  // "callgrind", "cpu-clock", or "" when no profile ran
  std::vector<SymbolChange> symbols;
  std::vector<CounterDelta> counters;
  std::vector<ContractChange> contracts;
  std::vector<std::string> notes;  // the explanation in sentences
};

struct BenchmarkReport {
  BenchmarkRun run;
  std::optional<Explanation> explanation;  // for regressed and improved benchmarks
};

// engine/X against sqlite/X: how far the engine is from the oracle, on A and on B.
struct OracleGap {
  std::string workload;  // X
  std::string benchmark;  // engine/X
  std::string oracle;     // sqlite/X
  std::string metric;     // "wall/real_time_ns", "callgrind/ir"
  double gap_a = 0;       // engine / oracle, medians, on A
  double gap_b = 0;
  double change = 0;  // gap_b / gap_a - 1
};

struct SummaryCounts {
  int regressed = 0, improved = 0, unchanged = 0, noisy = 0, failed = 0;
};

struct Report {
  std::string schema = kReportSchema;
  std::string tool_version;
  std::string created;  // UTC, ISO 8601
  std::string mode;     // "ab" or "aa"
  nlohmann::json machine = nlohmann::json::object();  // `perfci env --json`
  Side a;
  Side b;
  nlohmann::json settings = nlohmann::json::object();
  std::uint64_t seed = 0;
  int warmup = 0;
  int pairs = 0;
  int confirmation_pairs = 0;
  std::string order;
  double elapsed_seconds = 0;
  std::vector<BenchmarkReport> benchmarks;
  std::vector<ContractChange> contract_changes;  // all, whatever benchmark they name
  std::vector<OracleGap> oracle_gaps;
  // failed, regressed, improved, noisy or unchanged: the worst of all benchmarks.
  std::string verdict;
  SummaryCounts counts;

  // 0 unchanged / improved / noisy, 1 a regression, 2 a failed benchmark.
  int exit_code() const;
};

// A benchmark's verdict over its metrics: failed, then regressed, improved,
// noisy, unchanged.
std::string benchmark_verdict(const BenchmarkRun& b);

void to_json(nlohmann::json& j, const Side& v);
void from_json(const nlohmann::json& j, Side& v);
void to_json(nlohmann::json& j, const SymbolChange& v);
void from_json(const nlohmann::json& j, SymbolChange& v);
void to_json(nlohmann::json& j, const CounterDelta& v);
void from_json(const nlohmann::json& j, CounterDelta& v);
void to_json(nlohmann::json& j, const ContractChange& v);
void from_json(const nlohmann::json& j, ContractChange& v);
void to_json(nlohmann::json& j, const Explanation& v);
void from_json(const nlohmann::json& j, Explanation& v);
void to_json(nlohmann::json& j, const OracleGap& v);
void from_json(const nlohmann::json& j, OracleGap& v);
void to_json(nlohmann::json& j, const BenchmarkReport& v);
void to_json(nlohmann::json& j, const Report& v);

// Throws perfci::Error "<origin>: ..." on another schema or a malformed report.
Report report_from_json(const nlohmann::json& j, const std::string& origin);
Report load_report(const std::string& path);
void save_report(const Report& report, const std::string& path);  // atomic

}  // namespace perfci::report
