#include "engine/func/cast.h"

#include <cmath>
#include <cstring>

#include "engine/func/text_format.h"

namespace engine::func {
namespace {

// sqlite3VdbeMemNumerify on TEXT or BLOB bytes.
Value Numerify(std::string_view s) {
  double r;
  const int rc = AtoF(s, &r);
  int64_t ix = 0;
  if ((rc == 0 || rc == 1) && Atoi64(s, &ix) <= 1) return Value::Integer(ix);
  ix = RealToInt64(r);
  if (RealSameAsInt(r, ix)) return Value::Integer(ix);
  return Value::Real(r);
}

}  // namespace

bool RealSameAsInt(double r, int64_t i) {
  const double r2 = static_cast<double>(i);
  return r == 0.0 || (std::memcmp(&r, &r2, sizeof(r)) == 0 && i >= -2251799813685248LL &&
                      i < 2251799813685248LL);
}

int64_t RealToInt64(double r) {
  if (r != r) return 0;
  if (r <= static_cast<double>(INT64_MIN)) return INT64_MIN;
  if (r >= static_cast<double>(INT64_MAX)) return INT64_MAX;
  return static_cast<int64_t>(r);
}

Value IntegerAffinity(const Value& v) {
  if (v.type() != ValueType::kReal) return v;
  const double r = v.as_real();
  const int64_t ix = RealToInt64(r);
  if (r == static_cast<double>(ix) && ix > INT64_MIN && ix < INT64_MAX) {
    return Value::Integer(ix);
  }
  return v;
}

int64_t IntValue(const Value& v) {
  switch (v.type()) {
    case ValueType::kNull:
      return 0;
    case ValueType::kInteger:
      return v.as_int();
    case ValueType::kReal:
      return RealToInt64(v.as_real());
    case ValueType::kText:
    case ValueType::kBlob: {
      int64_t i = 0;
      (void)Atoi64(v.as_text(), &i);
      return i;
    }
  }
  return 0;
}

double RealValue(const Value& v) {
  switch (v.type()) {
    case ValueType::kNull:
      return 0.0;
    case ValueType::kInteger:
      return static_cast<double>(v.as_int());
    case ValueType::kReal:
      return v.as_real();
    case ValueType::kText:
    case ValueType::kBlob: {
      double r = 0.0;
      (void)AtoF(v.as_text(), &r);
      return r;
    }
  }
  return 0.0;
}

bool IsTrue(const Value& v) {
  if (v.type() == ValueType::kInteger) return v.as_int() != 0;
  if (v.is_null()) return false;
  return RealValue(v) != 0.0;
}

Value CastValue(const Value& v, Affinity a, ValueArena& arena) {
  if (v.is_null()) return v;
  switch (a) {
    case Affinity::kNone:
    case Affinity::kBlob: {
      if (v.type() == ValueType::kBlob) return v;
      const Value t = ValueToText(v, arena);
      return Value::Blob(t.data(), t.size());
    }
    case Affinity::kText:
      return ValueToText(v, arena);
    case Affinity::kNumeric:
      if (v.is_numeric()) return v;
      return Numerify(v.as_text());
    case Affinity::kInteger:
      return Value::Integer(IntValue(v));
    case Affinity::kReal:
      return Value::Real(RealValue(v));
  }
  return v;
}

Value CastValue(const Value& v, std::string_view type_name, ValueArena& arena) {
  return CastValue(v, AffinityOfType(type_name), arena);
}

}  // namespace engine::func
