// The results of measuring one benchmark binary once: the record that
// `perfci run` writes and that the A/B runner (one record per trial), `check`
// and `baseline` read. Schema "perfci.results/1":
//
// {
//   "schema": "perfci.results/1",
//   "tool_version": "0.1.0",
//   "binary": "/abs/path/engine_bench",
//   "meters": ["wall", "counters", "callgrind", "profile"],
//   "events": ["instructions", "task-clock"],
//   "environment": { ... perfci env --json ... },
//   "context": { ... },   // the binary's own Google Benchmark context (wall meter)
//   "benchmarks": [{
//     "name": "engine/point_lookup",
//     "error": "killed by signal 11 ...",           // only when it failed
//     "iterations": 123456,
//     "real_time_ns": 812.5, "cpu_time_ns": 810.1,  // per iteration (wall meter)
//     "run_name": "engine/point_lookup", "run_type": "iteration",  // with wall times:
//     "real_time": 812.5, "cpu_time": 810.1, "time_unit": "ns",    //   Google Benchmark's
//                                                                  //   spelling of them
//     "transactions_per_iteration": 4,              // when the hook had a divisor
//     // hook-free counters add "mode": "process", "process_fixed": 2.1e6
//     "counters": [{"event": "task-clock", "status": "ok", "per_iteration": 811.0,
//                   "per_transaction": 202.7, "scale": 1.0},
//                  {"event": "instructions", "status": "unsupported", "errno": 2}],
//     "callgrind": {"iterations": 20, "total_ir": 40000, "ir_per_iteration": 2000,
//                   "functions": [{"name": "f()", "object": "/bin/x", "self_ir": 30000,
//                                  "inclusive_ir": 40000}],   // totals, by self desc
//                   "mode": "hook"},            // or "process" (hook-free), which adds
//                   // "entry": "BM_f(benchmark::State&)", "setup_ir": 4925,
//                   // "fit_iterations": [10, 100]   (see CallgrindResult)
//                   "allocations": {"per_iteration": 3, "sites": [{"function": "f()",
//                                   "per_iteration": 2}, ...],
//                                   "bytes_per_iteration": 96, "counted_per_iteration": 3},
//                                   // or "bytes_unmeasured": "why" instead of the two
//                   "cache": {"l1i_misses": 0.5, "l1d_misses": 12, "lli_misses": 0,
//                             "lld_misses": 3.5, "estimated_cycles": 2475}},  // --cache-sim
//     "profile": {"source": "cpu-clock", "samples": 950, "lost": 0,  // "mode": "process"
//                 "symbols": [{"symbol": "decode_varint", "share": 0.56, "samples": 532,
//                              "inlined_into": "Cursor::seek"}]},
//     "cost_s": {"wall": 0.23, "callgrind": 1.9}    // seconds each meter spent on it
//   }]
// }
//
// Absent meters leave their fields out; a counter without a value never
// carries one (its status says why). The Google Benchmark spellings
// ("context", "run_name", "run_type", "real_time", "cpu_time", "time_unit")
// make the file one that google/benchmark's tools/compare.py reads as it
// reads a --benchmark_out file, as long as every benchmark has wall times
// (compare.py has no notion of a failed or untimed benchmark; `perfci run
// --format gbench`, gbench_json.h, writes a pure Google Benchmark file).
// They repeat real_time_ns / cpu_time_ns, which remain what perfci reads.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfci/counters/event_status.h"

namespace perfci {

struct CounterResult {
  std::string event;
  EventStatus status = EventStatus::kOk;
  std::optional<double> per_iteration;    // set iff has_value(status)
  std::optional<double> per_transaction;  // when the benchmark set a divisor
  double scale = 1.0;                     // enabled/running; > 1 when multiplexed
  int error = 0;                          // errno for unsupported / no-permission
  // "hook": the hook's timed region; "process" (hook-free): the whole
  // benchmark process (start, setup, Google Benchmark's sizing calls) over
  // the iterations its JSON reports, so setup is included; `process_fixed`
  // is then the count of the same process run for one iteration, what
  // setup and start add whatever the iteration count.
  std::string mode = "hook";
  std::optional<double> process_fixed{};
};

struct FunctionCost {
  std::string name;                // demangled
  std::string object;              // ELF object (or source file) callgrind attributed it to
  std::uint64_t self_ir = 0;       // over all measured iterations
  std::uint64_t inclusive_ir = 0;  // self + callees
  // With the cache simulation only: self misses of the first-level caches
  // (I1mr + D1mr + D1mw) and of the last level (ILmr + DLmr + DLmw).
  std::optional<std::uint64_t> self_l1_misses{};
  std::optional<std::uint64_t> self_ll_misses{};
};

// callgrind's cache simulation (--cache-sim=yes), per iteration, over one
// fixed cache geometry (callgrind_meter.h) so that the counts are the same on
// every machine. A model of a cache, not the machine's: on a machine with a
// PMU the counters meter stays the truth for cycles.
struct CacheCounts {
  double l1i_misses = 0;  // I1mr
  double l1d_misses = 0;  // D1mr + D1mw
  double lli_misses = 0;  // ILmr
  double lld_misses = 0;  // DLmr + DLmw

  double l1_misses() const { return l1i_misses + l1d_misses; }
  double ll_misses() const { return lli_misses + lld_misses; }
  // Ir + 10 x L1 misses + 100 x LL misses: Gungraun's estimate, an LL miss
  // as a trip to memory and an L1 miss as one to the last level.
  double estimated_cycles(double ir_per_iteration) const {
    return ir_per_iteration + 10 * l1_misses() + 100 * ll_misses();
  }
};

// Calls into the heap allocator (malloc, calloc, realloc, operator new and
// their aligned forms) from functions outside it, per iteration: a call
// graph edge of the callgrind profile, so exact and the same on every run.
// Bytes are not in a callgrind profile: they come from a native run of the
// same repetitions with perfci's allocation counter preloaded
// (meters/alloc_bytes.h), hook mode only; where that could not run,
// bytes_unmeasured says why and there is no bytes figure (never a zero).
struct AllocationSite {
  std::string function;  // the caller
  double per_iteration = 0;
};
struct Allocations {
  double per_iteration = 0;
  std::vector<AllocationSite> sites;              // descending per_iteration, then name
  std::optional<double> bytes_per_iteration{};    // bytes asked for
  std::optional<double> counted_per_iteration{};  // allocations the counter saw
  std::string bytes_unmeasured{};
};

// How the callgrind meter delimited what it counted:
//   "hook"     perfci::BenchHook's region (the timed loop only): the precise
//              mode, for benchmarks that use the hook;
//   "process"  hook-free, for any Google Benchmark binary: collection only
//              inside the function Google Benchmark runs (`entry`), and the
//              per-iteration cost separated from that function's own setup
//              by a two-point fit over calls of fit_iterations[0] and [1]
//              iterations; `setup_ir` is the fixed part of one call. When the
//              benchmark fixes its iteration count (Iterations(n)) there is
//              one point only: fit_iterations has one entry and the figure
//              includes the setup (setup_ir absent).
struct CallgrindResult {
  std::uint64_t iterations = 0;
  std::uint64_t total_ir = 0;
  double ir_per_iteration = 0;
  std::vector<FunctionCost> functions;  // descending self_ir
  std::string mode = "hook";
  std::string entry{};                          // process mode: the symbol collected in
  std::optional<double> setup_ir{};             // process mode: fixed Ir of one call
  std::vector<std::uint64_t> fit_iterations{};  // process mode: the calls' iteration counts
  std::optional<Allocations> allocations{};     // absent in files written before issue 18
  std::optional<CacheCounts> cache{};           // only when the cache simulation ran
};

struct SymbolShare {
  std::string symbol;         // innermost function (an inlined callee where DWARF says so)
  double share = 0;           // of all samples (or of all Ir for the callgrind source)
  std::uint64_t samples = 0;  // samples, or self Ir for the callgrind source
  std::string inlined_into;   // the out-of-line function, when symbol was inlined
};

struct ProfileResult {
  std::string source;  // "cpu-clock" (sampling) or "callgrind" (deterministic)
  std::uint64_t samples = 0;
  std::uint64_t lost = 0;
  std::vector<SymbolShare> symbols;  // descending share
  // cpu-clock: "hook" (the hook samples its region from inside) or
  // "process" (hook-free: the whole process sampled from outside).
  std::string mode = "hook";
};

struct BenchmarkResult {
  std::string name;
  std::string error;  // non-empty: the benchmark failed; the message says how
  std::int64_t iterations = 0;
  std::optional<double> real_time_ns;  // per iteration
  std::optional<double> cpu_time_ns;
  std::optional<double> transactions_per_iteration;
  std::vector<CounterResult> counters;
  std::optional<CallgrindResult> callgrind;
  std::optional<ProfileResult> profile;
  // Seconds of this run each meter spent on the benchmark (its processes'
  // wall-clock time; the wall meter's one process for all benchmarks is
  // shared out by their timed time). What `--shard` balances next time.
  std::map<std::string, double> cost_s;

  bool failed() const { return !error.empty(); }
  const CounterResult* counter(std::string_view event) const;
};

// One measured value of a benchmark, named the way thresholds in perfci.json
// are: kind "wall" (metric "real_time_ns", "cpu_time_ns"), "counters"
// (metric = event name, per iteration), "callgrind" (metric "ir",
// "allocations", "allocated_bytes", and with the cache simulation
// "l1_misses", "ll_misses",
// "estimated_cycles"). Counts may be zero; times and Ir never are.
struct MetricValue {
  std::string kind;
  std::string metric;
  double value = 0;
  bool deterministic = false;  // callgrind: one trial suffices
};
std::vector<MetricValue> metric_values(const BenchmarkResult& result);
// The callgrind metrics metric_values gives, in its order: what perfci.json
// may name as "callgrind/<metric>" (an accepted regression).
const std::vector<std::string>& callgrind_metrics();

// A run cut short by SIGINT or SIGTERM (perfci/util/interrupt.h): what was
// measured is kept, and this says how far it got. JSON:
// {"signal": "SIGINT", "exit_code": 130, "completed": 3, "planned": 10,
//  "unit": "benchmarks", "reason": "interrupted by SIGINT after 3 of 10 benchmarks"}
struct Incomplete {
  int signo = 0;
  int completed = 0;  // benchmarks (run, check) or pairs (an A/B) measured
  int planned = 0;
  std::string unit = "benchmarks";  // or "pairs"

  std::string signal_name() const;  // "SIGINT", "SIGTERM"
  int exit_code() const { return 128 + signo; }
  // "interrupted by SIGINT after 3 of 10 benchmarks"
  std::string reason() const;
};

void to_json(nlohmann::json& j, const Incomplete& v);
// Throws perfci::Error naming `where`.
Incomplete incomplete_from_json(const nlohmann::json& j, const std::string& where);

struct RunResults {
  std::string schema;  // kResultsSchema when written by this version
  std::string tool_version;
  std::string binary;
  std::vector<std::string> meters;
  std::vector<std::string> events;
  nlohmann::json environment = nlohmann::json::object();
  // The binary's Google Benchmark "context" (library_build_type, caches,
  // num_cpus, ...) as its JSON output had it; empty without the wall meter.
  nlohmann::json context = nlohmann::json::object();
  std::vector<BenchmarkResult> benchmarks;
  // Set when a signal stopped the run: `benchmarks` then holds only those
  // measured to the end, and a run of every meter of theirs.
  std::optional<Incomplete> incomplete;

  const BenchmarkResult* find(std::string_view name) const;
  bool any_failed() const;
};

// A fresh record stamped with the current schema and tool version.
RunResults make_run_results();

void to_json(nlohmann::json& j, const CounterResult& v);
void to_json(nlohmann::json& j, const FunctionCost& v);
void to_json(nlohmann::json& j, const CallgrindResult& v);
void to_json(nlohmann::json& j, const SymbolShare& v);
void to_json(nlohmann::json& j, const ProfileResult& v);
void to_json(nlohmann::json& j, const BenchmarkResult& v);
void to_json(nlohmann::json& j, const RunResults& v);

// Throws perfci::Error "<origin>: benchmarks[3].counters[0].status: ..." on
// anything malformed, including another schema.
BenchmarkResult benchmark_result_from_json(const nlohmann::json& j, const std::string& origin);
RunResults run_results_from_json(const nlohmann::json& j, const std::string& origin);
RunResults load_run_results(const std::string& path);
void save_run_results(const RunResults& results, const std::string& path);  // atomic

}  // namespace perfci
