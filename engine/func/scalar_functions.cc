#include "engine/func/scalar_functions.h"

#include <cstring>
#include <string>

#include "engine/func/arith.h"
#include "engine/func/cast.h"
#include "engine/func/date_time.h"
#include "engine/func/like.h"
#include "engine/func/math_functions.h"
#include "engine/func/sql_printf.h"
#include "engine/func/text_format.h"
#include "engine/func/utf8.h"
#include "engine/util/ascii.h"

namespace engine::func {
namespace {

// SQLite's default SQLITE_LIMIT_LENGTH.
constexpr int64_t kMaxLength = 1000000000;

const unsigned char* Bytes(const Value& v) {
  return reinterpret_cast<const unsigned char*>(v.data());
}

// sqlite3_value_int: the 64-bit value truncated to 32 bits.
int32_t Int32Value(const Value& v) { return static_cast<int32_t>(IntValue(v)); }

Status TooBig() { return Status::SqlError("string or blob too big"); }

Value ArenaText(ValueArena& arena, const std::string& s) { return arena.CopyText(s); }

Status Abs(const Value* a, int, ValueArena&, Value* out) {
  switch (a[0].type()) {
    case ValueType::kInteger: {
      int64_t i = a[0].as_int();
      if (i < 0) {
        if (i == INT64_MIN) return Status::SqlError("integer overflow");
        i = -i;
      }
      *out = Value::Integer(i);
      return Status::OK();
    }
    case ValueType::kNull:
      *out = Value::Null();
      return Status::OK();
    default: {
      double r = RealValue(a[0]);
      if (r < 0) r = -r;
      *out = Value::Real(r);
      return Status::OK();
    }
  }
}

Status Coalesce(const Value* a, int n, ValueArena&, Value* out) {
  *out = Value::Null();
  for (int i = 0; i < n; i++) {
    if (!a[i].is_null()) {
      *out = a[i];
      break;
    }
  }
  return Status::OK();
}

Status NullIfCollated(const Value* a, int, Collation coll, ValueArena&, Value* out) {
  *out = CompareCollated(a[0], a[1], coll) != 0 ? a[0] : Value::Null();
  return Status::OK();
}

Status NullIf(const Value* a, int n, ValueArena& arena, Value* out) {
  return NullIfCollated(a, n, Collation::kBinary, arena, out);
}

Status Iif(const Value* a, int, ValueArena&, Value* out) {
  *out = TruthValue(a[0]) == 1 ? a[1] : a[2];
  return Status::OK();
}

Status Identity(const Value* a, int, ValueArena&, Value* out) {
  *out = a[0];
  return Status::OK();
}

Status Likelihood(const Value* a, int, ValueArena&, Value* out) {
  const Value& p = a[1];
  const double r = p.type() == ValueType::kReal ? p.as_real() : -1.0;
  if (p.type() != ValueType::kReal || r < 0.0 || r > 1.0) {
    return Status::SqlError(
        "second argument to likelihood() must be a constant between 0.0 and 1.0");
  }
  *out = a[0];
  return Status::OK();
}

Status Length(const Value* a, int, ValueArena& arena, Value* out) {
  switch (a[0].type()) {
    case ValueType::kNull:
      *out = Value::Null();
      break;
    case ValueType::kText: {
      *out = Value::Integer(static_cast<int64_t>(Utf8TextLength(Bytes(a[0]), a[0].size())));
      break;
    }
    default:
      *out = Value::Integer(ValueToText(a[0], arena).size());
      break;
  }
  return Status::OK();
}

template <bool kUpper>
Status ChangeCase(const Value* a, int, ValueArena& arena, Value* out) {
  const Value t = ValueToText(a[0], arena);
  if (t.is_null()) {
    *out = t;
    return Status::OK();
  }
  char* p = arena.Allocate(t.size());
  for (uint32_t i = 0; i < t.size(); i++) {
    char c = t.data()[i];
    if (kUpper && c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
    if (!kUpper && c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
    p[i] = c;
  }
  *out = Value::Text(p, t.size());
  return Status::OK();
}

Status Substr(const Value* a, int n, ValueArena& arena, Value* out) {
  *out = Value::Null();
  if (a[1].is_null() || (n == 3 && a[2].is_null()) || a[0].is_null()) return Status::OK();
  int64_t p1 = Int32Value(a[1]);
  int64_t p2;
  bool neg_p2 = false;
  const bool blob = a[0].type() == ValueType::kBlob;
  // sqlite3_value_blob() of an empty blob is a null pointer: the result is NULL.
  if (blob && a[0].size() == 0) return Status::OK();
  const Value t = blob ? a[0] : ValueToText(a[0], arena);
  const unsigned char* z = Bytes(t);
  const unsigned char* end = z + (blob ? t.size() : CStringLength(t.data(), t.size()));
  int64_t len = 0;
  if (blob) {
    len = t.size();
  } else if (p1 < 0) {
    len = static_cast<int64_t>(Utf8Length(z, end));
  }
  if (n == 3) {
    p2 = Int32Value(a[2]);
    if (p2 < 0) {
      p2 = -p2;
      neg_p2 = true;
    }
  } else {
    p2 = kMaxLength;
  }
  if (p1 < 0) {
    p1 += len;
    if (p1 < 0) {
      p2 += p1;
      if (p2 < 0) p2 = 0;
      p1 = 0;
    }
  } else if (p1 > 0) {
    p1--;
  } else if (p2 > 0) {
    p2--;
  }
  if (neg_p2) {
    p1 -= p2;
    if (p1 < 0) {
      p2 += p1;
      p1 = 0;
    }
  }
  if (!blob) {
    while (z < end && p1) {
      z = Utf8Skip(z, end);
      p1--;
    }
    const unsigned char* z2 = z;
    for (; z2 < end && p2; p2--) z2 = Utf8Skip(z2, end);
    *out = Value::Text(reinterpret_cast<const char*>(z), static_cast<size_t>(z2 - z));
  } else {
    if (p1 + p2 > len) {
      p2 = len - p1;
      if (p2 < 0) p2 = 0;
    }
    if (p1 > len) p1 = len;
    *out = Value::Blob(z + p1, static_cast<size_t>(p2));
  }
  return Status::OK();
}

// flags: 1 trims the left, 2 the right.
template <int kFlags>
Status Trim(const Value* a, int n, ValueArena& arena, Value* out) {
  *out = Value::Null();
  if (a[0].is_null()) return Status::OK();
  const Value t = ValueToText(a[0], arena);
  const unsigned char* in = Bytes(t);
  size_t n_in = t.size();
  std::string_view set = " ";
  if (n == 2) {
    if (a[1].is_null()) return Status::OK();
    const Value s = ValueToText(a[1], arena);
    set = std::string_view(s.data(), CStringLength(s.data(), s.size()));
  }
  // The characters of the set, as byte ranges.
  const auto* sp = reinterpret_cast<const unsigned char*>(set.data());
  const auto* send = sp + set.size();
  auto matches_at = [&](const unsigned char* pos, size_t avail, bool from_end, size_t* len) {
    for (const unsigned char* c = sp; c < send;) {
      const unsigned char* next = Utf8Skip(c, send);
      const size_t l = static_cast<size_t>(next - c);
      const unsigned char* at = from_end ? pos - l : pos;
      if (l <= avail && std::memcmp(at, c, l) == 0) {
        *len = l;
        return true;
      }
      c = next;
    }
    return false;
  };
  if (sp < send) {
    size_t l = 0;
    if (kFlags & 1) {
      while (n_in > 0 && matches_at(in, n_in, false, &l)) {
        in += l;
        n_in -= l;
      }
    }
    if (kFlags & 2) {
      while (n_in > 0 && matches_at(in + n_in, n_in, true, &l)) n_in -= l;
    }
  }
  *out = Value::Text(reinterpret_cast<const char*>(in), n_in);
  return Status::OK();
}

Status Replace(const Value* a, int, ValueArena& arena, Value* out) {
  *out = Value::Null();
  const Value str = ValueToText(a[0], arena);
  if (str.is_null()) return Status::OK();
  const Value pat = ValueToText(a[1], arena);
  if (pat.is_null()) return Status::OK();
  if (pat.size() == 0 || pat.data()[0] == '\0') {
    // SQLite hands back its first argument after reading it as text: a
    // number stays a number, a blob comes back as text.
    *out = a[0].type() == ValueType::kBlob ? str : a[0];
    return Status::OK();
  }
  const Value rep = ValueToText(a[2], arena);
  if (rep.is_null()) return Status::OK();
  const std::string_view s = str.as_text();
  const std::string_view p = pat.as_text();
  const std::string_view r = rep.as_text();
  std::string result;
  size_t i = 0;
  if (s.size() >= p.size()) {
    const size_t limit = s.size() - p.size();
    for (; i <= limit; i++) {
      if (s[i] != p[0] || s.compare(i, p.size(), p) != 0) {
        result.push_back(s[i]);
      } else {
        result.append(r);
        i += p.size() - 1;
      }
    }
  }
  result.append(s.substr(i));
  if (static_cast<int64_t>(result.size()) > kMaxLength) return TooBig();
  *out = ArenaText(arena, result);
  return Status::OK();
}

Status Instr(const Value* a, int, ValueArena& arena, Value* out) {
  *out = Value::Null();
  if (a[0].is_null() || a[1].is_null()) return Status::OK();
  const bool both_blobs = a[0].type() == ValueType::kBlob && a[1].type() == ValueType::kBlob;
  const Value h = both_blobs ? a[0] : ValueToText(a[0], arena);
  const Value nd = both_blobs ? a[1] : ValueToText(a[1], arena);
  const bool is_text = !both_blobs;
  const unsigned char* hay = Bytes(h);
  int64_t n_hay = h.size();
  const int64_t n_needle = nd.size();
  int64_t pos = 1;
  if (n_needle > 0) {
    const unsigned char* needle = Bytes(nd);
    while (n_needle <= n_hay &&
           (hay[0] != needle[0] || std::memcmp(hay, needle, static_cast<size_t>(n_needle)) != 0)) {
      pos++;
      do {
        n_hay--;
        hay++;
      } while (is_text && n_hay > 0 && (hay[0] & 0xc0) == 0x80);
    }
    if (n_needle > n_hay) pos = 0;
  }
  *out = Value::Integer(pos);
  return Status::OK();
}

Status Hex(const Value* a, int, ValueArena& arena, Value* out) {
  static const char kHex[] = "0123456789ABCDEF";
  const Value b = a[0].type() == ValueType::kBlob ? a[0] : ValueToText(a[0], arena);
  const size_t n = b.is_null() ? 0 : b.size();
  char* p = arena.Allocate(n * 2);
  for (size_t i = 0; i < n; i++) {
    const auto c = static_cast<unsigned char>(b.data()[i]);
    p[2 * i] = kHex[c >> 4];
    p[2 * i + 1] = kHex[c & 0xf];
  }
  *out = Value::Text(p, n * 2);
  return Status::OK();
}

Status TypeOf(const Value* a, int, ValueArena&, Value* out) {
  static constexpr std::string_view kNames[] = {"null", "integer", "real", "text", "blob"};
  *out = Value::Text(kNames[static_cast<int>(a[0].type())]);
  return Status::OK();
}

Status Round(const Value* a, int n, ValueArena&, Value* out) {
  int digits = 0;
  *out = Value::Null();
  if (n == 2) {
    if (a[1].is_null()) return Status::OK();
    digits = Int32Value(a[1]);
    if (digits > 30) digits = 30;
    if (digits < 0) digits = 0;
  }
  if (a[0].is_null()) return Status::OK();
  double r = RealValue(a[0]);
  if (r < -4503599627370496.0 || r > +4503599627370496.0) {
    // No fractional part: nothing to round.
  } else if (digits == 0) {
    r = static_cast<double>(static_cast<int64_t>(r + (r < 0 ? -0.5 : +0.5)));
  } else {
    std::string buf;
    FloatFormat f;
    f.conversion = 'f';
    f.precision = digits;
    AppendFloat(r, f, &buf);
    (void)AtoF(buf, &r);
  }
  *out = Value::Real(r);
  return Status::OK();
}

template <bool kMax>
Status MinMaxCollated(const Value* a, int n, Collation coll, ValueArena&, Value* out) {
  *out = Value::Null();
  int best = 0;
  if (a[0].is_null()) return Status::OK();
  for (int i = 1; i < n; i++) {
    if (a[i].is_null()) return Status::OK();
    const int c = CompareCollated(a[best], a[i], coll);
    if (kMax ? c < 0 : c >= 0) best = i;
  }
  *out = a[best];
  return Status::OK();
}

template <bool kMax>
Status MinMax(const Value* a, int n, ValueArena& arena, Value* out) {
  return MinMaxCollated<kMax>(a, n, Collation::kBinary, arena, out);
}

void AppendQuotedText(std::string_view s, std::string* out) {
  out->push_back('\'');
  for (char c : s) {
    out->push_back(c);
    if (c == '\'') out->push_back('\'');
  }
  out->push_back('\'');
}

Status Quote(const Value* a, int, ValueArena& arena, Value* out) {
  std::string s;
  switch (a[0].type()) {
    case ValueType::kNull:
      s = "NULL";
      break;
    case ValueType::kInteger:
      s = IntegerToText(a[0].as_int());
      break;
    case ValueType::kReal: {
      const double r1 = a[0].as_real();
      s = RealToText(r1);
      double r2;
      // The 15-digit rendering unless it does not read back as the same value.
      (void)AtoF(s, &r2);
      if (r1 != r2) {
        s.clear();
        FloatFormat f;
        f.conversion = 'e';
        f.precision = 20;
        f.alt_form2 = true;
        AppendFloat(r1, f, &s);
      }
      break;
    }
    case ValueType::kText:
      AppendQuotedText(a[0].as_text().substr(0, CStringLength(a[0].data(), a[0].size())), &s);
      break;
    case ValueType::kBlob: {
      static const char kHex[] = "0123456789ABCDEF";
      s = "X'";
      for (char ch : a[0].as_text()) {
        const auto c = static_cast<unsigned char>(ch);
        s.push_back(kHex[c >> 4]);
        s.push_back(kHex[c & 0xf]);
      }
      s.push_back('\'');
      break;
    }
  }
  *out = ArenaText(arena, s);
  return Status::OK();
}

Status Char(const Value* a, int n, ValueArena& arena, Value* out) {
  std::string s;
  for (int i = 0; i < n; i++) {
    uint64_t x = static_cast<uint64_t>(IntValue(a[i]));
    if (x > 0x10ffff) x = 0xfffd;
    Utf8Append(static_cast<uint32_t>(x & 0x1fffff), &s);
  }
  *out = ArenaText(arena, s);
  return Status::OK();
}

Status Unicode(const Value* a, int, ValueArena& arena, Value* out) {
  *out = Value::Null();
  const Value t = ValueToText(a[0], arena);
  if (t.is_null() || t.size() == 0 || t.data()[0] == '\0') return Status::OK();
  const unsigned char* p = Bytes(t);
  *out = Value::Integer(Utf8Read(&p, p + CStringLength(t.data(), t.size())));
  return Status::OK();
}

Status Printf(const Value* a, int n, ValueArena& arena, Value* out) {
  *out = Value::Null();
  if (n < 1) return Status::OK();
  const Value fmt = ValueToText(a[0], arena);
  if (fmt.is_null()) return Status::OK();
  // Reused across calls so that steady-state formatting does not allocate.
  thread_local std::string buf;
  buf.clear();
  if (!SqlPrintf(fmt.as_text(), a + 1, n - 1, &buf)) return Status::OK();
  if (static_cast<int64_t>(buf.size()) > kMaxLength) return TooBig();
  *out = arena.CopyText(buf);
  return Status::OK();
}

Status ZeroBlob(const Value* a, int, ValueArena& arena, Value* out) {
  int64_t n = IntValue(a[0]);
  if (n < 0) n = 0;
  if (n > kMaxLength) return TooBig();
  char* p = arena.Allocate(static_cast<size_t>(n));
  if (n > 0) std::memset(p, 0, static_cast<size_t>(n));
  *out = Value::Blob(p, static_cast<size_t>(n));
  return Status::OK();
}

Status LikeFunction(const Value* a, int n, ValueArena& arena, Value* out) {
  // like(PATTERN, STRING [, ESCAPE]) is STRING LIKE PATTERN.
  ENGINE_ASSIGN_OR_RETURN(*out, Like(a[1], a[0], n == 3 ? &a[2] : nullptr, arena));
  return Status::OK();
}

Status GlobFunction(const Value* a, int, ValueArena& arena, Value* out) {
  ENGINE_ASSIGN_OR_RETURN(*out, Glob(a[1], a[0], arena));
  return Status::OK();
}

Status Soundex(const Value* a, int, ValueArena& arena, Value* out) {
  static const unsigned char kCode[] = {
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 0, 1, 2, 0, 0, 2, 2, 4, 5,
      5, 0, 1, 2, 6, 2, 3, 0, 1, 0, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 0, 1, 2,
      0, 0, 2, 2, 4, 5, 5, 0, 1, 2, 6, 2, 3, 0, 1, 0, 2, 0, 2, 0, 0, 0, 0, 0,
  };
  const Value t = ValueToText(a[0], arena);
  const std::string_view z =
      t.is_null() ? std::string_view() : t.as_text().substr(0, CStringLength(t.data(), t.size()));
  auto is_alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  size_t i = 0;
  while (i < z.size() && !is_alpha(z[i])) i++;
  if (i >= z.size()) {
    *out = Value::Text("?000");
    return Status::OK();
  }
  char result[4];
  unsigned char prev = kCode[z[i] & 0x7f];
  result[0] = (z[i] >= 'a' && z[i] <= 'z') ? static_cast<char>(z[i] - 32) : z[i];
  int j = 1;
  for (; j < 4 && i < z.size(); i++) {
    const unsigned char code = kCode[z[i] & 0x7f];
    if (code > 0) {
      if (code != prev) {
        prev = code;
        result[j++] = static_cast<char>(code + '0');
      }
    } else {
      prev = 0;
    }
  }
  while (j < 4) result[j++] = '0';
  *out = arena.CopyText(std::string_view(result, 4));
  return Status::OK();
}

constexpr ScalarFunction kFunctions[] = {
    {"abs", 1, 1, Abs},
    {"acos", 1, 1, math::Acos},
    {"acosh", 1, 1, math::Acosh},
    {"asin", 1, 1, math::Asin},
    {"asinh", 1, 1, math::Asinh},
    {"atan", 1, 1, math::Atan},
    {"atan2", 2, 2, math::Atan2},
    {"atanh", 1, 1, math::Atanh},
    {"ceil", 1, 1, math::Ceil},
    {"ceiling", 1, 1, math::Ceil},
    {"char", 0, -1, Char},
    {"coalesce", 2, -1, Coalesce},
    {"cos", 1, 1, math::Cos},
    {"cosh", 1, 1, math::Cosh},
    {"current_date", 0, 0, CurrentDateFunction},
    {"current_time", 0, 0, CurrentTimeFunction},
    {"current_timestamp", 0, 0, CurrentTimestampFunction},
    {"date", 0, -1, DateFunction},
    {"datetime", 0, -1, DateTimeFunction},
    {"degrees", 1, 1, math::Degrees},
    {"exp", 1, 1, math::Exp},
    {"floor", 1, 1, math::Floor},
    {"format", 0, -1, Printf},
    {"glob", 2, 2, GlobFunction},
    {"hex", 1, 1, Hex},
    {"ifnull", 2, 2, Coalesce},
    {"iif", 3, 3, Iif},
    {"instr", 2, 2, Instr},
    {"julianday", 0, -1, JulianDayFunction},
    {"length", 1, 1, Length},
    {"like", 2, 3, LikeFunction},
    {"likelihood", 2, 2, Likelihood},
    {"likely", 1, 1, Identity},
    {"ln", 1, 1, math::Ln},
    {"log", 1, 2, math::Log},
    {"log10", 1, 1, math::Log},
    {"log2", 1, 1, math::Log2},
    {"lower", 1, 1, ChangeCase<false>},
    {"ltrim", 1, 2, Trim<1>},
    {"max", 2, -1, MinMax<true>, MinMaxCollated<true>},
    {"min", 2, -1, MinMax<false>, MinMaxCollated<false>},
    {"mod", 2, 2, math::Mod},
    {"nullif", 2, 2, NullIf, NullIfCollated},
    {"pi", 0, 0, math::Pi},
    {"pow", 2, 2, math::Pow},
    {"power", 2, 2, math::Pow},
    {"printf", 0, -1, Printf},
    {"quote", 1, 1, Quote},
    {"radians", 1, 1, math::Radians},
    {"replace", 3, 3, Replace},
    {"round", 1, 2, Round},
    {"rtrim", 1, 2, Trim<2>},
    {"sign", 1, 1, math::Sign},
    {"sin", 1, 1, math::Sin},
    {"sinh", 1, 1, math::Sinh},
    {"soundex", 1, 1, Soundex},
    {"sqrt", 1, 1, math::Sqrt},
    {"strftime", 0, -1, StrftimeFunction},
    {"substr", 2, 3, Substr},
    {"substring", 2, 3, Substr},
    {"tan", 1, 1, math::Tan},
    {"tanh", 1, 1, math::Tanh},
    {"time", 0, -1, TimeFunction},
    {"trim", 1, 2, Trim<3>},
    {"trunc", 1, 1, math::Trunc},
    {"typeof", 1, 1, TypeOf},
    {"unicode", 1, 1, Unicode},
    {"unixepoch", 0, -1, UnixEpochFunction},
    {"unlikely", 1, 1, Identity},
    {"upper", 1, 1, ChangeCase<true>},
    {"zeroblob", 1, 1, ZeroBlob},
};

bool IsAggregateName(std::string_view name) {
  for (std::string_view agg : {"count", "sum", "total", "avg", "group_concat", "min", "max"}) {
    if (EqualsNoCaseAscii(name, agg)) return true;
  }
  return false;
}

}  // namespace

const ScalarFunction* FindScalarFunction(std::string_view name, int n) {
  for (const ScalarFunction& f : kFunctions) {
    if (EqualsNoCaseAscii(name, f.name) && n >= f.min_args && (f.max_args < 0 || n <= f.max_args)) {
      return &f;
    }
  }
  return nullptr;
}

Status LookupScalarFunction(std::string_view name, int n, const ScalarFunction** out) {
  *out = FindScalarFunction(name, n);
  if (*out != nullptr) return Status::OK();
  bool known = IsAggregateName(name);
  for (const ScalarFunction& f : kFunctions) known = known || EqualsNoCaseAscii(name, f.name);
  if (known) {
    return Status::SqlError("wrong number of arguments to function " + std::string(name) + "()");
  }
  return Status::SqlError("no such function: " + std::string(name));
}

const ScalarFunction* ScalarFunctionsBegin() { return std::begin(kFunctions); }
const ScalarFunction* ScalarFunctionsEnd() { return std::end(kFunctions); }

}  // namespace engine::func
