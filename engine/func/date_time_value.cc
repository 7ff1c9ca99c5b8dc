// Time values and the julian day <-> calendar conversions (Meeus,
// Astronomical Algorithms), with SQLite 3.40's integer and floating-point
// steps kept as they are: its results are defined by them, to the bit.
#include "engine/func/date_time_value.h"

#include <cstring>

#include "engine/func/text_format.h"

namespace engine::func::datetime {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Exactly `width` digits at z forming a number in [lo, hi].
bool Digits(const char* z, int width, int lo, int hi, int* out) {
  int v = 0;
  for (int i = 0; i < width; i++) {
    if (!IsDigit(z[i])) return false;
    v = v * 10 + (z[i] - '0');
  }
  if (v < lo || v > hi) return false;
  *out = v;
  return true;
}

// "[+-]HH:MM" or "Z" (spaces around) or nothing at all.
bool ParseZone(const char* z, DateTime* p) {
  while (IsSqlSpace(static_cast<unsigned char>(*z))) z++;
  p->tz = 0;
  const char c = *z;
  if (c == 'Z' || c == 'z') {
    z++;
  } else if (c == '+' || c == '-') {
    int hours, minutes;
    if (!Digits(z + 1, 2, 0, 14, &hours) || z[3] != ':' || !Digits(z + 4, 2, 0, 59, &minutes)) {
      return false;
    }
    p->tz = (c == '-' ? -1 : 1) * (minutes + hours * 60);
    z += 6;
  } else {
    return c == 0;
  }
  while (IsSqlSpace(static_cast<unsigned char>(*z))) z++;
  p->tz_set = true;
  return *z == 0;
}

// "[-]YYYY-MM-DD" then, after spaces or 'T's, an optional time.
bool ParseYmd(const char* z, DateTime* p) {
  const bool negative = *z == '-';
  if (negative) z++;
  int y, m, d;
  if (!Digits(z, 4, 0, 9999, &y) || z[4] != '-' || !Digits(z + 5, 2, 1, 12, &m) || z[7] != '-' ||
      !Digits(z + 8, 2, 1, 31, &d)) {
    return false;
  }
  z += 10;
  while (IsSqlSpace(static_cast<unsigned char>(*z)) || *z == 'T') z++;
  if (!ParseHms(z, p)) {
    if (*z != 0) return false;
    p->valid_hms = false;
  }
  p->valid_jd = false;
  p->valid_ymd = true;
  p->year = negative ? -y : y;
  p->month = m;
  p->day = d;
  if (p->valid_tz) ComputeJulian(p);
  return true;
}

}  // namespace

void SetError(DateTime* p) {
  *p = DateTime{};
  p->error = true;
}

void ComputeJulian(DateTime* p) {
  if (p->valid_jd) return;
  int y = 2000, m = 1, d = 1;  // a time alone is on 2000-01-01
  if (p->valid_ymd) {
    y = p->year;
    m = p->month;
    d = p->day;
  }
  if (y < -4713 || y > 9999 || p->raw) {
    SetError(p);
    return;
  }
  if (m <= 2) {
    y--;
    m += 12;
  }
  const int a = y / 100;
  const int b = 2 - a + (a / 4);
  const int x1 = 36525 * (y + 4716) / 100;
  const int x2 = 306001 * (m + 1) / 10000;
  p->jd = static_cast<int64_t>((x1 + x2 + d + b - 1524.5) * 86400000);
  p->valid_jd = true;
  if (p->valid_hms) {
    p->jd += p->hour * 3600000 + p->minute * 60000 + static_cast<int64_t>(p->second * 1000 + 0.5);
    if (p->valid_tz) {
      p->jd -= p->tz * 60000;
      p->valid_ymd = p->valid_hms = p->valid_tz = false;
    }
  }
}

void ComputeYmd(DateTime* p) {
  if (p->valid_ymd) return;
  if (!p->valid_jd) {
    p->year = 2000;
    p->month = 1;
    p->day = 1;
  } else if (!ValidJulianMs(p->jd)) {
    SetError(p);
    return;
  } else {
    const int z = static_cast<int>((p->jd + 43200000) / 86400000);
    int a = static_cast<int>((z - 1867216.25) / 36524.25);
    a = z + 1 + a - (a / 4);
    const int b = a + 1524;
    const int c = static_cast<int>((b - 122.1) / 365.25);
    const int d = (36525 * (c & 32767)) / 100;
    const int e = static_cast<int>((b - d) / 30.6001);
    const int x1 = static_cast<int>(30.6001 * e);
    p->day = b - d - x1;
    p->month = e < 14 ? e - 1 : e - 13;
    p->year = p->month > 2 ? c - 4716 : c - 4715;
  }
  p->valid_ymd = true;
}

void ComputeHms(DateTime* p) {
  if (p->valid_hms) return;
  ComputeJulian(p);
  int s = static_cast<int>(WrapAdd(p->jd, 43200000) % 86400000);
  p->second = s / 1000.0;
  s = static_cast<int>(p->second);
  p->second -= s;
  p->hour = s / 3600;
  s -= p->hour * 3600;
  p->minute = s / 60;
  p->second += s - p->minute * 60;
  p->raw = false;
  p->valid_hms = true;
}

void SetRawNumber(DateTime* p, double r) {
  p->second = r;
  p->raw = true;
  if (r >= 0.0 && r < 5373484.5) {
    p->jd = static_cast<int64_t>(r * 86400000.0 + 0.5);
    p->valid_jd = true;
  }
}

bool ParseHms(const char* z, DateTime* p) {
  int h, m, s = 0;
  if (!Digits(z, 2, 0, 24, &h) || z[2] != ':' || !Digits(z + 3, 2, 0, 59, &m)) return false;
  z += 5;
  double fraction = 0.0;
  if (*z == ':') {
    if (!Digits(z + 1, 2, 0, 59, &s)) return false;
    z += 3;
    if (*z == '.' && IsDigit(z[1])) {
      // Every digit counts (SQLite sums them as a double): '...59.9999'
      // rounds up in the julian day but prints 59 in datetime().
      double scale = 1.0;
      z++;
      while (IsDigit(*z)) {
        fraction = fraction * 10.0 + (*z - '0');
        scale *= 10.0;
        z++;
      }
      fraction /= scale;
    }
  }
  p->valid_jd = false;
  p->raw = false;
  p->valid_hms = true;
  p->hour = h;
  p->minute = m;
  p->second = s + fraction;
  if (!ParseZone(z, p)) return false;
  p->valid_tz = p->tz != 0;
  return true;
}

bool ParseTimeValue(const char* z, int64_t (*now_ms)(), DateTime* p) {
  if (ParseYmd(z, p) || ParseHms(z, p)) return true;
  if (EqualsNoCase(z, "now")) {
    p->jd = now_ms();
    p->valid_jd = p->jd > 0;
    return p->valid_jd;
  }
  double r;
  if (AtoF(std::string_view(z, std::strlen(z)), &r) > 0) {
    SetRawNumber(p, r);
    return true;
  }
  return false;
}

}  // namespace engine::func::datetime
