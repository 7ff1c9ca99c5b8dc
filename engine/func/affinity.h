// Type affinity (https://sqlite.org/datatype3.html): the affinity a declared
// column type gives, the conversion a value undergoes when it is stored in a
// column of that affinity, and the affinity a binary comparison applies to
// its operands.
#pragma once

#include <cstdint>
#include <string_view>

#include "engine/func/value_arena.h"
#include "engine/value.h"

namespace engine::func {

// kNone is an expression without affinity (a literal, an arithmetic result);
// kBlob is a column declared without a type (or as BLOB). Comparisons tell
// the two apart; conversions treat them alike.
enum class Affinity : uint8_t { kNone, kBlob, kText, kNumeric, kInteger, kReal };

inline bool IsNumericAffinity(Affinity a) {
  return a == Affinity::kNumeric || a == Affinity::kInteger || a == Affinity::kReal;
}

// SQLite's five rules, applied to the declared type's text in order:
// contains "INT" -> INTEGER; "CHAR", "CLOB" or "TEXT" -> TEXT; "BLOB" or no
// type -> BLOB; "REAL", "FLOA" or "DOUB" -> REAL; otherwise NUMERIC.
Affinity AffinityOfType(std::string_view declared_type);

// "TEXT", "NUMERIC", "INTEGER", "REAL", "BLOB" or "NONE".
std::string_view AffinityName(Affinity a);

// Text that looks like a number as a number (applyNumericAffinity): an
// INTEGER when it is an integer that fits ("12", " 1e3 " when try_for_int),
// else a REAL; text that is not exactly a number (after trimming spaces) and
// every other value is returned unchanged.
Value ApplyNumericAffinity(const Value& v, bool try_for_int);

// The value a column of affinity `a` stores for v: TEXT renders numbers as
// text (into the arena), NUMERIC and INTEGER turn numeric text into numbers
// and integral reals into integers, REAL does the same and then stores
// every number as a REAL, BLOB/none leave the value alone.
Value ApplyAffinity(const Value& v, Affinity a, ValueArena& arena);

// The affinity a comparison `left OP right` applies to both operands:
// between two operands with affinity, NUMERIC when either is numeric else
// none; when only one has an affinity, that one; else none. An operand's
// affinity: a column's is its declared type's, CAST(x AS t)'s is t's,
// x COLLATE c keeps x's, a scalar subquery has its result column's; every
// other expression (literals, +x, operators, function calls such as
// likely(x)) has kNone.
Affinity ComparisonAffinity(Affinity left, Affinity right);

// Applies a comparison affinity to both operands (in place), as SQLite's
// comparison opcodes do: numeric affinities convert numeric-looking text to
// numbers, TEXT renders numbers as text, BLOB/none change nothing.
void ApplyComparisonAffinity(Affinity a, Value* left, Value* right, ValueArena& arena);

}  // namespace engine::func
