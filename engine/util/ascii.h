// ASCII case folding, as SQLite's sqlite3StrICmp folds: names, keywords and
// function names compare this way whatever the C locale says.
#pragma once

#include <string_view>

namespace engine {

inline char LowerAscii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; }

inline bool EqualsNoCaseAscii(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (LowerAscii(a[i]) != LowerAscii(b[i])) return false;
  }
  return true;
}

}  // namespace engine
