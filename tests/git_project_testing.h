// What the end-to-end tests that build a real project share: git run in a
// throw-away repository (argv, never a shell) and a tiny Google Benchmark
// project linking the perfci hook, whose BM_work spends `rounds` rounds of
// work() per iteration. PERFCI_SOURCE_ROOT is the path CMake passes.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "perfci/util/files.h"
#include "perfci/util/subprocess.h"

namespace perfci::testing {

inline void git(const std::filesystem::path& repo, std::vector<std::string> args) {
  SubprocessOptions o;
  o.argv = {
      "git", "-C", repo.string(), "-c", "user.name=perfci", "-c", "user.email=perfci@example.com"};
  o.argv.insert(o.argv.end(), args.begin(), args.end());
  auto r = run_subprocess(o);
  ASSERT_TRUE(r.ok()) << format_command(o.argv) << ": " << r.describe() << r.err_tail;
}

inline std::string head(const std::filesystem::path& repo) {
  SubprocessOptions o;
  o.argv = {"git", "-C", repo.string(), "rev-parse", "HEAD"};
  auto r = run_subprocess(o);
  std::string h = r.out;
  while (!h.empty() && h.back() == '\n') h.pop_back();
  return h;
}

// bench.cc of the hooked project; `extra` goes at its end (a comment, or
// something that does not compile).
inline std::string hooked_bench_source(int rounds, const std::string& extra = "") {
  return R"(#include <benchmark/benchmark.h>
#include <cstdint>
#include "perfci/bench.h"
__attribute__((noinline)) std::uint64_t work(std::uint64_t rounds) {
  std::uint64_t x = 1;
  for (std::uint64_t i = 0; i < rounds; ++i) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; }
  return x;
}
static void BM_work(benchmark::State& state) {
  perfci::BenchHook hook(state);
  for (auto _ : state) benchmark::DoNotOptimize(work()" +
         std::to_string(rounds) + R"());
}
BENCHMARK(BM_work);
BENCHMARK_MAIN();
)" + extra;
}

// The whole project: CMakeLists.txt, a "release" preset, bench.cc,
// perfci.json (suite "tiny", callgrind only, 0.2% threshold), .gitignore.
inline void write_hooked_project(const std::filesystem::path& repo, int rounds) {
  write_file_atomic(repo / "CMakeLists.txt", std::string(R"(cmake_minimum_required(VERSION 3.25)
project(tiny LANGUAGES CXX)
include()") + PERFCI_SOURCE_ROOT + R"(/cmake/PerfciHook.cmake)
add_executable(bench bench.cc)
target_link_libraries(bench PRIVATE perfci::hook benchmark::benchmark)
)");
  write_file_atomic(repo / "CMakePresets.json", R"({"version": 6,
  "configurePresets": [{"name": "release", "generator": "Ninja", "binaryDir": "${sourceDir}/build/release",
                        "cacheVariables": {"CMAKE_BUILD_TYPE": "Release", "CMAKE_CXX_FLAGS_RELEASE": "-O2 -g"}}]})");
  write_file_atomic(repo / "bench.cc", hooked_bench_source(rounds));
  write_file_atomic(repo / "perfci.json", R"({"schema": "perfci.config/1",
  "build": {"preset": "release", "targets": ["bench"]},
  "suites": [{"name": "tiny", "binary": "bench", "callgrind": {"iterations": 2}}],
  "check": {"meters": ["callgrind"]},
  "metrics": {"callgrind": {"threshold": 0.002}}})");
  write_file_atomic(repo / ".gitignore", "/build/\n/reports/\n/.perfci-cache/\n");
}

}  // namespace perfci::testing
