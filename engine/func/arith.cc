#include "engine/func/arith.h"

#include <cmath>
#include <cstring>

#include "engine/func/cast.h"
#include "engine/func/text_format.h"

namespace engine::func {
namespace {

enum class ArithOp { kAdd, kSub, kMul, kDiv, kRem };

// What numericType() in SQLite's vdbe.c decides for a non-NULL operand:
// integer (with its value) or real.
struct NumericKind {
  bool is_int;
  int64_t i;
};

NumericKind NumericKindOf(const Value& v) {
  switch (v.type()) {
    case ValueType::kInteger:
      return {true, v.as_int()};
    case ValueType::kReal:
    case ValueType::kNull:
      return {false, 0};
    case ValueType::kText:
    case ValueType::kBlob: {
      const std::string_view s = v.as_text();
      double r;
      int64_t ix = 0;
      const int rc = AtoF(s, &r);
      if (rc <= 0) {
        if (rc == 0 && Atoi64(s, &ix) <= 1) return {true, ix};
        return {false, 0};
      }
      if (rc == 1 && Atoi64(s, &ix) == 0) return {true, ix};
      return {false, 0};
    }
  }
  return {false, 0};
}

// The integer path; false when it overflows and the real path must decide.
bool IntMath(ArithOp op, int64_t left, int64_t right, Value* out) {
  int64_t r;
  switch (op) {
    case ArithOp::kAdd:
      if (__builtin_add_overflow(left, right, &r)) return false;
      break;
    case ArithOp::kSub:
      if (__builtin_sub_overflow(left, right, &r)) return false;
      break;
    case ArithOp::kMul:
      if (__builtin_mul_overflow(left, right, &r)) return false;
      break;
    case ArithOp::kDiv:
      if (right == 0) {
        *out = Value::Null();
        return true;
      }
      if (right == -1 && left == INT64_MIN) return false;
      r = left / right;
      break;
    case ArithOp::kRem:
      if (right == 0) {
        *out = Value::Null();
        return true;
      }
      if (right == -1) right = 1;
      r = left % right;
      break;
  }
  *out = Value::Integer(r);
  return true;
}

Value Arith(ArithOp op, const Value& a, const Value& b) {
  Value out;
  if (a.type() == ValueType::kInteger && b.type() == ValueType::kInteger) {
    if (IntMath(op, a.as_int(), b.as_int(), &out)) return out;
  } else if (a.is_null() || b.is_null()) {
    return Value::Null();
  } else {
    const NumericKind ka = NumericKindOf(a);
    const NumericKind kb = NumericKindOf(b);
    if (ka.is_int && kb.is_int && IntMath(op, ka.i, kb.i, &out)) return out;
  }
  const double left = RealValue(a);
  const double right = RealValue(b);
  double r = 0.0;
  switch (op) {
    case ArithOp::kAdd:
      r = left + right;
      break;
    case ArithOp::kSub:
      r = left - right;
      break;
    case ArithOp::kMul:
      r = left * right;
      break;
    case ArithOp::kDiv:
      if (right == 0.0) return Value::Null();
      r = left / right;
      break;
    case ArithOp::kRem: {
      int64_t ia = IntValue(b);
      const int64_t ib = IntValue(a);
      if (ia == 0) return Value::Null();
      if (ia == -1) ia = 1;
      r = static_cast<double>(ib % ia);
      break;
    }
  }
  if (std::isnan(r)) return Value::Null();
  return Value::Real(r);
}

enum class BitOp { kAnd, kOr, kShl, kShr };

Value Bits(BitOp op, const Value& a, const Value& b) {
  if (a.is_null() || b.is_null()) return Value::Null();
  int64_t ia = IntValue(a);
  int64_t ib = IntValue(b);
  if (op == BitOp::kAnd) return Value::Integer(ia & ib);
  if (op == BitOp::kOr) return Value::Integer(ia | ib);
  if (ib == 0) return Value::Integer(ia);
  if (ib < 0) {
    op = op == BitOp::kShl ? BitOp::kShr : BitOp::kShl;
    ib = ib > -64 ? -ib : 64;
  }
  if (ib >= 64) return Value::Integer((ia >= 0 || op == BitOp::kShl) ? 0 : -1);
  uint64_t u;
  std::memcpy(&u, &ia, sizeof(u));
  if (op == BitOp::kShl) {
    u <<= ib;
  } else {
    u >>= ib;
    if (ia < 0) u |= ~uint64_t{0} << (64 - ib);
  }
  std::memcpy(&ia, &u, sizeof(ia));
  return Value::Integer(ia);
}

}  // namespace

Value Add(const Value& a, const Value& b) { return Arith(ArithOp::kAdd, a, b); }
Value Subtract(const Value& a, const Value& b) { return Arith(ArithOp::kSub, a, b); }
Value Multiply(const Value& a, const Value& b) { return Arith(ArithOp::kMul, a, b); }
Value Divide(const Value& a, const Value& b) { return Arith(ArithOp::kDiv, a, b); }
Value Remainder(const Value& a, const Value& b) { return Arith(ArithOp::kRem, a, b); }
Value Negate(const Value& a) { return Arith(ArithOp::kSub, Value::Integer(0), a); }

Value BitAnd(const Value& a, const Value& b) { return Bits(BitOp::kAnd, a, b); }
Value BitOr(const Value& a, const Value& b) { return Bits(BitOp::kOr, a, b); }
Value ShiftLeft(const Value& a, const Value& b) { return Bits(BitOp::kShl, a, b); }
Value ShiftRight(const Value& a, const Value& b) { return Bits(BitOp::kShr, a, b); }
Value BitNot(const Value& a) {
  if (a.is_null()) return a;
  return Value::Integer(~IntValue(a));
}

Value Concat(const Value& a, const Value& b, ValueArena& arena) {
  if (a.is_null() || b.is_null()) return Value::Null();
  char abuf[kNumberTextMax];
  char bbuf[kNumberTextMax];
  auto bytes = [](const Value& v, char* buf) -> std::string_view {
    if (v.type() == ValueType::kInteger) return {buf, FormatInteger(v.as_int(), buf)};
    if (v.type() == ValueType::kReal) return {buf, FormatReal(v.as_real(), buf)};
    return v.as_text();
  };
  const std::string_view x = bytes(a, abuf);
  const std::string_view y = bytes(b, bbuf);
  char* p = arena.Allocate(x.size() + y.size());
  if (!x.empty()) std::memcpy(p, x.data(), x.size());
  if (!y.empty()) std::memcpy(p + x.size(), y.data(), y.size());
  return Value::Text(p, x.size() + y.size());
}

Value Compare(CompareOp op, const Value& a, const Value& b, Collation coll) {
  if (a.is_null() || b.is_null()) {
    if (op == CompareOp::kIs) return Value::Integer(a.is_null() && b.is_null());
    if (op == CompareOp::kIsNot) return Value::Integer(!(a.is_null() && b.is_null()));
    return Value::Null();
  }
  const int c = CompareCollated(a, b, coll);
  bool r = false;
  switch (op) {
    case CompareOp::kEq:
    case CompareOp::kIs:
      r = c == 0;
      break;
    case CompareOp::kNe:
    case CompareOp::kIsNot:
      r = c != 0;
      break;
    case CompareOp::kLt:
      r = c < 0;
      break;
    case CompareOp::kLe:
      r = c <= 0;
      break;
    case CompareOp::kGt:
      r = c > 0;
      break;
    case CompareOp::kGe:
      r = c >= 0;
      break;
  }
  return Value::Integer(r ? 1 : 0);
}

int TruthValue(const Value& v) {
  if (v.is_null()) return -1;
  return IsTrue(v) ? 1 : 0;
}

Value Not(const Value& a) {
  if (a.is_null()) return a;
  return Value::Integer(IsTrue(a) ? 0 : 1);
}

Value And(const Value& a, const Value& b) {
  const int x = TruthValue(a);
  const int y = TruthValue(b);
  if (x == 0 || y == 0) return Value::Integer(0);
  if (x < 0 || y < 0) return Value::Null();
  return Value::Integer(1);
}

Value Or(const Value& a, const Value& b) {
  const int x = TruthValue(a);
  const int y = TruthValue(b);
  if (x == 1 || y == 1) return Value::Integer(1);
  if (x < 0 || y < 0) return Value::Null();
  return Value::Integer(0);
}

Value EvalBinary(sql::BinaryOp op, const Value& a, const Value& b, ValueArena& arena) {
  using sql::BinaryOp;
  switch (op) {
    case BinaryOp::kOr:
      return Or(a, b);
    case BinaryOp::kAnd:
      return And(a, b);
    case BinaryOp::kEq:
      return Compare(CompareOp::kEq, a, b);
    case BinaryOp::kNe:
      return Compare(CompareOp::kNe, a, b);
    case BinaryOp::kIs:
      return Compare(CompareOp::kIs, a, b);
    case BinaryOp::kIsNot:
      return Compare(CompareOp::kIsNot, a, b);
    case BinaryOp::kLt:
      return Compare(CompareOp::kLt, a, b);
    case BinaryOp::kLe:
      return Compare(CompareOp::kLe, a, b);
    case BinaryOp::kGt:
      return Compare(CompareOp::kGt, a, b);
    case BinaryOp::kGe:
      return Compare(CompareOp::kGe, a, b);
    case BinaryOp::kBitAnd:
      return BitAnd(a, b);
    case BinaryOp::kBitOr:
      return BitOr(a, b);
    case BinaryOp::kShiftLeft:
      return ShiftLeft(a, b);
    case BinaryOp::kShiftRight:
      return ShiftRight(a, b);
    case BinaryOp::kAdd:
      return Add(a, b);
    case BinaryOp::kSubtract:
      return Subtract(a, b);
    case BinaryOp::kMultiply:
      return Multiply(a, b);
    case BinaryOp::kDivide:
      return Divide(a, b);
    case BinaryOp::kRemainder:
      return Remainder(a, b);
    case BinaryOp::kConcat:
      return Concat(a, b, arena);
  }
  return Value::Null();
}

Value EvalUnary(sql::UnaryOp op, const Value& a) {
  switch (op) {
    case sql::UnaryOp::kNegate:
      return Negate(a);
    case sql::UnaryOp::kPlus:
      return a;
    case sql::UnaryOp::kNot:
      return Not(a);
    case sql::UnaryOp::kBitNot:
      return BitNot(a);
  }
  return a;
}

}  // namespace engine::func
