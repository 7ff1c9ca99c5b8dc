// SQLite's three built-in collating sequences. A collation only changes how
// two TEXT values compare; every other pair compares as compare_values does.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "engine/value.h"

namespace engine::func {

enum class Collation : uint8_t { kBinary, kNoCase, kRtrim };

// The collation named in COLLATE <name> (case-insensitive), if built in.
inline std::optional<Collation> CollationByName(std::string_view name) {
  auto eq = [&](std::string_view want) {
    if (name.size() != want.size()) return false;
    for (size_t i = 0; i < name.size(); i++) {
      char c = name[i];
      if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
      if (c != want[i]) return false;
    }
    return true;
  };
  if (eq("BINARY")) return Collation::kBinary;
  if (eq("NOCASE")) return Collation::kNoCase;
  if (eq("RTRIM")) return Collation::kRtrim;
  return std::nullopt;
}

// Orders two values under a collation: <0, 0 or >0.
inline int CompareCollated(const Value& a, const Value& b, Collation coll) {
  if (coll == Collation::kBinary || a.type() != ValueType::kText || b.type() != ValueType::kText) {
    return compare_values(a, b);
  }
  std::string_view x = a.as_text();
  std::string_view y = b.as_text();
  if (coll == Collation::kRtrim) {
    while (!x.empty() && x.back() == ' ') x.remove_suffix(1);
    while (!y.empty() && y.back() == ' ') y.remove_suffix(1);
    return compare_values(Value::Text(x), Value::Text(y));
  }
  // NOCASE folds ASCII letters only, like sqlite3StrNICmp.
  const size_t n = x.size() < y.size() ? x.size() : y.size();
  for (size_t i = 0; i < n; i++) {
    unsigned char c = static_cast<unsigned char>(x[i]);
    unsigned char d = static_cast<unsigned char>(y[i]);
    if (c >= 'A' && c <= 'Z') c = static_cast<unsigned char>(c + 32);
    if (d >= 'A' && d <= 'Z') d = static_cast<unsigned char>(d + 32);
    if (c != d) return c < d ? -1 : 1;
  }
  return x.size() < y.size() ? -1 : (x.size() > y.size() ? 1 : 0);
}

}  // namespace engine::func
