// What a callgrind profile says beyond Ir: calls into the heap allocator and
// the cache simulation's misses, per iteration. Both come from the same
// profile as the Ir, so they are exact, and the hook and the hook-free mode
// share the arithmetic: one profile over n iterations (hook), or the
// difference of two calls' profiles (process mode's two-point fit).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "perfci/meters/callgrind_output.h"
#include "perfci/model/results.h"

namespace perfci {

// Whether a (demangled) function is an entry point of the heap allocator:
// malloc, calloc, realloc, reallocarray, aligned_alloc, posix_memalign,
// memalign, valloc, pvalloc and every operator new / new[].
bool is_allocator(const std::string& function);

// A profile's totals that per-iteration figures are made of.
struct ProfileCounts {
  // Calls into the allocator from a function outside it (operator new
  // calling malloc is one allocation, not two), by caller.
  std::map<std::string, std::uint64_t> allocations_by_caller;
  std::map<std::string, std::uint64_t> events;  // the file's totals
};

ProfileCounts profile_counts(const CallgrindProfile& profile);

// Per iteration over `iterations`: `large` alone, or large - small (a caller
// or event that counted more in the smaller call belongs to setup that
// varies between calls and counts 0, as fit_two_calls does for functions).
// Sets c.allocations, and c.cache when the profile has the cache
// simulation's events.
void set_per_iteration_counts(CallgrindResult& c, const ProfileCounts& large,
                              const ProfileCounts* small, std::uint64_t iterations,
                              std::size_t top_sites = 20);

}  // namespace perfci
