// The math functions of SQLite's SQLITE_ENABLE_MATH_FUNCTIONS build (Debian's
// sqlite3 has them): ceil/ceiling/floor/trunc, ln/log/log10/log2, exp, pow/
// power, mod, sqrt, the trigonometric and hyperbolic functions, pi,
// degrees, radians and sign. Operands that are not numbers (after numeric
// affinity) give NULL, and so does a NaN result. They are registered in the
// scalar function table (scalar_functions.h).
#pragma once

#include "engine/func/value_arena.h"
#include "engine/status.h"
#include "engine/value.h"

namespace engine::func::math {

Status Ceil(const Value* a, int n, ValueArena& arena, Value* out);
Status Floor(const Value* a, int n, ValueArena& arena, Value* out);
Status Trunc(const Value* a, int n, ValueArena& arena, Value* out);
Status Ln(const Value* a, int n, ValueArena& arena, Value* out);
// log(X) is base 10; log(B, X) is base B.
Status Log(const Value* a, int n, ValueArena& arena, Value* out);
Status Log2(const Value* a, int n, ValueArena& arena, Value* out);
Status Exp(const Value* a, int n, ValueArena& arena, Value* out);
Status Sqrt(const Value* a, int n, ValueArena& arena, Value* out);
Status Pow(const Value* a, int n, ValueArena& arena, Value* out);
Status Mod(const Value* a, int n, ValueArena& arena, Value* out);
Status Atan2(const Value* a, int n, ValueArena& arena, Value* out);
Status Sin(const Value* a, int n, ValueArena& arena, Value* out);
Status Cos(const Value* a, int n, ValueArena& arena, Value* out);
Status Tan(const Value* a, int n, ValueArena& arena, Value* out);
Status Asin(const Value* a, int n, ValueArena& arena, Value* out);
Status Acos(const Value* a, int n, ValueArena& arena, Value* out);
Status Atan(const Value* a, int n, ValueArena& arena, Value* out);
Status Sinh(const Value* a, int n, ValueArena& arena, Value* out);
Status Cosh(const Value* a, int n, ValueArena& arena, Value* out);
Status Tanh(const Value* a, int n, ValueArena& arena, Value* out);
Status Asinh(const Value* a, int n, ValueArena& arena, Value* out);
Status Acosh(const Value* a, int n, ValueArena& arena, Value* out);
Status Atanh(const Value* a, int n, ValueArena& arena, Value* out);
Status Degrees(const Value* a, int n, ValueArena& arena, Value* out);
Status Radians(const Value* a, int n, ValueArena& arena, Value* out);
Status Pi(const Value* a, int n, ValueArena& arena, Value* out);
Status Sign(const Value* a, int n, ValueArena& arena, Value* out);

}  // namespace engine::func::math
