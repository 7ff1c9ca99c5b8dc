// perfci's benchmark hook: a Google Benchmark function puts it around its
// timed loop, and perfci gets per-iteration perf counters, a callgrind count
// of exactly the loop, and profile samples of exactly the loop.
//
//   static void BM_lookup(benchmark::State& state) {
//     Setup setup;                      // not measured by the hook
//     perfci::BenchHook hook(state);    // measuring starts here...
//     for (auto _ : state) lookup(setup);
//   }                                   // ...and stops here
//
// or explicitly: BenchHook hook(state, BenchHook::kManualStart); hook.start();
// ... hook.stop(). Workloads that run several transactions per iteration
// call set_items_per_iteration() or set_transactions() to get counters per
// transaction as well.
//
// perfci drives the hook through environment variables; when none is set the
// hook does nothing beyond one cached flag test per benchmark run, outside
// the loop.
//
//   PERFCI_EVENTS=instructions,task-clock  events to count (libpfm4 names)
//   PERFCI_CALLGRIND=1                      toggle callgrind collection around
//                                           the region (the run uses
//                                           --collect-atstart=no)
//   PERFCI_PROFILE=<period ns>              sample the region with cpu-clock
//   PERFCI_ALLOC=1                          count the region's allocations
//                                           and bytes through the allocation
//                                           counter perfci preloads
//                                           (perfci/bench/alloc_counter.cc)
//   PERFCI_HOOK_OUT=<file>                  where the hook writes, at exit,
//                                           what does not fit a benchmark
//                                           counter (iterations under
//                                           callgrind, allocations, profile
//                                           samples)
//
// Counters added to the benchmark's output (all keys start with "perf."):
//   perf.<event>               value per iteration (scaled if multiplexed)
//   perf.<event>/txn           value per transaction, when a divisor is set
//   perf.<event>.scale         enabled/running, only when multiplexed
//   perf.<event>.unsupported   errno; the event has no value on this machine
//   perf.<event>.no_permission errno (see perf_event_paranoid)
//   perf.<event>.not_counted   1; opened but never scheduled
//   perf.<event>.unknown       1; libpfm4 does not know the name
//   perf.transactions          transactions per iteration, when set
// An event that could not be counted never appears as perf.<event> = 0.
#pragma once

#include <benchmark/benchmark.h>

#include <memory>

namespace perfci {

class BenchHook {
 public:
  enum StartMode { kStartNow, kManualStart };

  explicit BenchHook(benchmark::State& state, StartMode mode = kStartNow);
  ~BenchHook();
  BenchHook(const BenchHook&) = delete;
  BenchHook& operator=(const BenchHook&) = delete;

  // Regions may be started and stopped several times; counts add up.
  void start();
  void stop();

  // Transactions per iteration (a constant batch), or the total number of
  // transactions run in the measured region (a variable count).
  void set_items_per_iteration(double items);
  void set_transactions(double total);

  // True when perfci asked for any measurement in this process.
  static bool enabled();

 private:
  struct Active;
  benchmark::State& state_;
  std::unique_ptr<Active> active_;
};

}  // namespace perfci
