// Hook-free sampling profiles (issue 21): the benchmark runs alone and its
// main thread is sampled from outside with cpu-clock
// (perfci/counters/cpu_clock_ring.h), its memory map read from /proc while
// it runs, and the samples symbolized as the hook's are
// (symbolize_hook_profile). The profile covers the whole process (start,
// setup, every call), not only the timed loop.
#pragma once

#include <string>

#include "perfci/meters/profile_meter.h"

namespace perfci {

// Throws nothing for a failing benchmark: the result carries the error.
BenchmarkResult run_profile_process_mode(const std::string& binary, const std::string& name,
                                         const ProfileOptions& options);

}  // namespace perfci
