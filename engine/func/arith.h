// SQLite's operators on values: arithmetic with integer overflow falling back
// to REAL, bit operations, ||, comparisons and three-valued logic. Every
// operator takes NULL to NULL unless SQLite says otherwise (IS, AND, OR).
// Operands of a comparison must already carry the comparison affinity
// (affinity.h); everything else converts its operands itself, as the VM does.
#pragma once

#include <cstdint>

#include "engine/func/collation.h"
#include "engine/func/value_arena.h"
#include "engine/sql/ast.h"
#include "engine/value.h"

namespace engine::func {

// + - * / %. INTEGER operands stay INTEGER unless the result overflows (then
// REAL); TEXT and BLOB operands count as the number they start with
// ("12abc" is 12, "1.5e2x" is 150.0, "abc" is 0); division or remainder by
// zero and NaN results give NULL; % on REALs takes both operands' integer
// parts and yields a REAL.
Value Add(const Value& a, const Value& b);
Value Subtract(const Value& a, const Value& b);
Value Multiply(const Value& a, const Value& b);
Value Divide(const Value& a, const Value& b);
Value Remainder(const Value& a, const Value& b);

// -x is 0 - x (so -'abc' is 0 and -(-9223372036854775808) is a REAL); +x is x.
Value Negate(const Value& a);

// & | << >> ~ on the operands' integer values. A negative shift count
// shifts the other way; a count of 64 or more gives 0 (or -1 for a negative
// value shifted right).
Value BitAnd(const Value& a, const Value& b);
Value BitOr(const Value& a, const Value& b);
Value ShiftLeft(const Value& a, const Value& b);
Value ShiftRight(const Value& a, const Value& b);
Value BitNot(const Value& a);

// a || b: always TEXT (numbers rendered as SQLite renders them, blob bytes
// taken as they are), bytes in the arena.
Value Concat(const Value& a, const Value& b, ValueArena& arena);

enum class CompareOp : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe, kIs, kIsNot };

// 1 or 0, or NULL when an operand is NULL (IS / IS NOT never give NULL).
Value Compare(CompareOp op, const Value& a, const Value& b, Collation coll = Collation::kBinary);

// Truth of a value for WHERE, CASE WHEN, AND/OR: 1 true, 0 false, -1 NULL.
int TruthValue(const Value& v);
Value Not(const Value& a);
Value And(const Value& a, const Value& b);
Value Or(const Value& a, const Value& b);

// The parser's operators dispatched to the functions above (comparisons
// under BINARY; the caller applies comparison affinity first).
Value EvalBinary(sql::BinaryOp op, const Value& a, const Value& b, ValueArena& arena);
// kPlus returns its operand unchanged.
Value EvalUnary(sql::UnaryOp op, const Value& a);

}  // namespace engine::func
