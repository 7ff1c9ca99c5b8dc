// Numbers as text and text as numbers, exactly as SQLite 3.40 does it: the
// rendering of REAL values (printf "%!.15g"), the float conversions of
// SQLite's own printf (which round differently from the C library's), the
// sqlite3 shell's list-mode output of a value, and sqlite3AtoF /
// sqlite3Atoi64, whose return codes drive affinity, CAST and arithmetic.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/func/value_arena.h"
#include "engine/value.h"

namespace engine::func {

// Room for any FormatReal / FormatInteger result.
inline constexpr size_t kNumberTextMax = 32;

// SQLite's whitespace: the ASCII space and \t \n \v \f \r.
inline bool IsSqlSpace(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// REAL as SQLite renders it: 1.0, 0.1, 1.0e+20, 0.333333333333333, Inf.
// Writes at most kNumberTextMax bytes to buf, returns the length.
size_t FormatReal(double r, char* buf);
size_t FormatInteger(int64_t i, char* buf);
std::string RealToText(double r);
std::string IntegerToText(int64_t i);

// One floating-point conversion of SQLite's printf: %f, %e/%E, %g/%G with
// the '#' (alt_form), '!' (alt_form2) and '+' / ' ' (sign) flags. Width and
// padding are the caller's.
struct FloatFormat {
  char conversion = 'g';  // 'f', 'e', 'E', 'g' or 'G'
  int precision = -1;     // < 0: the default, 6
  bool alt_form = false;
  bool alt_form2 = false;
  char sign = 0;  // 0, '+' or ' '
};
void AppendFloat(double v, const FloatFormat& format, std::string* out);

// sqlite3AtoF: parses s (leading and trailing spaces allowed) into *out and
// returns 1 for a pure integer, 2 or more for a number with a '.' or an
// exponent, -1 for not a number but a prefix with a '.' or exponent, 0 for
// not a number. *out receives the value of the longest numeric prefix in
// every case (0.0 when there is none).
int AtoF(std::string_view s, double* out);

// sqlite3Atoi64: 0 when s is an integer that fits (spaces around allowed),
// 1 for an integer prefix followed by other text, 2 for an overflow, 3 for
// exactly 9223372036854775808, -1 for no digits. *out gets the prefix's
// value, clamped to the int64 range.
int Atoi64(std::string_view s, int64_t* out);

// The value as TEXT (sqlite3_value_text): numbers are rendered into the
// arena, BLOB bytes are re-labelled, NULL stays NULL.
Value ValueToText(const Value& v, ValueArena& arena);

// The sqlite3 shell's list-mode text of one value: NULL as the empty string,
// numbers as above, TEXT and BLOB bytes up to the first NUL (the shell
// prints them with %s).
void AppendShellValue(const Value& v, std::string* out);

}  // namespace engine::func
