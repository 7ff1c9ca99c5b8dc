// Conversions between storage classes: the implicit ones SQLite's VM makes
// when an operator needs an integer, a real or a truth value, and the
// explicit CAST(x AS type).
#pragma once

#include <cstdint>
#include <string_view>

#include "engine/func/affinity.h"
#include "engine/func/value_arena.h"
#include "engine/value.h"

namespace engine::func {

// A double as an int64 the way SQLite truncates it: toward zero, saturating
// at the int64 range (NaN gives 0).
int64_t RealToInt64(double r);

// sqlite3RealSameAsInt: i stands for r exactly (bit for bit, -0.0 aside)
// and is small enough (|i| < 2^51) that storing it as an integer loses
// nothing.
bool RealSameAsInt(double r, int64_t i);

// A REAL that holds an integer strictly inside the int64 range becomes an
// INTEGER (sqlite3VdbeIntegerAffinity); anything else is returned as is.
Value IntegerAffinity(const Value& v);

// sqlite3_value_int64: NULL -> 0, REAL truncated, TEXT/BLOB by their integer
// prefix ("12abc" -> 12, "1e3" -> 1, "abc" -> 0).
int64_t IntValue(const Value& v);

// sqlite3_value_double: NULL -> 0.0, TEXT/BLOB by their numeric prefix
// ("1e3x" -> 1000.0, "abc" -> 0.0).
double RealValue(const Value& v);

// The truth of a non-NULL value: INTEGER != 0, anything else by its REAL
// value != 0.0 (so 'abc' is false and '0.5' is true).
bool IsTrue(const Value& v);

// CAST(v AS <affinity>): NULL stays NULL; BLOB gives the bytes of the text
// rendering; TEXT renders numbers and relabels blobs; NUMERIC gives an
// INTEGER when the text's value is one (or, for REAL inputs, keeps them);
// INTEGER takes the integer prefix; REAL the numeric prefix.
Value CastValue(const Value& v, Affinity a, ValueArena& arena);

// CAST(v AS type_name), the affinity coming from the type's name as for a
// column (CAST(x AS VARCHAR(10)) is a cast to TEXT). An empty name means
// BLOB affinity, which for CAST is a cast to BLOB.
Value CastValue(const Value& v, std::string_view type_name, ValueArena& arena);

}  // namespace engine::func
