#include "perfci/meters/callgrind_process.h"

#include <gtest/gtest.h>

#include "perfci/util/error.h"

namespace perfci {
namespace {

CallEdge edge(const std::string& caller, const std::string& callee) {
  return {caller, callee, "/build/x", 1, 100};
}

// Debian's libbenchmark runs the function from an unnamed static that also
// constructs the State: the callee taking benchmark::State& is the entry,
// whether a plain function or a LambdaBenchmark's Run (printed without '&').
TEST(CallgrindProcess, FindsTheFunctionGoogleBenchmarkRuns) {
  CallgrindProfile p;
  p.calls = {edge("main", "benchmark::RunSpecifiedBenchmarks()"),
             edge("0x2d130", "benchmark::State::State(long, int)"),
             edge("0x2d130", "pthread_mutex_lock"),
             edge("0x2d130", "(anonymous namespace)::BM_x(benchmark::State&)"),
             edge("(anonymous namespace)::BM_x(benchmark::State&)",
                  "benchmark::State::StartKeepRunning()")};
  EXPECT_EQ(find_benchmark_entry(p), "(anonymous namespace)::BM_x(benchmark::State&)");
  p.calls[3].callee = "benchmark::internal::LambdaBenchmark<L>::Run(benchmark::State)";
  EXPECT_EQ(find_benchmark_entry(p),
            "benchmark::internal::LambdaBenchmark<L>::Run(benchmark::State)");
}

TEST(CallgrindProcess, NoStateOrNoSymbolIsAClearError) {
  CallgrindProfile none;
  none.calls = {edge("main", "puts")};
  try {
    find_benchmark_entry(none);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not a Google Benchmark binary"), std::string::npos);
  }
  CallgrindProfile stripped;
  stripped.calls = {edge("0x2d130", "benchmark::State::State(long)"), edge("0x2d130", "0x4010")};
  try {
    find_benchmark_entry(stripped);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("stripped"), std::string::npos) << e.what();
  }
}

CallgrindProfile call(std::uint64_t setup, std::uint64_t per_iteration, std::uint64_t n) {
  CallgrindProfile p;
  p.total_ir = setup + per_iteration * n;
  p.functions = {{"work()", "/build/x", per_iteration * n, per_iteration * n},
                 {"setup()", "/build/x", setup, setup}};
  return p;
}

// cost(n) = setup + n x per-iteration: the fit recovers both exactly, and
// the profile is the difference, i.e. iterations without setup.
TEST(CallgrindProcess, TwoPointFitSeparatesSetupExactly) {
  CallgrindResult c = fit_two_calls(call(4925, 11276, 10), 10, call(4925, 11276, 100), 100, 50);
  EXPECT_EQ(c.mode, "process");
  EXPECT_EQ(c.iterations, 90u);
  EXPECT_EQ(c.total_ir, 11276u * 90);
  EXPECT_DOUBLE_EQ(c.ir_per_iteration, 11276.0);
  ASSERT_TRUE(c.setup_ir.has_value());
  EXPECT_DOUBLE_EQ(*c.setup_ir, 4925.0);
  EXPECT_EQ(c.fit_iterations, (std::vector<std::uint64_t>{10, 100}));
  ASSERT_EQ(c.functions.size(), 1u) << "setup() cancels out";
  EXPECT_EQ(c.functions[0].name, "work()");
  EXPECT_EQ(c.functions[0].self_ir, 11276u * 90);
}

TEST(CallgrindProcess, ACostThatShrinksWithIterationsIsRefused) {
  EXPECT_THROW(fit_two_calls(call(9000, 10, 10), 10, call(10, 10, 100), 100, 50), Error);
  EXPECT_THROW(fit_two_calls(call(1, 1, 10), 10, call(1, 1, 10), 10, 50), Error);
}

}  // namespace
}  // namespace perfci
