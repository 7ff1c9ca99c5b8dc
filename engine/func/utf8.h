// UTF-8 reading the way SQLite reads it (sqlite3Utf8Read): lenient, never
// failing. Invalid or overlong sequences decode to U+FFFD and a stray
// continuation byte decodes to itself, so every function that counts or
// matches characters agrees with SQLite on malformed text too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace engine::func {

// Decodes one character at *p (p < end) and advances *p past it.
inline uint32_t Utf8Read(const unsigned char** p, const unsigned char* end) {
  static const unsigned char kTrans1[] = {
      0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c,
      0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19,
      0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06,
      0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x00, 0x01, 0x02, 0x03,
      0x04, 0x05, 0x06, 0x07, 0x00, 0x01, 0x02, 0x03, 0x00, 0x01, 0x00, 0x00,
  };
  uint32_t c = *(*p)++;
  if (c >= 0xc0) {
    c = kTrans1[c - 0xc0];
    while (*p < end && (**p & 0xc0) == 0x80) c = (c << 6) + (0x3f & *(*p)++);
    if (c < 0x80 || (c & 0xFFFFF800) == 0xD800 || (c & 0xFFFFFFFE) == 0xFFFE) c = 0xFFFD;
  }
  return c;
}

// Advances past one character the way SQLITE_SKIP_UTF8 does.
inline const unsigned char* Utf8Skip(const unsigned char* p, const unsigned char* end) {
  if (*p++ >= 0xc0) {
    while (p < end && (*p & 0xc0) == 0x80) p++;
  }
  return p;
}

// Number of characters, counted as SQLite's length() counts them.
inline size_t Utf8Length(const unsigned char* p, const unsigned char* end) {
  size_t n = 0;
  while (p < end) {
    p = Utf8Skip(p, end);
    n++;
  }
  return n;
}

// Appends code point c encoded as SQLite's char() encodes it.
inline void Utf8Append(uint32_t c, std::string* out) {
  if (c < 0x80) {
    out->push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out->push_back(static_cast<char>(0xC0 + (c >> 6)));
    out->push_back(static_cast<char>(0x80 + (c & 0x3F)));
  } else if (c < 0x10000) {
    out->push_back(static_cast<char>(0xE0 + (c >> 12)));
    out->push_back(static_cast<char>(0x80 + ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 + (c & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 + ((c >> 18) & 0x07)));
    out->push_back(static_cast<char>(0x80 + ((c >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 + ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 + (c & 0x3F)));
  }
}

}  // namespace engine::func

namespace engine::func {

// SQLite's text functions read their argument as a C string: bytes after an
// embedded NUL are invisible to them. Returns the length up to the first NUL.
inline size_t CStringLength(const char* p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (p[i] == '\0') return i;
  }
  return n;
}

// length() of a TEXT of n bytes: its characters up to the first NUL, as
// Utf8Length(p, p + CStringLength(p, n)) counts them. ASCII without a NUL
// goes eight bytes at a time (one character a byte); from the first word
// that is not, the count goes on a character at a time. A scan of length()
// over a column spent a fifth of its time in the byte loop.
inline size_t Utf8TextLength(const unsigned char* p, size_t n) {
  constexpr uint64_t kHigh = 0x8080808080808080ull;
  constexpr uint64_t kOnes = 0x0101010101010101ull;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, sizeof w);
    // A byte >= 0x80, or a zero byte (in a word of bytes < 0x80, exactly
    // those bytes have the high bit of (w - 0x01..) & ~w set).
    if ((w & kHigh) != 0 || ((w - kOnes) & ~w & kHigh) != 0) break;
  }
  const unsigned char* q = p + i;
  const unsigned char* end = p + n;
  size_t chars = i;
  while (q < end && *q != 0) {
    q = Utf8Skip(q, end);
    ++chars;
  }
  return chars;
}

}  // namespace engine::func
