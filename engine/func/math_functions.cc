#include "engine/func/math_functions.h"

#include <cmath>

#include "engine/func/affinity.h"
#include "engine/func/cast.h"

namespace engine::func::math {
namespace {

constexpr double kPi = 3.141592653589793238462643383279502884;

// sqlite3_value_numeric_type(): numeric-looking text counts as a number.
bool NumericArg(const Value& v, Value* num) {
  *num = ApplyNumericAffinity(v, false);
  return num->is_numeric();
}

Status RealResult(double r, Value* out) {
  *out = std::isnan(r) ? Value::Null() : Value::Real(r);
  return Status::OK();
}

// ceil/floor/trunc keep integers as they are.
Status Rounding(double (*fn)(double), const Value* a, Value* out) {
  Value num;
  *out = Value::Null();
  if (!NumericArg(a[0], &num)) return Status::OK();
  if (num.type() == ValueType::kInteger) {
    *out = num;
    return Status::OK();
  }
  return RealResult(fn(num.as_real()), out);
}

Status Unary(double (*fn)(double), const Value* a, Value* out) {
  Value num;
  *out = Value::Null();
  if (!NumericArg(a[0], &num)) return Status::OK();
  return RealResult(fn(RealValue(num)), out);
}

Status Binary(double (*fn)(double, double), const Value* a, Value* out) {
  Value x, y;
  *out = Value::Null();
  if (!NumericArg(a[0], &x) || !NumericArg(a[1], &y)) return Status::OK();
  return RealResult(fn(RealValue(x), RealValue(y)), out);
}

enum class LogBase { kE, k10, k2 };

Status Logarithm(LogBase base, const Value* a, int n, Value* out) {
  Value num;
  *out = Value::Null();
  if (!NumericArg(a[0], &num)) return Status::OK();
  double x = RealValue(num);
  if (x <= 0.0) return Status::OK();
  double ans;
  if (n == 2) {
    // SQLite checks the first argument's type a second time, not the
    // second's; the second is read as a double whatever it is.
    const double b = std::log(x);
    if (b <= 0.0) return Status::OK();
    x = RealValue(a[1]);
    if (x <= 0.0) return Status::OK();
    ans = std::log(x) / b;
  } else {
    // SQLite divides the natural logarithm (so log(1000) is
    // 2.9999999999999996, not log10's 3.0).
    ans = std::log(x);
    if (base == LogBase::k10) ans /= 2.302585092994045684017991454684364208;
    if (base == LogBase::k2) ans /= 0.693147180559945309417232121458176568;
  }
  return RealResult(ans, out);
}

double ToDegrees(double x) { return x * (180.0 / kPi); }
double ToRadians(double x) { return x * (kPi / 180.0); }

}  // namespace

Status Ceil(const Value* a, int, ValueArena&, Value* out) { return Rounding(std::ceil, a, out); }
Status Floor(const Value* a, int, ValueArena&, Value* out) { return Rounding(std::floor, a, out); }
Status Trunc(const Value* a, int, ValueArena&, Value* out) { return Rounding(std::trunc, a, out); }
Status Ln(const Value* a, int n, ValueArena&, Value* out) {
  return Logarithm(LogBase::kE, a, n, out);
}
Status Log(const Value* a, int n, ValueArena&, Value* out) {
  return Logarithm(LogBase::k10, a, n, out);
}
Status Log2(const Value* a, int n, ValueArena&, Value* out) {
  return Logarithm(LogBase::k2, a, n, out);
}
Status Exp(const Value* a, int, ValueArena&, Value* out) { return Unary(std::exp, a, out); }
Status Sqrt(const Value* a, int, ValueArena&, Value* out) { return Unary(std::sqrt, a, out); }
Status Pow(const Value* a, int, ValueArena&, Value* out) { return Binary(std::pow, a, out); }
Status Mod(const Value* a, int, ValueArena&, Value* out) { return Binary(std::fmod, a, out); }
Status Atan2(const Value* a, int, ValueArena&, Value* out) { return Binary(std::atan2, a, out); }
Status Sin(const Value* a, int, ValueArena&, Value* out) { return Unary(std::sin, a, out); }
Status Cos(const Value* a, int, ValueArena&, Value* out) { return Unary(std::cos, a, out); }
Status Tan(const Value* a, int, ValueArena&, Value* out) { return Unary(std::tan, a, out); }
Status Asin(const Value* a, int, ValueArena&, Value* out) { return Unary(std::asin, a, out); }
Status Acos(const Value* a, int, ValueArena&, Value* out) { return Unary(std::acos, a, out); }
Status Atan(const Value* a, int, ValueArena&, Value* out) { return Unary(std::atan, a, out); }
Status Sinh(const Value* a, int, ValueArena&, Value* out) { return Unary(std::sinh, a, out); }
Status Cosh(const Value* a, int, ValueArena&, Value* out) { return Unary(std::cosh, a, out); }
Status Tanh(const Value* a, int, ValueArena&, Value* out) { return Unary(std::tanh, a, out); }
Status Asinh(const Value* a, int, ValueArena&, Value* out) { return Unary(std::asinh, a, out); }
Status Acosh(const Value* a, int, ValueArena&, Value* out) { return Unary(std::acosh, a, out); }
Status Atanh(const Value* a, int, ValueArena&, Value* out) { return Unary(std::atanh, a, out); }
Status Degrees(const Value* a, int, ValueArena&, Value* out) { return Unary(ToDegrees, a, out); }
Status Radians(const Value* a, int, ValueArena&, Value* out) { return Unary(ToRadians, a, out); }
Status Pi(const Value*, int, ValueArena&, Value* out) { return RealResult(kPi, out); }

Status Sign(const Value* a, int, ValueArena&, Value* out) {
  Value num;
  *out = Value::Null();
  if (!NumericArg(a[0], &num)) return Status::OK();
  const double x = RealValue(num);
  *out = Value::Integer(x < 0.0 ? -1 : (x > 0.0 ? 1 : 0));
  return Status::OK();
}

}  // namespace engine::func::math
