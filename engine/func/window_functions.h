// SQLite's built-in window functions (windowfunctions.html, "Built-in
// Window Functions"): their names and arities, and the arithmetic of the
// ones whose value is a formula over positions in the partition. The
// aggregates used with OVER are func::Aggregate (aggregates.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "engine/value.h"

namespace engine::func {

enum class WindowFunction : uint8_t {
  kRowNumber,
  kRank,
  kDenseRank,
  kPercentRank,
  kCumeDist,
  kNtile,
  kLag,
  kLead,
  kFirstValue,
  kLastValue,
  kNthValue,
};

// The window-only function `name` (any letter case), or nullopt.
std::optional<WindowFunction> FindWindowFunction(std::string_view name);

// Whether `f` takes n arguments (lag/lead: 1 to 3).
bool WindowArityOk(WindowFunction f, int n);

// Whether f's value depends on the frame (the others read whole partitions).
bool UsesFrame(WindowFunction f);

// ntile(buckets) of the 0-based row `row` of a partition of `total` rows:
// the first (total % buckets) buckets hold one row more than the others.
int64_t NtileBucket(int64_t row, int64_t total, int64_t buckets);

// nth_value's N as SQLite takes it: an INTEGER, or a REAL with no fraction;
// nullopt for anything else (then "must be a positive integer").
std::optional<int64_t> NthValueIndex(const Value& v);

}  // namespace engine::func
