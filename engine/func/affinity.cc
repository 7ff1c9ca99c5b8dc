#include "engine/func/affinity.h"

#include <cmath>
#include <cstring>

#include "engine/func/cast.h"
#include "engine/func/text_format.h"

namespace engine::func {
namespace {

constexpr uint32_t Tag(char a, char b, char c, char d) {
  return (static_cast<uint32_t>(a) << 24) + (static_cast<uint32_t>(b) << 16) +
         (static_cast<uint32_t>(c) << 8) + static_cast<uint32_t>(d);
}

}  // namespace

Affinity AffinityOfType(std::string_view type) {
  if (type.empty()) return Affinity::kBlob;
  uint32_t h = 0;
  Affinity aff = Affinity::kNumeric;
  for (char ch : type) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (c >= 'A' && c <= 'Z') c = static_cast<unsigned char>(c + 32);
    h = (h << 8) + c;
    if (h == Tag('c', 'h', 'a', 'r') || h == Tag('c', 'l', 'o', 'b') ||
        h == Tag('t', 'e', 'x', 't')) {
      aff = Affinity::kText;
    } else if (h == Tag('b', 'l', 'o', 'b') &&
               (aff == Affinity::kNumeric || aff == Affinity::kReal)) {
      aff = Affinity::kBlob;
    } else if ((h == Tag('r', 'e', 'a', 'l') || h == Tag('f', 'l', 'o', 'a') ||
                h == Tag('d', 'o', 'u', 'b')) &&
               aff == Affinity::kNumeric) {
      aff = Affinity::kReal;
    } else if ((h & 0x00FFFFFF) == ((uint32_t{'i'} << 16) + (uint32_t{'n'} << 8) + 't')) {
      return Affinity::kInteger;
    }
  }
  return aff;
}

std::string_view AffinityName(Affinity a) {
  switch (a) {
    case Affinity::kNone:
      return "NONE";
    case Affinity::kBlob:
      return "BLOB";
    case Affinity::kText:
      return "TEXT";
    case Affinity::kNumeric:
      return "NUMERIC";
    case Affinity::kInteger:
      return "INTEGER";
    case Affinity::kReal:
      return "REAL";
  }
  return "NONE";
}

Value ApplyNumericAffinity(const Value& v, bool try_for_int) {
  if (v.type() != ValueType::kText) return v;
  double r;
  const int rc = AtoF(v.as_text(), &r);
  if (rc <= 0) return v;
  if (rc == 1) {
    const int64_t i = RealToInt64(r);
    if (RealSameAsInt(r, i)) return Value::Integer(i);
    int64_t parsed;
    if (Atoi64(v.as_text(), &parsed) == 0) return Value::Integer(parsed);
  }
  const Value real = Value::Real(r);
  return try_for_int ? IntegerAffinity(real) : real;
}

Value ApplyAffinity(const Value& v, Affinity a, ValueArena& arena) {
  switch (a) {
    case Affinity::kNone:
    case Affinity::kBlob:
      return v;
    case Affinity::kText:
      return v.is_numeric() ? ValueToText(v, arena) : v;
    case Affinity::kNumeric:
    case Affinity::kInteger:
      if (v.type() == ValueType::kText) return ApplyNumericAffinity(v, true);
      if (v.type() == ValueType::kReal) return IntegerAffinity(v);
      return v;
    case Affinity::kReal: {
      // SQLite keeps an integral value as an integer in the record and turns
      // it back into a REAL when the column is read: what the column holds
      // is a REAL.
      const Value n = v.type() == ValueType::kText ? ApplyNumericAffinity(v, true) : v;
      if (n.type() == ValueType::kInteger) return Value::Real(static_cast<double>(n.as_int()));
      return n;
    }
  }
  return v;
}

Affinity ComparisonAffinity(Affinity left, Affinity right) {
  if (left != Affinity::kNone && right != Affinity::kNone) {
    return IsNumericAffinity(left) || IsNumericAffinity(right) ? Affinity::kNumeric
                                                               : Affinity::kBlob;
  }
  return left != Affinity::kNone ? left : right;
}

void ApplyComparisonAffinity(Affinity a, Value* left, Value* right, ValueArena& arena) {
  if (IsNumericAffinity(a)) {
    *left = ApplyNumericAffinity(*left, false);
    *right = ApplyNumericAffinity(*right, false);
  } else if (a == Affinity::kText) {
    if (left->is_numeric()) *left = ValueToText(*left, arena);
    if (right->is_numeric()) *right = ValueToText(*right, arena);
  }
}

}  // namespace engine::func
