// Deterministic instruction counts: each benchmark runs alone under
// valgrind --tool=callgrind, ASLR off and a fixed environment, in one of two
// modes (CallgrindResult::mode says which measured it):
//   hook     instrumentation and collection off except inside the hook's
//            region, a fixed number of one-iteration repetitions; the
//            iteration count comes from the hook (PERFCI_HOOK_OUT), so
//            hidden warm-up runs cannot skew the division. The precise mode.
//   process  hook-free, for any Google Benchmark binary: collection inside
//            the function Google Benchmark runs, setup separated by a
//            two-point fit (callgrind_process.h).
// "auto" picks hook when the binary defines perfci::BenchHook and the
// benchmark's region reports iterations, process otherwise.
#pragma once

#include <string>
#include <vector>

#include "perfci/meters/benchmark_process.h"
#include "perfci/model/results.h"

namespace perfci {

struct CallgrindOptions {
  int iterations = 10;        // hook mode: one-iteration repetitions
  std::string mode = "auto";  // auto, hook, process
  // Simulate the caches too (about twice the time): L1/LL misses and the
  // estimated cycles per iteration (CacheCounts).
  bool cache_sim = false;
  std::string valgrind = "valgrind";
  // libperfci_alloc_counter.so for the bytes run (alloc_bytes.h); empty
  // when it was not found, and the result says bytes were not measured.
  std::string alloc_counter;
  std::size_t top_functions = 50;
  ProcessConditions conditions;
};

// The modes the callgrind meter knows.
const std::vector<std::string>& callgrind_modes();

// valgrind's flags for the cache simulation, or none without it. The
// geometry is fixed (I1 and D1 32 KiB 8-way, LL 8 MiB 16-way, 64-byte lines)
// rather than callgrind's default, the host's own caches: the counts must
// not change with the runner's CPU.
std::vector<std::string> cache_sim_args(const CallgrindOptions& options);

// Whether the binary itself defines perfci::BenchHook (its symbol table).
// A hook in a shared library is not seen; auto mode then still finds the
// hook by its report.
bool binary_has_hook(const std::string& binary);

// Throws nothing for a failing benchmark: the result carries the error.
BenchmarkResult run_callgrind_meter(const std::string& binary, const std::string& name,
                                    const CallgrindOptions& options);

}  // namespace perfci
