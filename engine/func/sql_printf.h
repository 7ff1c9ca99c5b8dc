// The SQL functions printf(FORMAT, ...) and format(FORMAT, ...): SQLite's
// own printf engine driven by SQL values. Conversions: d i u x X o c s z q Q
// w f e E g G r p n %, flags - + space # ! 0 and ',' (thousands), width and
// precision (also as *). Arguments beyond those given read as NULL (0, 0.0
// or ""); an unknown conversion ends the output there, as in SQLite.
// Difference from SQLite: width and precision are capped at 100000.
#pragma once

#include <string>
#include <string_view>

#include "engine/value.h"

namespace engine::func {

// Appends the formatted text to *out. The format ends at its first NUL.
// Returns false when no piece of output was produced at all (an empty
// format, or one that starts with an unknown conversion): SQLite's
// printf() is NULL then, while printf('%s', '') is ''.
bool SqlPrintf(std::string_view format, const Value* args, int nargs, std::string* out);

}  // namespace engine::func
