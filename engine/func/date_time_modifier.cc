// The modifiers of SQLite 3.40's date and time functions, applied left to
// right (lang_datefunc.html, "Modifiers"), and the conversions between UTC
// and the process's local time through the C library.
#include <cstring>
#include <ctime>

#include "engine/func/date_time_value.h"
#include "engine/func/text_format.h"

namespace engine::func::datetime {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// The units of "NNN units": a modifier's amount must be inside (-limit,
// limit), and is worth `seconds` per unit ('months' and 'years' add their
// whole part to the calendar fields instead, and only the fraction as 30
// or 365 days).
struct Unit {
  std::string_view name;
  double limit;
  double seconds;
};
constexpr Unit kUnits[] = {
    {"second", 4.6427e+14, 1.0}, {"minute", 7.7379e+12, 60.0},   {"hour", 1.2897e+11, 3600.0},
    {"day", 5373485.0, 86400.0}, {"month", 176546.0, 2592000.0}, {"year", 14713.0, 31536000.0},
};

// localtime_r on p's moment, into p's calendar fields. Outside 1970..2038
// the C library's zone rules are taken from a year with the same leap-year
// position in 2000..2003, as SQLite does.
bool ToLocaltime(DateTime* p, Status* error) {
  ComputeJulian(p);
  int year_shift = 0;
  time_t t;
  if (p->jd < 2108667600 * int64_t{100000} || p->jd > 2130141456 * int64_t{100000}) {
    DateTime x = *p;
    ComputeYmdHms(&x);
    year_shift = (2000 + x.year % 4) - x.year;
    x.year += year_shift;
    x.valid_jd = false;
    ComputeJulian(&x);
    t = static_cast<time_t>(x.jd / 1000 - kUnixEpochMs / 1000);
  } else {
    t = static_cast<time_t>(p->jd / 1000 - kUnixEpochMs / 1000);
  }
  struct tm local;
  std::memset(&local, 0, sizeof(local));
  if (localtime_r(&t, &local) == nullptr) {
    *error = Status::SqlError("local time unavailable");
    return false;
  }
  p->year = local.tm_year + 1900 - year_shift;
  p->month = local.tm_mon + 1;
  p->day = local.tm_mday;
  p->hour = local.tm_hour;
  p->minute = local.tm_min;
  p->second = local.tm_sec + static_cast<double>(p->jd % 1000) * 0.001;
  p->valid_ymd = p->valid_hms = true;
  p->valid_jd = p->raw = p->valid_tz = p->error = false;
  return true;
}

// 'utc': the UTC moment whose local time is p's, found by correcting a
// guess by how far its local time is off, at most three times (the offset
// may change in between). 3.40 keeps that error in a 32-bit int: far
// outside the C library's range (before JD 0) the error wraps, and the
// results there depend on it, so it wraps here too.
bool ToUtc(DateTime* p, Status* error) {
  if (p->tz_set) return true;
  ComputeJulian(p);
  const int64_t original = p->jd;
  int64_t guess = original;
  int32_t off_by = 0;
  int tries = 0;
  do {
    DateTime local;
    guess = WrapAdd(guess, -int64_t{off_by});
    local.jd = guess;
    local.valid_jd = true;
    if (!ToLocaltime(&local, error)) return false;
    ComputeJulian(&local);
    off_by = static_cast<int32_t>(
        static_cast<uint32_t>(static_cast<uint64_t>(local.jd) - static_cast<uint64_t>(original)));
  } while (off_by != 0 && tries++ < 3);
  *p = DateTime{};
  p->jd = guess;
  p->valid_jd = true;
  p->tz_set = true;
  return true;
}

// "[+-]HH:MM[:SS[.FFF]]": shifts the moment by that time of day.
bool ShiftByTime(const char* z, DateTime* p) {
  const char* hms = IsDigit(*z) ? z : z + 1;
  DateTime tx;
  if (!ParseHms(hms, &tx)) return false;
  ComputeJulian(&tx);
  tx.jd -= 43200000;
  const int64_t days = tx.jd / 86400000;
  tx.jd -= days * 86400000;
  if (z[0] == '-') tx.jd = -tx.jd;
  ComputeJulian(p);
  ClearYmdHmsTz(p);
  p->jd = WrapAdd(p->jd, tx.jd);
  return true;
}

// "NNN units" with a number already read as r; `unit` follows it.
bool ShiftByUnits(double r, const char* unit, DateTime* p) {
  while (IsSqlSpace(static_cast<unsigned char>(*unit))) unit++;
  size_t n = std::strlen(unit);
  if (n > 10 || n < 3) return false;
  if (LowerAscii(unit[n - 1]) == 's') n--;
  ComputeJulian(p);
  bool ok = false;
  const double rounder = r < 0 ? -0.5 : 0.5;
  for (const Unit& u : kUnits) {
    if (u.name.size() != n || !StartsWithNoCase(unit, u.name) || !(r > -u.limit && r < u.limit)) {
      continue;
    }
    if (u.name == "month") {
      ComputeYmdHms(p);
      p->month += static_cast<int>(r);
      const int years = p->month > 0 ? (p->month - 1) / 12 : (p->month - 12) / 12;
      p->year += years;
      p->month -= years * 12;
      p->valid_jd = false;
      r -= static_cast<int>(r);
    } else if (u.name == "year") {
      ComputeYmdHms(p);
      p->year += static_cast<int>(r);
      p->valid_jd = false;
      r -= static_cast<int>(r);
    }
    ComputeJulian(p);
    p->jd = WrapAdd(p->jd, static_cast<int64_t>(r * 1000.0 * u.seconds + rounder));
    ok = true;
    break;
  }
  ClearYmdHmsTz(p);
  return ok;
}

}  // namespace

bool ApplyModifier(const char* z, int idx, DateTime* p, Status* error) {
  switch (LowerAscii(z[0])) {
    case 'a':
      // 'auto': a raw number is a julian day when it can be one, else Unix
      // seconds. Like 'julianday' and 'unixepoch', only right after the value.
      if (!EqualsNoCase(z, "auto")) return false;
      if (idx > 1) return false;
      if (!p->raw || p->valid_jd) {
        p->raw = false;
        return true;
      }
      if (p->second >= -21086676 * int64_t{10000} && p->second <= 25340230 * int64_t{10000} + 799) {
        const double r = p->second * 1000.0 + 210866760000000.0;
        ClearYmdHmsTz(p);
        p->jd = static_cast<int64_t>(r + 0.5);
        p->valid_jd = true;
        p->raw = false;
        return true;
      }
      return false;
    case 'j':
      if (!EqualsNoCase(z, "julianday")) return false;
      if (idx > 1) return false;
      if (p->valid_jd && p->raw) {
        p->raw = false;
        return true;
      }
      return false;
    case 'l':
      if (!EqualsNoCase(z, "localtime")) return false;
      return ToLocaltime(p, error);
    case 'u':
      if (EqualsNoCase(z, "unixepoch") && p->raw) {
        if (idx > 1) return false;
        const double r = p->second * 1000.0 + 210866760000000.0;
        if (!(r >= 0.0 && r < 464269060800000.0)) return false;
        ClearYmdHmsTz(p);
        p->jd = static_cast<int64_t>(r + 0.5);
        p->valid_jd = true;
        p->raw = false;
        return true;
      }
      if (!EqualsNoCase(z, "utc")) return false;
      return ToUtc(p, error);
    case 'w': {
      // 'weekday N': forward to the next day (today included) that is
      // weekday N, 0 = Sunday.
      if (!StartsWithNoCase(z, "weekday ")) return false;
      double r;
      if (AtoF(std::string_view(z + 8, std::strlen(z + 8)), &r) <= 0) return false;
      if (!(r >= 0 && r < 7) || static_cast<int>(r) != r) return false;
      const int n = static_cast<int>(r);
      ComputeYmdHms(p);
      p->valid_tz = false;
      p->valid_jd = false;
      ComputeJulian(p);
      int64_t wd = ((p->jd + 129600000) / 86400000) % 7;
      if (wd > n) wd -= 7;
      p->jd = WrapAdd(p->jd, (n - wd) * 86400000);
      ClearYmdHmsTz(p);
      return true;
    }
    case 's': {
      if (!StartsWithNoCase(z, "start of ")) return false;
      if (!p->valid_jd && !p->valid_ymd && !p->valid_hms) return false;
      const char* what = z + 9;
      ComputeYmd(p);
      p->valid_hms = true;
      p->hour = p->minute = 0;
      p->second = 0.0;
      p->raw = false;
      p->valid_tz = false;
      p->valid_jd = false;
      if (EqualsNoCase(what, "month")) {
        p->day = 1;
        return true;
      }
      if (EqualsNoCase(what, "year")) {
        p->month = 1;
        p->day = 1;
        return true;
      }
      return EqualsNoCase(what, "day");
    }
    case '+':
    case '-':
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7':
    case '8':
    case '9': {
      size_t n = 1;
      while (z[n] != 0 && z[n] != ':' && !IsSqlSpace(static_cast<unsigned char>(z[n]))) n++;
      double r;
      if (AtoF(std::string_view(z, n), &r) <= 0) return false;
      if (z[n] == ':') return ShiftByTime(z, p);
      return ShiftByUnits(r, z + n, p);
    }
    default:
      return false;
  }
}

}  // namespace engine::func::datetime
