// Lets a workload step outside the measured region (to rebuild a table, say)
// so that neither the wall clock nor perfci's counters see that work.
#pragma once

#include <benchmark/benchmark.h>

#include "perfci/bench.h"

namespace bench {

class Timing {
 public:
  Timing(benchmark::State& state, perfci::BenchHook& hook) : state_(state), hook_(hook) {}
  void pause() {
    hook_.stop();
    state_.PauseTiming();
  }
  void resume() {
    state_.ResumeTiming();
    hook_.start();
  }

 private:
  benchmark::State& state_;
  perfci::BenchHook& hook_;
};

}  // namespace bench
