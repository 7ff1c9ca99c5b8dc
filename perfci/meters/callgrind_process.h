// The hook-free callgrind meter ("process" mode, issue 21): deterministic Ir
// per iteration for an unmodified Google Benchmark binary.
//
// 1. Discovery: one call of one iteration under callgrind, everything
//    collected. The function Google Benchmark runs is the callee taking
//    `benchmark::State&` of the function that constructs the State (GB's
//    runner; in Debian's libbenchmark it is an unnamed static, and
//    FunctionBenchmark::Run is inlined into it, so no fixed symbol of
//    libbenchmark can be toggled).
// 2. Measurement: collection only inside that function
//    (--toggle-collect), a dump after each call (--dump-after), and a
//    min_time so large that no call is "significant": Google Benchmark then
//    grows the iteration count tenfold from one call to the next (1, 10,
//    100, ... iterations), which is the clock-free rule of its
//    PredictNumItersNeeded. perfci stops the process once the third call's
//    dump is written. cost(n) = setup + n x per-iteration is fitted through
//    the calls of 10 and 100 iterations: both warm (the first call pays
//    lazy binding and first-touch costs), and exact on every run because the
//    iteration counts do not depend on the clock.
// A benchmark with Iterations(n) has one count only: its figure includes
// the function's setup, and says so (fit_iterations = {n}).
#pragma once

#include <string>

#include "perfci/meters/callgrind_meter.h"
#include "perfci/meters/callgrind_output.h"
#include "perfci/model/results.h"

namespace perfci {

// The function Google Benchmark runs for the benchmark, from a profile of
// its run with everything collected. Throws perfci::Error when there is no
// such call (not a Google Benchmark binary, the benchmark did not run) or
// no symbol for it (a stripped binary).
std::string find_benchmark_entry(const CallgrindProfile& profile);

// cost(n) = setup + n x per-iteration through two calls of n1 < n2
// iterations: ir_per_iteration = (T2 - T1) / (n2 - n1); the functions are
// the per-function differences, i.e. n2 - n1 iterations without setup.
// Throws perfci::Error when the larger call cost less (the cost does not
// grow with iterations).
CallgrindResult fit_two_calls(const CallgrindProfile& small, std::uint64_t n1,
                              const CallgrindProfile& large, std::uint64_t n2,
                              std::size_t top_functions);

// Throws nothing for a failing benchmark: the result carries the error.
BenchmarkResult run_callgrind_process_mode(const std::string& binary, const std::string& name,
                                           const CallgrindOptions& options);

}  // namespace perfci
