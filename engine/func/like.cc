#include "engine/func/like.h"

#include "engine/func/text_format.h"
#include "engine/func/utf8.h"

namespace engine::func {
namespace {

enum MatchResult { kMatch = 0, kNoMatch = 1, kNoWildcardMatch = 2 };

struct CompareInfo {
  uint32_t match_all;  // '%' or '*'
  uint32_t match_one;  // '_' or '?'
  bool match_set;      // GLOB's [...]
  bool no_case;
};

uint32_t ToLower(uint32_t c) { return (c >= 'A' && c <= 'Z') ? c + 32 : c; }
uint32_t ToUpper(uint32_t c) { return (c >= 'a' && c <= 'z') ? c - 32 : c; }

// A cursor over NUL-terminated-like bytes: reading at the end yields 0.
struct Cursor {
  const unsigned char* p;
  const unsigned char* end;
  uint32_t Read() {
    if (p >= end) return 0;
    return Utf8Read(&p, end);
  }
  bool AtEnd() const { return p >= end; }
  unsigned char Peek() const { return p < end ? *p : 0; }
};

// SQLite's patternCompare (func.c), with explicit ends instead of NULs.
int PatternCompare(Cursor pat, Cursor str, const CompareInfo& info, uint32_t match_other) {
  uint32_t c, c2;
  const uint32_t match_one = info.match_one;
  const uint32_t match_all = info.match_all;
  const unsigned char* escaped = nullptr;
  while ((c = pat.Read()) != 0) {
    if (c == match_all) {
      while ((c = pat.Read()) == match_all || (c == match_one && match_one != 0)) {
        if (c == match_one && str.Read() == 0) return kNoWildcardMatch;
      }
      if (c == 0) return kMatch;
      if (c == match_other) {
        if (!info.match_set) {
          c = pat.Read();
          if (c == 0) return kNoWildcardMatch;
        } else {
          // "[...]" right after "*": try every position.
          Cursor set = pat;
          set.p--;  // back onto the '[' (single byte)
          while (!str.AtEnd()) {
            const int m = PatternCompare(set, str, info, match_other);
            if (m != kNoMatch) return m;
            str.p = Utf8Skip(str.p, str.end);
          }
          return kNoWildcardMatch;
        }
      }
      if (c < 0x80) {
        const uint32_t lo = info.no_case ? ToLower(c) : c;
        const uint32_t up = info.no_case ? ToUpper(c) : c;
        while (true) {
          while (!str.AtEnd() && *str.p != lo && *str.p != up) str.p++;
          if (str.AtEnd()) break;
          str.p++;
          const int m = PatternCompare(pat, str, info, match_other);
          if (m != kNoMatch) return m;
        }
      } else {
        while ((c2 = str.Read()) != 0) {
          if (c2 != c) continue;
          const int m = PatternCompare(pat, str, info, match_other);
          if (m != kNoMatch) return m;
        }
      }
      return kNoWildcardMatch;
    }
    if (c == match_other) {
      if (!info.match_set) {
        c = pat.Read();
        if (c == 0) return kNoMatch;
        escaped = pat.p;
      } else {
        uint32_t prior_c = 0;
        bool seen = false;
        bool invert = false;
        c = str.Read();
        if (c == 0) return kNoMatch;
        c2 = pat.Read();
        if (c2 == '^') {
          invert = true;
          c2 = pat.Read();
        }
        if (c2 == ']') {
          if (c == ']') seen = true;
          c2 = pat.Read();
        }
        while (c2 != 0 && c2 != ']') {
          if (c2 == '-' && pat.Peek() != ']' && pat.Peek() != 0 && prior_c > 0) {
            c2 = pat.Read();
            if (c >= prior_c && c <= c2) seen = true;
            prior_c = 0;
          } else {
            if (c == c2) seen = true;
            prior_c = c2;
          }
          c2 = pat.Read();
        }
        if (c2 == 0 || (seen ^ invert) == false) return kNoMatch;
        continue;
      }
    }
    c2 = str.Read();
    if (c == c2) continue;
    if (info.no_case && ToLower(c) == ToLower(c2) && c < 0x80 && c2 < 0x80) continue;
    if (c == match_one && pat.p != escaped && c2 != 0) continue;
    return kNoMatch;
  }
  return str.AtEnd() ? kMatch : kNoMatch;
}

Cursor CursorOf(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  return Cursor{p, p + CStringLength(s.data(), s.size())};
}

}  // namespace

bool LikeMatch(std::string_view pattern, std::string_view text, uint32_t escape) {
  CompareInfo info{'%', '_', false, true};
  if (escape == info.match_all) info.match_all = 0;
  if (escape == info.match_one) info.match_one = 0;
  return PatternCompare(CursorOf(pattern), CursorOf(text), info, escape) == kMatch;
}

bool GlobMatch(std::string_view pattern, std::string_view text) {
  const CompareInfo info{'*', '?', true, false};
  return PatternCompare(CursorOf(pattern), CursorOf(text), info, '[') == kMatch;
}

Result<Value> Like(const Value& text, const Value& pattern, const Value* escape,
                   ValueArena& arena) {
  if (text.type() == ValueType::kBlob || pattern.type() == ValueType::kBlob) {
    return Value::Integer(0);
  }
  const Value pat = ValueToText(pattern, arena);
  const Value str = ValueToText(text, arena);
  if (!pat.is_null() && pat.size() > kMaxLikePatternLength) {
    return Status::SqlError("LIKE or GLOB pattern too complex");
  }
  uint32_t esc = 0;
  if (escape != nullptr) {
    const Value e = ValueToText(*escape, arena);
    if (e.is_null()) return Value::Null();
    const auto* p = reinterpret_cast<const unsigned char*>(e.data());
    const auto* end = p + CStringLength(e.data(), e.size());
    if (p == end || Utf8Length(p, end) != 1) {
      return Status::SqlError("ESCAPE expression must be a single character");
    }
    esc = Utf8Read(&p, end);
  }
  if (pat.is_null() || str.is_null()) return Value::Null();
  return Value::Integer(LikeMatch(pat.as_text(), str.as_text(), esc) ? 1 : 0);
}

Result<Value> Glob(const Value& text, const Value& pattern, ValueArena& arena) {
  if (text.type() == ValueType::kBlob || pattern.type() == ValueType::kBlob) {
    return Value::Integer(0);
  }
  const Value pat = ValueToText(pattern, arena);
  const Value str = ValueToText(text, arena);
  if (!pat.is_null() && pat.size() > kMaxLikePatternLength) {
    return Status::SqlError("LIKE or GLOB pattern too complex");
  }
  if (pat.is_null() || str.is_null()) return Value::Null();
  return Value::Integer(GlobMatch(pat.as_text(), str.as_text()) ? 1 : 0);
}

}  // namespace engine::func
