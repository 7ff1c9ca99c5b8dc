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

#include "perfci/contracts/contract_result.h"
#include "perfci/model/ab_run.h"
#include "perfci/model/shard.h"
#include "perfci/stats/outcome.h"
#include "perfci/version.h"  // kReportSchema

namespace perfci {

struct Side {
  std::string label;     // "A" or "B"
  std::string revision;  // as the user named it; empty when binaries were given
  std::string commit;    // full hash, when known
  bool dirty = false;    // WORKTREE with uncommitted changes
  std::string binary;
  std::string build_id;                             // GNU build-id of the binary, hex
  std::string compiler;                             // DWARF producer: compiler, version and flags
  nlohmann::json build = nlohmann::json::object();  // build folder, preset, reused, ...
  std::optional<contracts::ContractReport> contracts;  // none when not checked
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
  friend bool operator==(const ContractChange&, const ContractChange&) = default;
};

struct Explanation {
  std::string source;  // "callgrind", "cpu-clock", or "" when no profile ran
  // How the per-symbol costs were measured, in words, for each side when
  // they differ: the callgrind mode (hook's region, or hook-free in the
  // function Google Benchmark runs with setup fitted out). Empty when no
  // callgrind ran.
  std::string measured_by;
  std::vector<SymbolChange> symbols;
  // callgrind only, per iteration, largest change first: who calls the
  // allocator (cost = calls, share = of the side's allocations), and with
  // the cache simulation where the L1 misses are (cost = self misses).
  std::vector<SymbolChange> allocation_sites;
  std::vector<SymbolChange> cache_misses;
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
  std::string workload;   // X
  std::string benchmark;  // engine/X
  std::string oracle;     // sqlite/X
  std::string metric;     // "wall/real_time_ns", "callgrind/ir"
  double gap_a = 0;       // engine / oracle, medians, on A
  double gap_b = 0;
  double change = 0;  // gap_b / gap_a - 1
  // `perfci check` only: the gap is compared with the baseline's on any
  // machine, against its own threshold.
  std::optional<double> threshold;
  std::optional<stats::Verdict> verdict;  // regressed, improved, unchanged; none in A/B
  stats::Gate gate = stats::Gate::kAll;   // gated, information, accepted; kAll in A/B
};

struct SummaryCounts {
  int regressed = 0, improved = 0, unchanged = 0, noisy = 0, failed = 0;
  int accepted = 0;     // check: regressions perfci.json accepts
  int information = 0;  // check: benchmarks with no gated metric
};

// `perfci check`: the current run (side B) against a stored baseline (side
// A), what made which metric comparable, and why the gate passed or failed.
struct CheckFact {
  std::string fact;  // "compiler_version", "library libsqlite3.so.0", "hostname"
  std::string baseline;
  std::string current;
  friend bool operator==(const CheckFact&, const CheckFact&) = default;
};

struct CheckGate {
  std::string kind;                              // wall, counters, callgrind
  stats::Gate gate = stats::Gate::kInformation;  // kGated or kInformation
  std::string reason;  // why not gated, or why gated the way `source` says
  // What side A of a gated kind is: "baseline" (the stored file) or
  // "reference" (a revision built and measured on this runner); empty
  // when not gated.
  std::string source;
  friend bool operator==(const CheckGate&, const CheckGate&) = default;
};

// The in-runner reference of issue 13: when the stored baseline cannot gate
// callgrind Ir here, a revision is built and counted on this runner and Ir
// is gated on that A/B instead.
struct CheckReference {
  std::string revision;  // as chosen: --reference, or the baseline's commit
  std::string commit;    // full hash; empty when it could not be resolved
  std::string why;       // why the stored baseline could not gate
  std::string build_dir;
  bool reused = false;  // a cached build of the commit was used as it was
  std::string error;    // why no reference could be measured; empty when it was
};

struct AcceptedStatus {
  std::string benchmark, metric, commit, reason;
  std::string status;  // applied, unused (nothing to accept), stale (the baseline already has it)
};

struct CheckSection {
  std::string suite;
  std::string baseline_file;
  std::string profile;           // the current profile id
  std::string baseline_profile;  // the baseline's
  std::string baseline_commit;
  bool baseline_dirty = false;
  std::string baseline_created;
  std::string baseline_reason;
  std::vector<CheckFact> toolchain_differences;
  std::vector<CheckFact> machine_differences;
  std::vector<CheckGate> gates;
  std::vector<AcceptedStatus> accepted;
  std::vector<std::string> new_benchmarks;      // measured now, not in the baseline
  std::vector<std::string> missing_benchmarks;  // in the baseline, not measured now
  std::vector<std::string> findings;            // one line per reason for exit 1
  std::vector<std::string> errors;              // one line per reason for exit 2
  std::optional<CheckReference> reference;      // when the fallback ran
  // Benchmark metrics that counted (gated or accepted): "pass" needs one.
  int gated_metrics = 0;
  // pass (0), fail (1), error (2) or "not gated" (3): nothing could be
  // gated, whatever the numbers; the headline, summary.outcome and the exit
  // code are all this one value (issue 13).
  stats::CheckOutcome outcome = stats::CheckOutcome::kPass;
  std::string not_gated_reason;  // for "not gated": what kept each kind out
  int exit_code() const { return stats::exit_code(outcome); }
};

// A partial report, made by `--shard K/N`: which part it is and the plan all
// parts of the run share. Its verdict covers only its own benchmarks;
// `perfci merge` joins the parts into the report of the whole suite.
struct ShardSection {
  ShardSpec spec;
  ShardPlan plan;
};

// One part of a merged report, as it ran.
struct MergedPart {
  int index = 0;
  std::string file;  // as given to perfci merge
  std::string created;
  std::string hostname;  // of the machine it ran on
  std::string cpu_model;
  std::string outcome;  // the part's own: a check outcome, else its verdict
  int gated_metrics = 0;
  double elapsed_seconds = 0;
  double expected_seconds = 0;  // the plan's cost of its benchmarks
  std::vector<std::string> benchmarks;
};

struct MergeSection {
  ShardPlan plan;
  std::vector<MergedPart> parts;  // by index
};

struct Report {
  std::string schema = kReportSchema;
  std::string tool_version;
  std::string created;                                // UTC, ISO 8601
  std::string mode;                                   // "ab", "aa" or "check"
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
  // "paired": interleaved A/B pairs (ab, aa, compare, check); "unpaired": two
  // Google Benchmark files measured apart (ab --a-json/--b-json), repetitions
  // as samples, compared by the rank-sum test. JSON: run.pairing.
  std::string pairing = "paired";
  // What makes the numbers less than they seem: a debug Google Benchmark
  // library, an unoptimised or sanitized binary, benchmarks not compared.
  std::vector<std::string> warnings;
  std::vector<BenchmarkReport> benchmarks;
  std::vector<ContractChange> contract_changes;  // all, whatever benchmark they name
  std::vector<OracleGap> oracle_gaps;
  // failed, regressed, accepted, improved, noisy, unchanged or information:
  // the worst of all benchmarks.
  stats::Outcome verdict = stats::Outcome::kUnchanged;
  SummaryCounts counts;
  std::optional<CheckSection> check;   // mode "check" only
  std::optional<ShardSection> shard;   // a partial report (--shard K/N)
  std::optional<MergeSection> merged;  // joined from parts by perfci merge
  // SIGINT or SIGTERM stopped the run: the report holds what was measured.
  std::optional<Incomplete> incomplete;

  // 128 + the signal when incomplete (130, 143); else 0 unchanged /
  // improved / noisy / accepted, 1 a regression, 2 a failed benchmark; in
  // mode "check", the check's own code (broken contracts and oracle-gap
  // regressions count too).
  int exit_code() const;
};

// The unit of a metric's values: "ns" (per iteration) for wall times,
// "instructions/iteration" for callgrind Ir, "events/iteration" for
// counters, "ratio" for derived ratios such as IPC.
std::string metric_unit(const std::string& kind, const std::string& metric);

// A benchmark's outcome: failed when it did not run, else the worst of its
// metrics' outcomes (stats::metric_outcome); a benchmark with metrics none of
// which is gated is "information", one without metrics "unchanged".
stats::Outcome benchmark_outcome(const BenchmarkRun& b);

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
void to_json(nlohmann::json& j, const CheckSection& v);
void from_json(const nlohmann::json& j, CheckSection& v);
void to_json(nlohmann::json& j, const BenchmarkReport& v);
void to_json(nlohmann::json& j, const Report& v);

// Throws perfci::Error "<origin>: ..." on another schema or a malformed report.
Report report_from_json(const nlohmann::json& j, const std::string& origin);
Report load_report(const std::string& path);
void save_report(const Report& report, const std::string& path);  // atomic

}  // namespace perfci
