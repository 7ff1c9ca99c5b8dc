#include "engine/slt/result_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace engine::slt {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// SQLite formats reals with its own printf (printf.c, as of 3.40), not the C
// library's: a rounder is added in long double, at most 16 significant
// digits (26 with the '!' flag) are produced by truncation, and the rest is
// padded with '0'. glibc's correctly rounded output differs on binary ties
// (0.0625 is "0.063" in SQLite) and in the last digits, so the algorithm is
// reproduced step by step. `generic` selects %g (else %f); `bang` is '!'.
std::string SqlitePrintfReal(double r, int precision, bool generic, bool bang) {
  if (std::isnan(r)) return "NaN";
  static constexpr double kRound[] = {5.0e-01, 5.0e-02, 5.0e-03, 5.0e-04, 5.0e-05,
                                      5.0e-06, 5.0e-07, 5.0e-08, 5.0e-09, 5.0e-10};
  long double value = r;
  std::string out;
  if (value < 0.0) {  // -0.0 is not below zero: printed without a sign
    value = -value;
    out += '-';
  }
  if (generic && precision > 0) precision--;
  long double rounder = kRound[precision % 10];
  for (int idx = precision; idx >= 10; idx -= 10) rounder *= 1.0e-10;
  if (!generic) {
    const double rx = static_cast<double>(value);
    uint64_t bits;
    std::memcpy(&bits, &rx, sizeof bits);
    const int ex = -1023 + static_cast<int>((bits >> 52) & 0x7ff);
    if (precision + (ex / 3) < 15) rounder += value * 3e-16;
    value += rounder;
  }
  int exp = 0;
  if (value > 0.0) {
    long double scale = 1.0;
    while (value >= 1e100 * scale && exp <= 350) {
      scale *= 1e100;
      exp += 100;
    }
    while (value >= 1e10 * scale && exp <= 350) {
      scale *= 1e10;
      exp += 10;
    }
    while (value >= 10.0 * scale && exp <= 350) {
      scale *= 10.0;
      exp++;
    }
    value /= scale;
    while (value < 1e-8) {
      value *= 1e8;
      exp -= 8;
    }
    while (value < 1.0) {
      value *= 10.0;
      exp--;
    }
  }
  if (exp > 350) return out + "Inf";
  bool exponential = false;
  bool strip_zeros = bang;
  if (generic) {
    value += rounder;
    if (value >= 10.0) {
      value *= 0.1;
      exp++;
    }
    strip_zeros = true;
    if (exp < -4 || exp > precision) {
      exponential = true;
    } else {
      precision -= exp;
    }
  }
  int e2 = exponential ? 0 : exp;
  int significant = bang ? 26 : 16;
  auto next_digit = [&]() -> char {
    if (significant <= 0) return '0';
    --significant;
    const int digit = static_cast<int>(value);
    value = (value - digit) * 10.0;
    return static_cast<char>('0' + digit);
  };
  const bool point = precision > 0 || bang;
  if (e2 < 0) {
    out += '0';
  } else {
    for (; e2 >= 0; e2--) out += next_digit();
  }
  if (point) out += '.';
  for (e2++; e2 < 0; precision--, e2++) out += '0';
  while (precision-- > 0) out += next_digit();
  if (strip_zeros && point) {
    while (out.back() == '0') out.pop_back();
    if (out.back() == '.') {
      if (bang) {
        out += '0';
      } else {
        out.pop_back();
      }
    }
  }
  if (exponential) {
    out += 'e';
    if (exp < 0) {
      out += '-';
      exp = -exp;
    } else {
      out += '+';
    }
    if (exp >= 100) {
      out += static_cast<char>('0' + exp / 100);
      exp %= 100;
    }
    out += static_cast<char>('0' + exp / 10);
    out += static_cast<char>('0' + exp % 10);
  }
  return out;
}

std::string FormatReal3(double r) { return SqlitePrintfReal(r, 3, false, false); }

// The numeric prefix of `text` that SQLite's sqlite3AtoF would read.
std::string_view NumericPrefix(std::string_view text, bool allow_real) {
  size_t i = 0;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' ||
                             text[i] == '\r' || text[i] == '\f' || text[i] == '\v')) {
    ++i;
  }
  const size_t start = i;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  const size_t digits_start = i;
  while (i < text.size() && IsDigit(text[i])) ++i;
  bool any_digit = i > digits_start;
  if (allow_real) {
    if (i < text.size() && text[i] == '.') {
      size_t frac = i + 1;
      while (frac < text.size() && IsDigit(text[frac])) ++frac;
      if (any_digit || frac > i + 1) {
        any_digit = true;
        i = frac;
      }
    }
    if (any_digit && i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
      size_t e = i + 1;
      if (e < text.size() && (text[e] == '+' || text[e] == '-')) ++e;
      if (e < text.size() && IsDigit(text[e])) {
        while (e < text.size() && IsDigit(text[e])) ++e;
        i = e;
      }
    }
  }
  if (!any_digit) return std::string_view();
  return text.substr(start, i - start);
}

}  // namespace

std::string SqliteRealText(double value) { return SqlitePrintfReal(value, 15, true, true); }

int64_t SqliteRealToInt64(double value) {
  if (std::isnan(value)) return 0;
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  if (value <= static_cast<double>(kMin)) return kMin;
  if (value >= static_cast<double>(kMax)) return kMax;
  return static_cast<int64_t>(value);
}

int64_t SqliteTextToInt64(std::string_view text) {
  std::string_view prefix = NumericPrefix(text, false);
  if (prefix.empty()) return 0;
  bool negative = prefix[0] == '-';
  size_t i = (prefix[0] == '-' || prefix[0] == '+') ? 1 : 0;
  uint64_t v = 0;
  constexpr uint64_t kLimit = static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) + 1;
  for (; i < prefix.size(); ++i) {
    v = v * 10 + static_cast<uint64_t>(prefix[i] - '0');
    if (v > kLimit) {  // saturates, as sqlite3Atoi64 does
      return negative ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
    }
  }
  if (negative) return v == kLimit ? std::numeric_limits<int64_t>::min() : -static_cast<int64_t>(v);
  return v == kLimit ? std::numeric_limits<int64_t>::max() : static_cast<int64_t>(v);
}

double SqliteTextToDouble(std::string_view text) {
  std::string_view prefix = NumericPrefix(text, true);
  if (prefix.empty()) return 0.0;
  return std::strtod(std::string(prefix).c_str(), nullptr);
}

std::string FormatValue(const Value& value, char type) {
  if (std::holds_alternative<std::monostate>(value)) return "NULL";
  switch (type) {
    case 'I':
      if (auto* i = std::get_if<int64_t>(&value)) return std::to_string(*i);
      if (auto* r = std::get_if<double>(&value)) return std::to_string(SqliteRealToInt64(*r));
      return std::to_string(SqliteTextToInt64(std::get<std::string>(value)));
    case 'R':
      if (auto* i = std::get_if<int64_t>(&value)) return FormatReal3(static_cast<double>(*i));
      if (auto* r = std::get_if<double>(&value)) return FormatReal3(*r);
      return FormatReal3(SqliteTextToDouble(std::get<std::string>(value)));
    default: {
      std::string text;
      if (auto* i = std::get_if<int64_t>(&value)) {
        text = std::to_string(*i);
      } else if (auto* r = std::get_if<double>(&value)) {
        text = SqliteRealText(*r);
      } else {
        text = std::get<std::string>(value);
        // sqlite3_column_text stops at the first NUL byte.
        text.resize(std::min(text.size(), text.find('\0')));
      }
      if (text.empty()) return "(empty)";
      for (char& c : text) {
        if (c < ' ' || c > '~') c = '@';  // char is signed: bytes >= 0x80 too
      }
      return text;
    }
  }
}

std::vector<std::string> FormatResult(const std::vector<std::vector<Value>>& rows,
                                      std::string_view types, SortMode sort) {
  std::vector<std::string> out;
  size_t columns = rows.empty() ? types.size() : rows.front().size();
  for (const std::vector<Value>& row : rows) {
    for (size_t c = 0; c < row.size(); ++c) {
      out.push_back(FormatValue(row[c], c < types.size() ? types[c] : 'T'));
    }
  }
  SortResult(out, columns, sort);
  return out;
}

void SortResult(std::vector<std::string>& values, size_t columns, SortMode sort) {
  if (sort == SortMode::kValueSort) {
    std::sort(values.begin(), values.end());
    return;
  }
  if (sort != SortMode::kRowSort || columns == 0 || values.size() % columns != 0) return;
  const size_t n = values.size() / columns;
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  // std::string compares bytes as unsigned char, like strcmp.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    for (size_t c = 0; c < columns; ++c) {
      int cmp = values[a * columns + c].compare(values[b * columns + c]);
      if (cmp != 0) return cmp < 0;
    }
    return false;
  });
  std::vector<std::string> sorted;
  sorted.reserve(values.size());
  for (size_t r : order) {
    for (size_t c = 0; c < columns; ++c) sorted.push_back(std::move(values[r * columns + c]));
  }
  values = std::move(sorted);
}

}  // namespace engine::slt
