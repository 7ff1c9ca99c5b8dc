// SQLite's variable-length integer: 1 to 9 bytes, big-endian groups of 7 bits
// with the high bit set on every byte but the last; a 9th byte, when present,
// contributes all 8 of its bits. These functions sit in the B-tree's seek loop
// and the record decoder, so they stay inline in the header; perfci's inline
// contracts name them, so keep their names.
#pragma once

#include <cstdint>

// The hot decoders must inline into their callers even where the compiler's
// size heuristics would not (perfci's inline contracts check the binary).
#ifndef ENGINE_ALWAYS_INLINE
#define ENGINE_ALWAYS_INLINE inline __attribute__((always_inline))
#endif

namespace engine {

constexpr int kMaxVarintLen = 9;

// Decodes the varint at p; returns the number of bytes consumed (1..9). The
// caller guarantees 9 readable bytes, or uses get_varint_bounded.
ENGINE_ALWAYS_INLINE int get_varint(const uint8_t* p, uint64_t* v) {
  if (p[0] < 0x80) {
    *v = p[0];
    return 1;
  }
  if (p[1] < 0x80) {
    *v = (uint64_t{p[0] & 0x7fu} << 7) | p[1];
    return 2;
  }
  uint64_t x = (uint64_t{p[0] & 0x7fu} << 14) | (uint64_t{p[1] & 0x7fu} << 7);
  for (int i = 2; i < 8; ++i) {
    x |= p[i] & 0x7fu;
    if (p[i] < 0x80) {
      *v = x;
      return i + 1;
    }
    x <<= 7;
  }
  // Eight continuation bytes: the ninth is a full byte, so shift by 8 in all
  // (the loop already shifted by 7).
  *v = (x << 1) | p[8];
  return 9;
}

// As get_varint, for untrusted input that ends at `end`: returns 0 when the
// varint would run past `end`.
ENGINE_ALWAYS_INLINE int get_varint_bounded(const uint8_t* p, const uint8_t* end, uint64_t* v) {
  if (p < end && p[0] < 0x80) {
    *v = p[0];
    return 1;
  }
  if (end - p >= kMaxVarintLen) return get_varint(p, v);
  uint64_t x = 0;
  for (int i = 0; p + i < end; ++i) {
    if (i == 8) {
      *v = (x << 8) | p[8];
      return 9;
    }
    x = (x << 7) | (p[i] & 0x7fu);
    if (p[i] < 0x80) {
      *v = x;
      return i + 1;
    }
  }
  return 0;
}

// Bytes put_varint writes for v.
inline int varint_len(uint64_t v) {
  if (v <= 0x7f) return 1;
  if (v <= 0x3fff) return 2;
  if (v > 0x00ffffffffffffffull) return 9;
  int n = 2;
  for (v >>= 14; v != 0; v >>= 7) ++n;
  return n;
}

// Encodes v at p (room for 9 bytes); returns the number of bytes written.
inline int put_varint(uint8_t* p, uint64_t v) {
  if (v <= 0x7f) {
    p[0] = static_cast<uint8_t>(v);
    return 1;
  }
  if (v <= 0x3fff) {
    p[0] = static_cast<uint8_t>((v >> 7) | 0x80);
    p[1] = static_cast<uint8_t>(v & 0x7f);
    return 2;
  }
  if (v > 0x00ffffffffffffffull) {
    p[8] = static_cast<uint8_t>(v);
    v >>= 8;
    for (int i = 7; i >= 0; --i) {
      p[i] = static_cast<uint8_t>((v & 0x7f) | 0x80);
      v >>= 7;
    }
    return 9;
  }
  const int n = varint_len(v);
  p[n - 1] = static_cast<uint8_t>(v & 0x7f);
  v >>= 7;
  for (int i = n - 2; i >= 0; --i) {
    p[i] = static_cast<uint8_t>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  return n;
}

}  // namespace engine
