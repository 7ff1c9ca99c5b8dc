#include "perfci/meters/callgrind_counts.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace perfci {
namespace {

std::uint64_t minus(std::uint64_t a, std::uint64_t b) { return a > b ? a - b : 0; }

std::uint64_t value(const std::map<std::string, std::uint64_t>& m, const std::string& key) {
  auto it = m.find(key);
  return it == m.end() ? 0 : it->second;
}

}  // namespace

bool is_allocator(const std::string& function) {
  static constexpr std::array<std::string_view, 9> c_allocators{
      "malloc",         "calloc",   "realloc", "reallocarray", "aligned_alloc",
      "posix_memalign", "memalign", "valloc",  "pvalloc"};
  if (std::find(c_allocators.begin(), c_allocators.end(), function) != c_allocators.end())
    return true;
  // "operator new(unsigned long)", "operator new[](unsigned long, std::align_val_t)", ...
  if (function.rfind("operator new(", 0) != 0 && function.rfind("operator new[](", 0) != 0)
    return false;
  // Placement new (size, void*) constructs in memory it is given and
  // allocates nothing; it is inline, so only an unoptimised build (-O0,
  // where std::_Construct calls it) shows it as a function at all.
  constexpr std::string_view placement = ", void*)";
  return !(function.size() >= placement.size() &&
           function.compare(function.size() - placement.size(), placement.size(), placement) == 0);
}

ProfileCounts profile_counts(const CallgrindProfile& profile) {
  ProfileCounts out;
  for (const auto& e : profile.calls)
    if (is_allocator(e.callee) && !is_allocator(e.caller))
      out.allocations_by_caller[e.caller] += e.calls;
  out.events = profile.totals;
  return out;
}

void set_per_iteration_counts(CallgrindResult& c, const ProfileCounts& large,
                              const ProfileCounts* small, std::uint64_t iterations,
                              std::size_t top_sites) {
  const double n = iterations ? static_cast<double>(iterations) : 1;
  auto per_iteration = [&](const std::map<std::string, std::uint64_t>& l,
                           const std::map<std::string, std::uint64_t>* s, const std::string& key) {
    return static_cast<double>(minus(value(l, key), s ? value(*s, key) : 0)) / n;
  };

  Allocations a;
  for (const auto& entry : large.allocations_by_caller) {
    const std::string& caller = entry.first;
    const double v = per_iteration(large.allocations_by_caller,
                                   small ? &small->allocations_by_caller : nullptr, caller);
    if (v <= 0) continue;
    a.per_iteration += v;
    a.sites.push_back({caller, v});
  }
  std::sort(a.sites.begin(), a.sites.end(), [](const AllocationSite& x, const AllocationSite& y) {
    return x.per_iteration != y.per_iteration ? x.per_iteration > y.per_iteration
                                              : x.function < y.function;
  });
  if (a.sites.size() > top_sites) a.sites.resize(top_sites);
  c.allocations = std::move(a);

  if (!large.events.count("D1mr")) return;  // no cache simulation
  const auto* se = small ? &small->events : nullptr;
  auto ev = [&](const char* key) { return per_iteration(large.events, se, key); };
  c.cache = CacheCounts{ev("I1mr"), ev("D1mr") + ev("D1mw"), ev("ILmr"), ev("DLmr") + ev("DLmw")};
}

}  // namespace perfci
