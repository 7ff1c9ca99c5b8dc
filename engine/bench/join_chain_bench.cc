// join_chain_bench: issue 14's many-table join, engine against sqlite3. A
// chain of N ten-row tables, t{k}.nxt = t{k+1}.id through the INTEGER
// PRIMARY KEYs, written as a scrambled FROM list with the equalities in
// WHERE: the shape that ran past 60 s for 32 tables before the planner chose
// the join order by cost.
//
//   {side}/join_chain_plan/N   prepare only: the planner's time (the search
//                              over join orders), nothing read
//   {side}/join_chain_run/N    prepare, then every row: plan plus execution
//
// Each side builds its own database in a fresh temporary folder once per
// process, and the run benchmark checks its answer (10 chains, one per row of
// the head table) before it is timed: a wrong answer is an error, never a
// figure. A benchmark, not a timed test: perfci run --meter wall reads it.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include "engine/bench/engine_conn.h"
#include "engine/bench/join_chain.h"
#include "engine/bench/sqlite_conn.h"

namespace bench {
namespace {

constexpr int kMaxTables = 64;

// One temporary folder per process, removed at exit.
class ScratchDir {
 public:
  ScratchDir() {
    path_ =
        std::filesystem::temp_directory_path() / ("join-chain-bench-" + std::to_string(::getpid()));
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

ScratchDir& Scratch() {
  static ScratchDir dir;
  return dir;
}

// One connection per side per process, on its own file of the chain.
template <class Conn>
struct ChainDb {
  ChainDb() : conn(EmptyFile(std::string(Conn::kName) + ".db")) {
    conn.exec(ChainSchemaAndRows(kMaxTables));
  }
  // The oracle's connection opens without SQLITE_OPEN_CREATE (engine_bench
  // opens copies of a template); a zero-length file is an empty database to
  // both sides.
  static std::string EmptyFile(const std::string& name) {
    const std::string path = Scratch().file(name);
    std::ofstream(path).close();
    return path;
  }
  Conn conn;
};

template <class Conn>
Conn& Side() {
  static ChainDb<Conn> db;
  return db.conn;
}

template <class Conn>
int64_t CountChains(Conn& conn, int n) {
  auto st = conn.prepare(ChainQuery(n));
  if (!st->step()) throw BenchError("the chain query returned no row");
  return st->int64(0);
}

template <class Conn>
void Plan(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  try {
    Conn& conn = Side<Conn>();
    const std::string sql = ChainQuery(n);
    for (auto _ : state) {
      auto st = conn.prepare(sql);
      benchmark::DoNotOptimize(st);
    }
  } catch (const std::exception& ex) {
    state.SkipWithError(ex.what());
  }
}

template <class Conn>
void Run(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  try {
    Conn& conn = Side<Conn>();
    // Every row of t0 starts one chain that reaches t{n-1}.
    if (const int64_t got = CountChains(conn, n); got != kChainRowsPerTable) {
      throw BenchError("wrong answer: " + std::to_string(got) + " chains, expected " +
                       std::to_string(kChainRowsPerTable));
    }
    for (auto _ : state) benchmark::DoNotOptimize(CountChains(conn, n));
  } catch (const std::exception& ex) {
    state.SkipWithError(ex.what());
  }
}

void Register() {
  for (const int n : {16, 32, 64}) {
    benchmark::RegisterBenchmark("engine/join_chain_plan", Plan<EngineConn>)->Arg(n);
    benchmark::RegisterBenchmark("sqlite/join_chain_plan", Plan<SqliteConn>)->Arg(n);
    benchmark::RegisterBenchmark("engine/join_chain_run", Run<EngineConn>)->Arg(n);
    benchmark::RegisterBenchmark("sqlite/join_chain_run", Run<SqliteConn>)->Arg(n);
  }
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) {
  bench::Register();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
