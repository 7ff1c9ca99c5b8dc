#include "engine/func/date_time.h"

#include <chrono>
#include <string>

#include "engine/func/date_time_value.h"
#include "engine/func/text_format.h"

namespace engine::func {
namespace {

using datetime::DateTime;

// SQLite's default SQLITE_LIMIT_LENGTH.
constexpr size_t kMaxLength = 1000000000;

// The bytes of a TEXT/BLOB argument up to its first NUL, as SQLite's
// functions see sqlite3_value_text; numbers rendered as text.
std::string ArgText(const Value& v, ValueArena& arena) {
  const Value t = ValueToText(v, arena);
  std::string s(t.data(), t.size());
  const size_t nul = s.find('\0');
  if (nul != std::string::npos) s.resize(nul);
  return s;
}

// sqlite3NotPureFunc: where a result must not depend on the clock or the
// time zone (a CHECK constraint), 'now' and 'localtime'/'utc' are an error.
bool Impure(const char* name, Status* error) {
  if (internal::pure_context == nullptr) return false;
  *error = Status::SqlError(std::string("non-deterministic use of ") + name + "() in " +
                            internal::pure_context);
  return true;
}

// The time value args[0] and the modifiers args[1..n) into *p; no
// arguments at all is 'now'. false: the result is NULL (or *error is set).
// `name`: the SQL function's, for errors.
bool EvalDateTime(const char* name, const Value* args, int n, ValueArena& arena, DateTime* p,
                  Status* error) {
  *p = DateTime{};
  if (n == 0) {
    if (Impure(name, error)) return false;
    p->jd = StatementTimeMs();
    p->valid_jd = p->jd > 0;
    if (!p->valid_jd) return false;
  } else if (args[0].type() == ValueType::kInteger || args[0].type() == ValueType::kReal) {
    datetime::SetRawNumber(p, args[0].type() == ValueType::kInteger
                                  ? static_cast<double>(args[0].as_int())
                                  : args[0].as_real());
  } else {
    if (args[0].is_null()) return false;
    const std::string text = ArgText(args[0], arena);
    if (!datetime::ParseTimeValue(text.c_str(), StatementTimeMs, p)) return false;
    if (datetime::EqualsNoCase(text.c_str(), "now") && Impure(name, error)) return false;
  }
  for (int i = 1; i < n; i++) {
    if (args[i].is_null()) return false;
    const std::string text = ArgText(args[i], arena);
    if ((datetime::EqualsNoCase(text.c_str(), "localtime") ||
         datetime::EqualsNoCase(text.c_str(), "utc")) &&
        Impure(name, error)) {
      return false;
    }
    if (!datetime::ApplyModifier(text.c_str(), i, p, error)) return false;
  }
  datetime::ComputeJulian(p);
  return !p->error && datetime::ValidJulianMs(p->jd);
}

// printf's %0<width>d: the sign counts in the width.
void AppendPadded(int v, int width, std::string* out) {
  if (v < 0) {
    out->push_back('-');
    v = -v;
    width--;
  }
  const std::string digits = std::to_string(v);
  for (int i = static_cast<int>(digits.size()); i < width; i++) out->push_back('0');
  out->append(digits);
}

// date()'s year: a sign, then always four digits.
void AppendYear(int y, std::string* out) {
  if (y < 0) out->push_back('-');
  AppendPadded(y < 0 ? -y : y, 4, out);
}

void AppendDate(const DateTime& x, std::string* out) {
  AppendYear(x.year, out);
  out->push_back('-');
  AppendPadded(x.month, 2, out);
  out->push_back('-');
  AppendPadded(x.day, 2, out);
}

void AppendTime(const DateTime& x, std::string* out) {
  AppendPadded(x.hour, 2, out);
  out->push_back(':');
  AppendPadded(x.minute, 2, out);
  out->push_back(':');
  AppendPadded(static_cast<int>(x.second), 2, out);
}

template <bool kDate, bool kTime>
Status Format(const Value* args, int n, ValueArena& arena, Value* out) {
  DateTime x;
  Status error;
  *out = Value::Null();
  const char* name = kDate && kTime ? "datetime" : kDate ? "date" : "time";
  if (!EvalDateTime(name, args, n, arena, &x, &error)) return error;
  datetime::ComputeYmdHms(&x);
  std::string s;
  if (kDate) AppendDate(x, &s);
  if (kDate && kTime) s.push_back(' ');
  if (kTime) AppendTime(x, &s);
  *out = arena.CopyText(s);
  return Status::OK();
}

// The specifiers strftime knows in 3.40; any other makes the result NULL.
bool KnownSpecifier(char c) {
  switch (c) {
    case 'd':
    case 'f':
    case 'H':
    case 'j':
    case 'J':
    case 'm':
    case 'M':
    case 's':
    case 'S':
    case 'w':
    case 'W':
    case 'Y':
    case '%':
      return true;
    default:
      return false;
  }
}

void AppendSpecifier(char c, const DateTime& x, std::string* out) {
  switch (c) {
    case 'd':
      AppendPadded(x.day, 2, out);
      break;
    case 'f': {
      // "%06.3f" through SQLite's printf, which rounds as glibc does not.
      const double s = x.second > 59.999 ? 59.999 : x.second;
      std::string digits;
      FloatFormat f;
      f.conversion = 'f';
      f.precision = 3;
      AppendFloat(s, f, &digits);
      for (size_t i = digits.size(); i < 6; i++) out->push_back('0');
      out->append(digits);
      break;
    }
    case 'H':
      AppendPadded(x.hour, 2, out);
      break;
    case 'W':
    case 'j': {
      DateTime jan1 = x;
      jan1.valid_jd = false;
      jan1.month = 1;
      jan1.day = 1;
      datetime::ComputeJulian(&jan1);
      const int day_of_year = static_cast<int>((x.jd - jan1.jd + 43200000) / 86400000);
      if (c == 'W') {
        const int monday0 = static_cast<int>(((x.jd + 43200000) / 86400000) % 7);
        AppendPadded((day_of_year + 7 - monday0) / 7, 2, out);
      } else {
        AppendPadded(day_of_year + 1, 3, out);
      }
      break;
    }
    case 'J': {
      FloatFormat f;
      f.conversion = 'g';
      f.precision = 16;
      AppendFloat(static_cast<double>(x.jd) / 86400000.0, f, out);
      break;
    }
    case 'm':
      AppendPadded(x.month, 2, out);
      break;
    case 'M':
      AppendPadded(x.minute, 2, out);
      break;
    case 's':
      out->append(std::to_string(x.jd / 1000 - datetime::kUnixEpochMs / 1000));
      break;
    case 'S':
      AppendPadded(static_cast<int>(x.second), 2, out);
      break;
    case 'w':
      out->push_back(static_cast<char>('0' + ((x.jd + 129600000) / 86400000) % 7));
      break;
    case 'Y':
      AppendPadded(x.year, 4, out);
      break;
    default:
      out->push_back('%');
      break;
  }
}

}  // namespace

Status DateFunction(const Value* args, int n, ValueArena& arena, Value* out) {
  return Format<true, false>(args, n, arena, out);
}

Status TimeFunction(const Value* args, int n, ValueArena& arena, Value* out) {
  return Format<false, true>(args, n, arena, out);
}

Status DateTimeFunction(const Value* args, int n, ValueArena& arena, Value* out) {
  return Format<true, true>(args, n, arena, out);
}

Status CurrentDateFunction(const Value* args, int n, ValueArena& arena, Value* out) {
  const PureContext unrestricted(nullptr);
  return DateFunction(args, n, arena, out);
}

Status CurrentTimeFunction(const Value* args, int n, ValueArena& arena, Value* out) {
  const PureContext unrestricted(nullptr);
  return TimeFunction(args, n, arena, out);
}

Status CurrentTimestampFunction(const Value* args, int n, ValueArena& arena, Value* out) {
  const PureContext unrestricted(nullptr);
  return DateTimeFunction(args, n, arena, out);
}

Status JulianDayFunction(const Value* args, int n, ValueArena& arena, Value* out) {
  DateTime x;
  Status error;
  *out = Value::Null();
  if (!EvalDateTime("julianday", args, n, arena, &x, &error)) return error;
  *out = Value::Real(static_cast<double>(x.jd) / 86400000.0);
  return Status::OK();
}

Status UnixEpochFunction(const Value* args, int n, ValueArena& arena, Value* out) {
  DateTime x;
  Status error;
  *out = Value::Null();
  if (!EvalDateTime("unixepoch", args, n, arena, &x, &error)) return error;
  *out = Value::Integer(x.jd / 1000 - datetime::kUnixEpochMs / 1000);
  return Status::OK();
}

Status StrftimeFunction(const Value* args, int n, ValueArena& arena, Value* out) {
  *out = Value::Null();
  if (n == 0 || args[0].is_null()) return Status::OK();
  const std::string format = ArgText(args[0], arena);
  DateTime x;
  Status error;
  if (!EvalDateTime("strftime", args + 1, n - 1, arena, &x, &error)) return error;
  for (size_t i = 0; i < format.size(); i++) {
    if (format[i] != '%') continue;
    if (i + 1 >= format.size() || !KnownSpecifier(format[i + 1])) return Status::OK();
    i++;
  }
  datetime::ComputeJulian(&x);
  datetime::ComputeYmdHms(&x);
  std::string s;
  for (size_t i = 0; i < format.size(); i++) {
    if (format[i] != '%') {
      s.push_back(format[i]);
      continue;
    }
    AppendSpecifier(format[++i], x, &s);
    if (s.size() > kMaxLength) return Status::SqlError("string or blob too big");
  }
  if (s.size() > kMaxLength) return Status::SqlError("string or blob too big");
  *out = arena.CopyText(s);
  return Status::OK();
}

int64_t StatementTimeMs() {
  int64_t& t_statement_ms = internal::statement_time_ms;
  if (t_statement_ms == 0) {
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    t_statement_ms =
        datetime::kUnixEpochMs + std::chrono::duration_cast<std::chrono::milliseconds>(now).count();
  }
  return t_statement_ms;
}

}  // namespace engine::func
