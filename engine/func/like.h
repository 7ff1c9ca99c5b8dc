// LIKE and GLOB pattern matching, SQLite's patternCompare: LIKE folds ASCII
// case only and knows % _ and an optional ESCAPE character; GLOB is case
// sensitive with * ? and [...] classes (ranges, ^ negation). Both step
// through UTF-8 characters, not bytes.
#pragma once

#include <cstdint>
#include <string_view>

#include "engine/func/value_arena.h"
#include "engine/status.h"
#include "engine/value.h"

namespace engine::func {

// SQLite's default SQLITE_LIMIT_LIKE_PATTERN_LENGTH.
inline constexpr size_t kMaxLikePatternLength = 50000;

// Raw matchers over bytes. The text ends at its end or its first NUL byte,
// as SQLite's C strings do. escape == 0 means no ESCAPE clause.
bool LikeMatch(std::string_view pattern, std::string_view text, uint32_t escape = 0);
bool GlobMatch(std::string_view pattern, std::string_view text);

// `text LIKE pattern [ESCAPE escape]` on values. As in the sqlite3 that
// Debian ships (built with SQLITE_LIKE_DOESNT_MATCH_BLOBS), a BLOB text or
// pattern gives 0 before anything else is looked at; otherwise NULL when an
// operand is NULL, else 0 or 1 (numbers match by their text). Errors as SQLite's:
// "ESCAPE expression must be a single character", "LIKE or GLOB pattern too
// complex". Pass escape == nullptr without an ESCAPE clause.
Result<Value> Like(const Value& text, const Value& pattern, const Value* escape, ValueArena& arena);
Result<Value> Glob(const Value& text, const Value& pattern, ValueArena& arena);

}  // namespace engine::func
