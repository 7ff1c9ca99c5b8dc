// Token kinds of SQLite's SQL dialect. Keywords get their own kinds so that the
// parser compares enums, never strings; the X-macro keeps the kind, its
// spelling and whether SQLite lets it stand in for an identifier in one place.
#pragma once

#include <cstdint>
#include <string_view>

namespace engine::sql {

// KEYWORD(kind, spelling, usable_as_identifier). The third column follows the
// %fallback ID list of SQLite's parse.y for the words we know.
#define ENGINE_SQL_KEYWORDS(KEYWORD)              \
  KEYWORD(kAbort, "ABORT", true)                  \
  KEYWORD(kAll, "ALL", false)                     \
  KEYWORD(kAnd, "AND", false)                     \
  KEYWORD(kAs, "AS", false)                       \
  KEYWORD(kAsc, "ASC", true)                      \
  KEYWORD(kAutoincrement, "AUTOINCREMENT", false) \
  KEYWORD(kBegin, "BEGIN", true)                  \
  KEYWORD(kBetween, "BETWEEN", false)             \
  KEYWORD(kBy, "BY", true)                        \
  KEYWORD(kCase, "CASE", false)                   \
  KEYWORD(kCast, "CAST", true)                    \
  KEYWORD(kCheck, "CHECK", false)                 \
  KEYWORD(kCollate, "COLLATE", false)             \
  KEYWORD(kCommit, "COMMIT", false)               \
  KEYWORD(kConflict, "CONFLICT", true)            \
  KEYWORD(kConstraint, "CONSTRAINT", false)       \
  KEYWORD(kCreate, "CREATE", false)               \
  KEYWORD(kCross, "CROSS", false)                 \
  KEYWORD(kDefault, "DEFAULT", false)             \
  KEYWORD(kDeferred, "DEFERRED", true)            \
  KEYWORD(kDelete, "DELETE", false)               \
  KEYWORD(kDesc, "DESC", true)                    \
  KEYWORD(kDistinct, "DISTINCT", false)           \
  KEYWORD(kDrop, "DROP", false)                   \
  KEYWORD(kElse, "ELSE", false)                   \
  KEYWORD(kEnd, "END", true)                      \
  KEYWORD(kEscape, "ESCAPE", false)               \
  KEYWORD(kExcept, "EXCEPT", false)               \
  KEYWORD(kExclusive, "EXCLUSIVE", true)          \
  KEYWORD(kExists, "EXISTS", false)               \
  KEYWORD(kExplain, "EXPLAIN", true)              \
  KEYWORD(kFail, "FAIL", true)                    \
  KEYWORD(kFirst, "FIRST", true)                  \
  KEYWORD(kForeign, "FOREIGN", false)             \
  KEYWORD(kFrom, "FROM", false)                   \
  KEYWORD(kFull, "FULL", false)                   \
  KEYWORD(kGlob, "GLOB", true)                    \
  KEYWORD(kGroup, "GROUP", false)                 \
  KEYWORD(kHaving, "HAVING", false)               \
  KEYWORD(kIf, "IF", true)                        \
  KEYWORD(kIgnore, "IGNORE", true)                \
  KEYWORD(kImmediate, "IMMEDIATE", true)          \
  KEYWORD(kIn, "IN", false)                       \
  KEYWORD(kIndex, "INDEX", false)                 \
  KEYWORD(kInner, "INNER", false)                 \
  KEYWORD(kInsert, "INSERT", false)               \
  KEYWORD(kIntersect, "INTERSECT", false)         \
  KEYWORD(kInto, "INTO", false)                   \
  KEYWORD(kIs, "IS", false)                       \
  KEYWORD(kIsnull, "ISNULL", false)               \
  KEYWORD(kJoin, "JOIN", false)                   \
  KEYWORD(kKey, "KEY", true)                      \
  KEYWORD(kLast, "LAST", true)                    \
  KEYWORD(kLeft, "LEFT", false)                   \
  KEYWORD(kLike, "LIKE", true)                    \
  KEYWORD(kLimit, "LIMIT", false)                 \
  KEYWORD(kMatch, "MATCH", true)                  \
  KEYWORD(kNatural, "NATURAL", false)             \
  KEYWORD(kNot, "NOT", false)                     \
  KEYWORD(kNotnull, "NOTNULL", false)             \
  KEYWORD(kNull, "NULL", false)                   \
  KEYWORD(kNulls, "NULLS", true)                  \
  KEYWORD(kOffset, "OFFSET", true)                \
  KEYWORD(kOn, "ON", false)                       \
  KEYWORD(kOr, "OR", false)                       \
  KEYWORD(kOrder, "ORDER", false)                 \
  KEYWORD(kOuter, "OUTER", false)                 \
  KEYWORD(kPlan, "PLAN", true)                    \
  KEYWORD(kPragma, "PRAGMA", true)                \
  KEYWORD(kPrimary, "PRIMARY", false)             \
  KEYWORD(kQuery, "QUERY", true)                  \
  KEYWORD(kReferences, "REFERENCES", false)       \
  KEYWORD(kRegexp, "REGEXP", true)                \
  KEYWORD(kReplace, "REPLACE", true)              \
  KEYWORD(kRight, "RIGHT", false)                 \
  KEYWORD(kRollback, "ROLLBACK", false)           \
  KEYWORD(kSelect, "SELECT", false)               \
  KEYWORD(kSet, "SET", false)                     \
  KEYWORD(kTable, "TABLE", false)                 \
  KEYWORD(kTemp, "TEMP", true)                    \
  KEYWORD(kTemporary, "TEMPORARY", true)          \
  KEYWORD(kThen, "THEN", false)                   \
  KEYWORD(kTransaction, "TRANSACTION", false)     \
  KEYWORD(kUnion, "UNION", false)                 \
  KEYWORD(kUnique, "UNIQUE", false)               \
  KEYWORD(kUpdate, "UPDATE", false)               \
  KEYWORD(kUsing, "USING", false)                 \
  KEYWORD(kValues, "VALUES", false)               \
  KEYWORD(kView, "VIEW", true)                    \
  KEYWORD(kWhen, "WHEN", false)                   \
  KEYWORD(kWhere, "WHERE", false)                 \
  KEYWORD(kWith, "WITH", false)                   \
  KEYWORD(kWithout, "WITHOUT", true)

enum class TokenKind : uint8_t {
  kEof,         // end of input (never an error by itself)
  kIllegal,     // bytes that form no token; the parser reports them
  kIdentifier,  // bare word, "quoted", [bracketed] or `backticked`
  kString,      // 'text'
  kBlob,        // X'hex'
  kInteger,     // decimal or 0x hex digits
  kFloat,       // digits with a '.' or an exponent
  kVariable,    // ?, ?NNN, :name, @name, $name
  kSemicolon,
  kLParen,
  kRParen,
  kComma,
  kDot,
  kPlus,
  kMinus,
  kStar,
  kSlash,
  kPercent,
  kConcat,
  kEq,
  kEqEq,
  kNe,
  kLtGt,
  kLt,
  kLe,
  kGt,
  kGe,
  kBitAnd,
  kBitOr,
  kBitNot,
  kShiftLeft,
  kShiftRight,
  kArrow,
  kArrow2,  // -> and ->> (JSON operators; parsed so that they error cleanly)
#define ENGINE_SQL_KEYWORD_KIND(kind, spelling, fallback) kind,
  ENGINE_SQL_KEYWORDS(ENGINE_SQL_KEYWORD_KIND)
#undef ENGINE_SQL_KEYWORD_KIND
      kNumKinds
};

// A token is a slice of the statement text; values are decoded on demand so
// that scanning allocates nothing.
struct Token {
  TokenKind kind = TokenKind::kEof;
  uint32_t offset = 0;  // byte offset into the text being tokenized
  uint32_t length = 0;

  std::string_view text(std::string_view source) const { return source.substr(offset, length); }
};

bool IsKeyword(TokenKind kind);
// True for keywords that SQLite accepts where an identifier is expected.
bool IsFallbackKeyword(TokenKind kind);
// Keyword kind of `word` (case-insensitive), or kIdentifier.
TokenKind LookupKeyword(std::string_view word);
// A stable name for messages and tests: "SELECT", "integer", "(".
std::string_view TokenKindName(TokenKind kind);

}  // namespace engine::sql
