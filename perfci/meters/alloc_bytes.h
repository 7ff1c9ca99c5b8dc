// Bytes allocated per iteration: what a callgrind profile cannot say (it
// sees calls into the allocator, not their arguments). The benchmark runs
// once more, natively, with perfci's allocation counter preloaded
// (perfci/bench/alloc_counter.cc) and PERFCI_ALLOC=1, and perfci::BenchHook
// reads the counter around its region; the repetitions are those of the
// callgrind hook run (one iteration each), so the two divide by the same
// iterations. Hook-free benchmarks get no bytes: natively nothing marks
// where an iteration begins, and the result says so.
#pragma once

#include <string>
#include <vector>

#include "perfci/meters/callgrind_meter.h"

namespace perfci {

// Where perfci looks for libperfci_alloc_counter.so, in order: the
// PERFCI_ALLOC_COUNTER environment variable alone when it is set; else
// beside the installed perfci (<prefix>/<libdir>/perfci/, from
// /proc/self/exe), then the build tree it was built in.
std::vector<std::string> alloc_counter_candidates();
// The first candidate that exists, or "" when none does.
std::string find_alloc_counter();

// Sets c.allocations->bytes_per_iteration, or bytes_unmeasured with the
// reason. c is the hook-mode result of the same benchmark (its
// allocations and iteration count are the cross-check).
void measure_alloc_bytes(const std::string& binary, const std::string& name,
                         const CallgrindOptions& options, CallgrindResult& c);

}  // namespace perfci
