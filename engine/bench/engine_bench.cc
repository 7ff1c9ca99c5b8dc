// engine_bench: every workload twice, as engine/<name> and sqlite/<name>,
// over the same data and the same SQL, so the oracle gap (engine time /
// sqlite time) is measured in one run on one machine.
//
// Before a workload is timed, both sides run a fixed slice of it into
// checksums; a mismatch marks both benchmarks as errors instead of timing a
// wrong answer. Each timed loop sits inside perfci's BenchHook, so perf
// counters and callgrind cover the loop and nothing else.
//
// Extra flags (removed before Google Benchmark sees argv):
//   --scale=F        shrink TPC-C (items, customers, orders) to F of one warehouse
//   --iterations=N   run exactly N iterations of each benchmark (this Google
//                    Benchmark has no "Nx" min_time): callgrind counts of two
//                    builds then cover the same work
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/bench/engine_conn.h"
#include "engine/bench/sized_workloads.h"
#include "engine/bench/sqlite_conn.h"
#include "engine/bench/tpcc.h"
#include "engine/bench/workloads.h"
#include "perfci/bench.h"

namespace bench {
namespace {

Scale g_scale;
int64_t g_iterations = 0;  // 0: Google Benchmark decides

// One connection per side per process, each on its own copy of the data.
template <class Conn>
Conn& Side() {
  static Conn conn(CopyOfTemplate(g_scale, Conn::kName));
  return conn;
}

template <template <class> class W, class Conn>
std::unique_ptr<W<Conn>> Make(Conn& c) {
  if constexpr (std::is_constructible_v<W<Conn>, Conn&, const Scale&>) {
    return std::make_unique<W<Conn>>(c, g_scale);
  } else {
    return std::make_unique<W<Conn>>(c);
  }
}

// Runs the verification slice on both sides, once per process per workload.
// Returns an error message, empty when both sides agree.
template <template <class> class W>
const std::string& VerifyOnce() {
  static const std::string error = []() -> std::string {
    try {
      Checksum e, s;
      auto we = Make<W>(Side<EngineConn>());
      we->verify(Side<EngineConn>(), e);
      auto ws = Make<W>(Side<SqliteConn>());
      ws->verify(Side<SqliteConn>(), s);
      // An empty result on both sides (a broken data template, a workload
      // that reads nothing) would pass the comparison and time nothing.
      if (e.rows() == 0 && s.rows() == 0)
        return std::string("result check read no rows on either side");
      if (e.value() != s.value() || e.rows() != s.rows()) {
        return std::string("result check failed: engine returned ") + std::to_string(e.rows()) +
               " rows (checksum " + std::to_string(e.value()) + "), sqlite " +
               std::to_string(s.rows()) + " rows (checksum " + std::to_string(s.value()) + ")";
      }
      return "";
    } catch (const std::exception& ex) {
      return std::string("result check could not run: ") + ex.what();
    }
  }();
  return error;
}

template <template <class> class W, class Conn>
void Run(benchmark::State& state) {
  const std::string& err = VerifyOnce<W>();
  if (!err.empty()) {
    state.SkipWithError(err.c_str());
    return;
  }
  try {
    static auto workload = Make<W>(Side<Conn>());
    Sink sink;
    perfci::BenchHook hook(state);
    Timing timing(state, hook);
    for (auto _ : state) workload->iterate(sink, &timing);
    hook.stop();
    benchmark::DoNotOptimize(sink.acc);
    if constexpr (requires { workload->Report(state); }) workload->Report(state);
  } catch (const std::exception& ex) {
    state.SkipWithError(ex.what());
  }
}

// A workload over sizes: one instance per n, made on first use. The body is
// Run's, written out again on purpose: one helper shared by both (a lambda
// returning the workload) changed g++'s code for the timed loops, sqlite/
// range_scan +2.06% and sqlite/index_range +0.68% Ir against the baseline.
template <template <class> class W, class Conn>
void RunSized(benchmark::State& state) {
  const std::string& err = VerifyOnce<W>();
  if (!err.empty()) {
    state.SkipWithError(err.c_str());
    return;
  }
  try {
    static std::map<int64_t, std::unique_ptr<W<Conn>>> by_size;
    std::unique_ptr<W<Conn>>& workload = by_size[state.range(0)];
    if (!workload) workload = std::make_unique<W<Conn>>(Side<Conn>(), state.range(0));
    Sink sink;
    perfci::BenchHook hook(state);
    Timing timing(state, hook);
    for (auto _ : state) workload->iterate(sink, &timing);
    hook.stop();
    benchmark::DoNotOptimize(sink.acc);
  } catch (const std::exception& ex) {
    state.SkipWithError(ex.what());
  }
}

// The engine side only: these families are for scaling contracts, which
// compare sizes of one side; the oracle gaps are the fixed workloads'.
template <template <class> class W>
void RegisterFamily(std::initializer_list<int64_t> sizes) {
  const std::string name = W<SqliteConn>::kName;
  auto* e = benchmark::RegisterBenchmark(("engine/" + name).c_str(), RunSized<W, EngineConn>);
  for (int64_t n : sizes) e->Arg(n);
  if (g_iterations > 0) e->Iterations(g_iterations);
}

template <template <class> class W>
void RegisterPair() {
  const std::string name = W<SqliteConn>::kName;
  auto* e = benchmark::RegisterBenchmark(("engine/" + name).c_str(), Run<W, EngineConn>);
  auto* s = benchmark::RegisterBenchmark(("sqlite/" + name).c_str(), Run<W, SqliteConn>);
  if (g_iterations > 0) {
    e->Iterations(g_iterations);
    s->Iterations(g_iterations);
  }
}

// Reads and removes --scale=F from argv.
void TakeOwnFlags(int* argc, char** argv) {
  int out = 1;
  for (int i = 1; i < *argc; ++i) {
    if (std::strncmp(argv[i], "--scale=", 8) == 0) {
      g_scale.tpcc = std::atof(argv[i] + 8);
      if (!(g_scale.tpcc > 0 && g_scale.tpcc <= 1)) {
        std::fprintf(stderr, "engine_bench: --scale must be in (0, 1]\n");
        std::exit(2);
      }
      continue;
    }
    if (std::strncmp(argv[i], "--iterations=", 13) == 0) {
      g_iterations = std::atoll(argv[i] + 13);
      if (g_iterations <= 0) {
        std::fprintf(stderr, "engine_bench: --iterations must be a positive integer\n");
        std::exit(2);
      }
      continue;
    }
    argv[out++] = argv[i];
  }
  *argc = out;
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) {
  bench::TakeOwnFlags(&argc, argv);
  // Read workloads first: the write workloads change the tables they share.
  bench::RegisterPair<bench::ReadFullScan>();
  bench::RegisterPair<bench::ReadJoin>();
  bench::RegisterPair<bench::PointLookup>();
  bench::RegisterPair<bench::RangeScan>();
  bench::RegisterPair<bench::IndexRange>();
  bench::RegisterPair<bench::GroupByAgg>();
  // Before the writes too: update_by_pk and tpcc_lite run as many
  // iterations as the clock says on each side, so after them the two sides'
  // accounts differ and no result check of a read could pass.
  bench::RegisterFamily<bench::RangeScanLen>({250, 1000, 4000});
  bench::RegisterFamily<bench::DrainRows>({1000, 4000, 16000});
  bench::RegisterPair<bench::InsertBatch>();
  bench::RegisterPair<bench::UpdateByPk>();
  bench::RegisterPair<bench::TpccLite>();
  bench::RegisterPair<bench::AdhocSql>();
  bench::RegisterPair<bench::CreateIndex>();
  bench::RegisterFamily<bench::InsertRows>({250, 1000, 4000});
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  size_t ran = benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return ran == 0 ? 2 : 0;
}
