// The state the SQLite date and time functions carry from their time value
// through each modifier to the output format (lang_datefunc.html), and the
// operations on it. The moment is held as a julian day in milliseconds and/or
// as calendar fields; each side is computed from the other on demand, as
// SQLite does, because its results depend on which side a step reads: a
// parsed '2023-02-30' prints as written until a modifier goes through the
// day number, and fractional seconds keep every digit until then.
#pragma once

#include <cstdint>
#include <string_view>

#include "engine/status.h"

namespace engine::func::datetime {

// Milliseconds between JD 0 and the Unix epoch (JD 2440587.5).
inline constexpr int64_t kUnixEpochMs = 210866760000000;
// The largest julian day in ms the functions accept: 9999-12-31 23:59:59.999.
inline constexpr int64_t kMaxJulianMs = 464269060799999;

struct DateTime {
  int64_t jd = 0;  // milliseconds since JD 0 (-4713-11-24 12:00:00)
  int year = 0, month = 0, day = 0;
  int hour = 0, minute = 0;
  int tz = 0;         // the parsed zone offset, in minutes east of UTC
  double second = 0;  // with its fraction
  bool valid_jd = false;
  bool raw = false;  // `second` holds the time value as a bare number
  bool valid_ymd = false;
  bool valid_hms = false;
  bool valid_tz = false;  // a nonzero zone offset still to apply
  bool tz_set = false;    // a zone was given: 'utc' has nothing left to do
  bool error = false;
};

// ASCII case-insensitive comparisons, as sqlite3_stricmp / sqlite3_strnicmp.
inline char LowerAscii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; }
inline bool StartsWithNoCase(const char* z, std::string_view lower) {
  for (char c : lower) {
    if (LowerAscii(*z++) != c) return false;
  }
  return true;
}
inline bool EqualsNoCase(const char* z, std::string_view lower) {
  return StartsWithNoCase(z, lower) && z[lower.size()] == 0;
}

// jd arithmetic wraps as SQLite's does in practice: enough '+4e14 seconds'
// in a chain overflow 64 bits, and the final range check rejects the rest.
inline int64_t WrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

inline bool ValidJulianMs(int64_t jd) { return jd >= 0 && jd <= kMaxJulianMs; }

// A failed conversion: everything forgotten but the error.
void SetError(DateTime* p);
void ComputeJulian(DateTime* p);
void ComputeYmd(DateTime* p);
void ComputeHms(DateTime* p);
inline void ComputeYmdHms(DateTime* p) {
  ComputeYmd(p);
  ComputeHms(p);
}
// Forgets the calendar fields once the julian day has moved.
inline void ClearYmdHmsTz(DateTime* p) { p->valid_ymd = p->valid_hms = p->valid_tz = false; }

// A bare number as the time value: a julian day when in range, kept raw for
// 'unixepoch' / 'julianday' / 'auto'.
void SetRawNumber(DateTime* p, double r);

// "HH:MM[:SS[.FFF]][zone]" at the start of z (NUL-terminated); false when z is
// not exactly that.
bool ParseHms(const char* z, DateTime* p);

// A time value given as text (NUL-terminated): a date with an optional time,
// a time alone, 'now' (now_ms: the statement's clock, called only then), or
// a number. false: not a time value.
bool ParseTimeValue(const char* z, int64_t (*now_ms)(), DateTime* p);

// Applies modifier `z` (NUL-terminated, argument number idx >= 1). false:
// the modifier does not apply, and the function's result is NULL. A failing
// C library (localtime_r) sets *error instead.
bool ApplyModifier(const char* z, int idx, DateTime* p, Status* error);

}  // namespace engine::func::datetime
