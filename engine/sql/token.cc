#include "engine/sql/token.h"

#include <algorithm>
#include <array>
#include <cstddef>

namespace engine::sql {
namespace {

struct KeywordInfo {
  std::string_view spelling;
  TokenKind kind;
  bool fallback;
};

constexpr KeywordInfo kKeywords[] = {
#define ENGINE_SQL_KEYWORD_INFO(kind, spelling, fallback) {spelling, TokenKind::kind, fallback},
    ENGINE_SQL_KEYWORDS(ENGINE_SQL_KEYWORD_INFO)
#undef ENGINE_SQL_KEYWORD_INFO
};
constexpr size_t kNumKeywords = sizeof(kKeywords) / sizeof(kKeywords[0]);
constexpr size_t kLongestKeyword = 13;  // AUTOINCREMENT

// The X-macro list is alphabetical, so lookup is a binary search.
constexpr bool KeywordsSorted() {
  for (size_t i = 1; i < kNumKeywords; ++i) {
    if (!(kKeywords[i - 1].spelling < kKeywords[i].spelling)) return false;
  }
  return true;
}
static_assert(KeywordsSorted(), "keep ENGINE_SQL_KEYWORDS in alphabetical order");

constexpr size_t KeywordIndex(TokenKind kind) {
  return static_cast<size_t>(kind) - static_cast<size_t>(TokenKind::kAbort);
}

}  // namespace

bool IsKeyword(TokenKind kind) { return kind >= TokenKind::kAbort && kind < TokenKind::kNumKinds; }

bool IsFallbackKeyword(TokenKind kind) {
  return IsKeyword(kind) && kKeywords[KeywordIndex(kind)].fallback;
}

TokenKind LookupKeyword(std::string_view word) {
  if (word.size() < 2 || word.size() > kLongestKeyword) return TokenKind::kIdentifier;
  std::array<char, kLongestKeyword> upper{};
  for (size_t i = 0; i < word.size(); ++i) {
    char c = word[i];
    upper[i] = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
  }
  std::string_view key(upper.data(), word.size());
  const KeywordInfo* end = kKeywords + kNumKeywords;
  const KeywordInfo* it = std::lower_bound(
      kKeywords, end, key, [](const KeywordInfo& k, std::string_view w) { return k.spelling < w; });
  if (it != end && it->spelling == key) return it->kind;
  return TokenKind::kIdentifier;
}

std::string_view TokenKindName(TokenKind kind) {
  if (IsKeyword(kind)) return kKeywords[KeywordIndex(kind)].spelling;
  switch (kind) {
    case TokenKind::kEof:
      return "end of input";
    case TokenKind::kIllegal:
      return "illegal";
    case TokenKind::kIdentifier:
      return "identifier";
    case TokenKind::kString:
      return "string";
    case TokenKind::kBlob:
      return "blob";
    case TokenKind::kInteger:
      return "integer";
    case TokenKind::kFloat:
      return "float";
    case TokenKind::kVariable:
      return "variable";
    case TokenKind::kSemicolon:
      return ";";
    case TokenKind::kLParen:
      return "(";
    case TokenKind::kRParen:
      return ")";
    case TokenKind::kComma:
      return ",";
    case TokenKind::kDot:
      return ".";
    case TokenKind::kPlus:
      return "+";
    case TokenKind::kMinus:
      return "-";
    case TokenKind::kStar:
      return "*";
    case TokenKind::kSlash:
      return "/";
    case TokenKind::kPercent:
      return "%";
    case TokenKind::kConcat:
      return "||";
    case TokenKind::kEq:
      return "=";
    case TokenKind::kEqEq:
      return "==";
    case TokenKind::kNe:
      return "!=";
    case TokenKind::kLtGt:
      return "<>";
    case TokenKind::kLt:
      return "<";
    case TokenKind::kLe:
      return "<=";
    case TokenKind::kGt:
      return ">";
    case TokenKind::kGe:
      return ">=";
    case TokenKind::kBitAnd:
      return "&";
    case TokenKind::kBitOr:
      return "|";
    case TokenKind::kBitNot:
      return "~";
    case TokenKind::kShiftLeft:
      return "<<";
    case TokenKind::kShiftRight:
      return ">>";
    case TokenKind::kArrow:
      return "->";
    case TokenKind::kArrow2:
      return "->>";
    default:
      return "?";
  }
}

}  // namespace engine::sql
