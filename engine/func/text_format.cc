#include "engine/func/text_format.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <vector>

namespace engine::func {
namespace {

constexpr int64_t kLargestInt64 = INT64_MAX;
constexpr int64_t kSmallestInt64 = INT64_MIN;

// SQLite caps no precision itself; this bound only keeps a hostile
// printf('%.999999999f', ...) from asking for gigabytes.
constexpr int kMaxPrecision = 100000;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

char NextDigit(long double* val, int* count) {
  if (*count <= 0) return '0';
  --*count;
  int digit = static_cast<int>(*val);
  long double d = digit;
  *val = (*val - d) * 10.0L;
  return static_cast<char>('0' + digit);
}

// The float branch of SQLite's sqlite3_str_vappendf (printf.c), long double
// arithmetic included: its rounding is what SQLite's output shows.
size_t FormatFloatCore(double value, const FloatFormat& f, char* out) {
  static const double kRound[] = {5.0e-01, 5.0e-02, 5.0e-03, 5.0e-04, 5.0e-05,
                                  5.0e-06, 5.0e-07, 5.0e-08, 5.0e-09, 5.0e-10};
  enum Kind { kFloat, kExp, kGeneric };
  Kind xtype = kGeneric;
  if (f.conversion == 'f') xtype = kFloat;
  if (f.conversion == 'e' || f.conversion == 'E') xtype = kExp;
  const char exp_char = (f.conversion == 'E' || f.conversion == 'G') ? 'E' : 'e';
  int precision = f.precision < 0 ? 6 : f.precision;
  if (precision > kMaxPrecision) precision = kMaxPrecision;
  long double realvalue = value;
  char prefix;
  if (realvalue < 0.0L) {
    realvalue = -realvalue;
    prefix = '-';
  } else {
    prefix = f.sign;
  }
  if (xtype == kGeneric && precision > 0) precision--;
  int idx = precision & 0xfff;
  double rounder = kRound[idx % 10];
  while (idx >= 10) {
    rounder *= 1.0e-10;
    idx -= 10;
  }
  if (xtype == kFloat) {
    const double rx = static_cast<double>(realvalue);
    uint64_t u;
    std::memcpy(&u, &rx, sizeof(u));
    const int ex = -1023 + static_cast<int>((u >> 52) & 0x7ff);
    if (precision + (ex / 3) < 15) rounder = static_cast<double>(rounder + realvalue * 3e-16);
    realvalue += rounder;
  }
  int exp = 0;
  char* p = out;
  if (std::isnan(static_cast<double>(realvalue))) {
    std::memcpy(out, "NaN", 3);
    return 3;
  }
  if (realvalue > 0.0L) {
    long double scale = 1.0L;
    // Double constants, as in SQLite's printf.c: 1e100 as a double is not
    // 1e100L, and the digits SQLite prints come from the former.
    while (realvalue >= 1e100 * scale && exp <= 350) {
      scale *= 1e100;
      exp += 100;
    }
    while (realvalue >= 1e10 * scale && exp <= 350) {
      scale *= 1e10;
      exp += 10;
    }
    while (realvalue >= 10.0L * scale && exp <= 350) {
      scale *= 10.0L;
      exp++;
    }
    realvalue /= scale;
    while (realvalue < 1e-8L) {
      realvalue *= 1e8L;
      exp -= 8;
    }
    while (realvalue < 1.0L) {
      realvalue *= 10.0L;
      exp--;
    }
    if (exp > 350) {
      if (prefix) *p++ = prefix;
      std::memcpy(p, "Inf", 3);
      return static_cast<size_t>(p - out) + 3;
    }
  }
  if (xtype != kFloat) {
    realvalue += rounder;
    if (realvalue >= 10.0L) {
      realvalue *= 0.1L;
      exp++;
    }
  }
  bool flag_rtz;
  if (xtype == kGeneric) {
    flag_rtz = !f.alt_form;
    if (exp < -4 || exp > precision) {
      xtype = kExp;
    } else {
      precision = precision - exp;
      xtype = kFloat;
    }
  } else {
    flag_rtz = f.alt_form2;
  }
  int e2 = xtype == kExp ? 0 : exp;
  int nsd = 16 + (f.alt_form2 ? 10 : 0);
  const bool flag_dp = precision > 0 || f.alt_form || f.alt_form2;
  if (prefix) *p++ = prefix;
  char* const digits_start = p;
  if (e2 < 0) {
    *p++ = '0';
  } else {
    for (; e2 >= 0; e2--) *p++ = NextDigit(&realvalue, &nsd);
  }
  if (flag_dp) *p++ = '.';
  for (e2++; e2 < 0; precision--, e2++) *p++ = '0';
  while ((precision--) > 0) *p++ = NextDigit(&realvalue, &nsd);
  if (flag_rtz && flag_dp) {
    while (p > digits_start && p[-1] == '0') --p;
    if (p[-1] == '.') {
      if (f.alt_form2) {
        *p++ = '0';
      } else {
        --p;
      }
    }
  }
  if (xtype == kExp) {
    *p++ = exp_char;
    if (exp < 0) {
      *p++ = '-';
      exp = -exp;
    } else {
      *p++ = '+';
    }
    if (exp >= 100) {
      *p++ = static_cast<char>(exp / 100 + '0');
      exp %= 100;
    }
    *p++ = static_cast<char>(exp / 10 + '0');
    *p++ = static_cast<char>(exp % 10 + '0');
  }
  return static_cast<size_t>(p - out);
}

// Upper bound of FormatFloatCore's output for this format.
size_t FloatBufferSize(const FloatFormat& f) {
  const int precision =
      f.precision < 0 ? 6 : (f.precision > kMaxPrecision ? kMaxPrecision : f.precision);
  return static_cast<size_t>(precision) + 400;
}

int Compare2Pow63(const char* z) {
  static const char kPow63[] = "922337203685477580";
  int c = 0;
  for (int i = 0; c == 0 && i < 18; i++) c = (z[i] - kPow63[i]) * 10;
  if (c == 0) c = z[18] - '8';
  return c;
}

}  // namespace

size_t FormatReal(double r, char* buf) {
  FloatFormat f;
  f.conversion = 'g';
  f.precision = 15;
  f.alt_form2 = true;
  return FormatFloatCore(r, f, buf);
}

size_t FormatInteger(int64_t i, char* buf) {
  auto res = std::to_chars(buf, buf + kNumberTextMax, i);
  return static_cast<size_t>(res.ptr - buf);
}

std::string RealToText(double r) {
  char buf[kNumberTextMax];
  return std::string(buf, FormatReal(r, buf));
}

std::string IntegerToText(int64_t i) {
  char buf[kNumberTextMax];
  return std::string(buf, FormatInteger(i, buf));
}

void AppendFloat(double v, const FloatFormat& format, std::string* out) {
  const size_t old = out->size();
  out->resize(old + FloatBufferSize(format));
  const size_t n = FormatFloatCore(v, format, out->data() + old);
  out->resize(old + n);
}

int AtoF(std::string_view str, double* out) {
  const char* z = str.data();
  const char* const end = z + str.size();
  int sign = 1;
  int64_t s = 0;
  int d = 0;
  int esign = 1;
  int e = 0;
  bool e_valid = true;
  double result;
  int n_digit = 0;
  int e_type = 1;

  *out = 0.0;
  if (str.empty()) return 0;
  while (z < end && IsSqlSpace(static_cast<unsigned char>(*z))) z++;
  if (z >= end) return 0;
  if (*z == '-') {
    sign = -1;
    z++;
  } else if (*z == '+') {
    z++;
  }
  while (z < end && IsDigit(*z)) {
    s = s * 10 + (*z - '0');
    z++;
    n_digit++;
    if (s >= ((kLargestInt64 - 9) / 10)) {
      // The remaining integer digits only move the decimal point.
      while (z < end && IsDigit(*z)) {
        z++;
        d++;
      }
    }
  }
  if (z >= end) goto do_atof_calc;
  if (*z == '.') {
    z++;
    e_type++;
    while (z < end && IsDigit(*z)) {
      if (s < ((kLargestInt64 - 9) / 10)) {
        s = s * 10 + (*z - '0');
        d--;
        n_digit++;
      }
      z++;
    }
  }
  if (z >= end) goto do_atof_calc;
  if (*z == 'e' || *z == 'E') {
    z++;
    e_valid = false;
    e_type++;
    if (z >= end) goto do_atof_calc;
    if (*z == '-') {
      esign = -1;
      z++;
    } else if (*z == '+') {
      z++;
    }
    while (z < end && IsDigit(*z)) {
      e = e < 10000 ? (e * 10 + (*z - '0')) : 10000;
      z++;
      e_valid = true;
    }
  }
  while (z < end && IsSqlSpace(static_cast<unsigned char>(*z))) z++;

do_atof_calc:
  e = (e * esign) + d;
  if (e < 0) {
    esign = -1;
    e *= -1;
  } else {
    esign = 1;
  }
  if (s == 0) {
    result = sign < 0 ? -0.0 : 0.0;
  } else {
    while (e > 0) {
      if (esign > 0) {
        if (s >= (kLargestInt64 / 10)) break;
        s *= 10;
      } else {
        if (s % 10 != 0) break;
        s /= 10;
      }
      e--;
    }
    s = sign < 0 ? -s : s;
    if (e == 0) {
      result = static_cast<double>(s);
    } else {
      long double scale = 1.0L;
      if (e > 307) {
        if (e < 342) {
          while (e % 308) {
            scale *= 1.0e+1L;
            e -= 1;
          }
          if (esign < 0) {
            result = static_cast<double>(s / scale);
            result /= 1.0e+308;
          } else {
            result = static_cast<double>(s * scale);
            result *= 1.0e+308;
          }
        } else {
          if (esign < 0) {
            result = 0.0 * static_cast<double>(s);
          } else {
            result = HUGE_VAL * static_cast<double>(s);
          }
        }
      } else {
        while (e % 22) {
          scale *= 1.0e+1L;
          e -= 1;
        }
        while (e > 0) {
          scale *= 1.0e+22L;
          e -= 22;
        }
        if (esign < 0) {
          result = static_cast<double>(s / scale);
        } else {
          result = static_cast<double>(s * scale);
        }
      }
    }
  }
  *out = result;
  if (z == end && n_digit > 0 && e_valid && e_type > 0) return e_type;
  if (e_type >= 2 && (e_type == 3 || e_valid) && n_digit > 0) return -1;
  return 0;
}

int Atoi64(std::string_view str, int64_t* out) {
  const char* z = str.data();
  const char* const end = z + str.size();
  uint64_t u = 0;
  bool neg = false;
  while (z < end && IsSqlSpace(static_cast<unsigned char>(*z))) z++;
  if (z < end) {
    if (*z == '-') {
      neg = true;
      z++;
    } else if (*z == '+') {
      z++;
    }
  }
  const char* const start = z;
  while (z < end && *z == '0') z++;
  ptrdiff_t i = 0;
  for (; z + i < end && IsDigit(z[i]); i++) u = u * 10 + static_cast<uint64_t>(z[i] - '0');
  if (u > static_cast<uint64_t>(kLargestInt64)) {
    *out = neg ? kSmallestInt64 : kLargestInt64;
  } else if (neg) {
    *out = -static_cast<int64_t>(u);
  } else {
    *out = static_cast<int64_t>(u);
  }
  int rc = 0;
  if (i == 0 && start == z) {
    rc = -1;
  } else if (z + i < end) {
    for (const char* q = z + i; q < end; q++) {
      if (!IsSqlSpace(static_cast<unsigned char>(*q))) {
        rc = 1;
        break;
      }
    }
  }
  if (i < 19) return rc;
  const int c = i > 19 ? 1 : Compare2Pow63(z);
  if (c < 0) return rc;
  *out = neg ? kSmallestInt64 : kLargestInt64;
  if (c > 0) return 2;
  return neg ? rc : 3;
}

Value ValueToText(const Value& v, ValueArena& arena) {
  char buf[kNumberTextMax];
  switch (v.type()) {
    case ValueType::kNull:
      return v;
    case ValueType::kInteger:
      return arena.CopyText({buf, FormatInteger(v.as_int(), buf)});
    case ValueType::kReal:
      return arena.CopyText({buf, FormatReal(v.as_real(), buf)});
    case ValueType::kText:
      return v;
    case ValueType::kBlob:
      return Value::Text(v.data(), v.size());
  }
  return v;
}

void AppendShellValue(const Value& v, std::string* out) {
  char buf[kNumberTextMax];
  switch (v.type()) {
    case ValueType::kNull:
      return;
    case ValueType::kInteger:
      out->append(buf, FormatInteger(v.as_int(), buf));
      return;
    case ValueType::kReal:
      out->append(buf, FormatReal(v.as_real(), buf));
      return;
    case ValueType::kText:
    case ValueType::kBlob: {
      const std::string_view s = v.as_text();
      out->append(s.substr(0, s.find('\0')));
      return;
    }
  }
}

}  // namespace engine::func
