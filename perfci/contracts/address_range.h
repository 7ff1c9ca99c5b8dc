// A half-open range of code addresses, [lo, hi).
#pragma once

#include <cstdint>
#include <span>

namespace perfci::contracts {

struct AddrRange {
  uint64_t lo = 0;
  uint64_t hi = 0;
  bool contains(uint64_t addr) const { return addr >= lo && addr < hi; }
};

inline bool any_contains(std::span<const AddrRange> ranges, uint64_t addr) {
  for (const auto& r : ranges)
    if (r.contains(addr)) return true;
  return false;
}

}  // namespace perfci::contracts
