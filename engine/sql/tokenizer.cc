#include "engine/sql/tokenizer.h"

namespace engine::sql {
namespace {

bool IsDigit(unsigned char c) { return c >= '0' && c <= '9'; }
bool IsHexDigit(unsigned char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool IsSpace(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}
int HexValue(unsigned char c) {
  if (IsDigit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

}  // namespace

bool IsIdentifierStart(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}

bool IsIdentifierChar(unsigned char c) { return IsIdentifierStart(c) || IsDigit(c) || c == '$'; }

void Tokenizer::SkipSpaceAndComments() {
  const uint32_t n = static_cast<uint32_t>(text_.size());
  while (pos_ < n) {
    unsigned char c = text_[pos_];
    if (IsSpace(c)) {
      ++pos_;
    } else if (c == '-' && pos_ + 1 < n && text_[pos_ + 1] == '-') {
      while (pos_ < n && text_[pos_] != '\n') ++pos_;
    } else if (c == '/' && pos_ + 1 < n && text_[pos_ + 1] == '*') {
      // SQLite accepts a block comment left open at the end of the input.
      size_t close = text_.find("*/", pos_ + 2);
      pos_ = close == std::string_view::npos ? n : static_cast<uint32_t>(close + 2);
    } else {
      return;
    }
  }
}

Token Tokenizer::Next() {
  SkipSpaceAndComments();
  const uint32_t start = pos_;
  const uint32_t n = static_cast<uint32_t>(text_.size());
  if (pos_ >= n) return Token{TokenKind::kEof, n, 0};
  const unsigned char c = text_[pos_];
  auto at = [&](uint32_t i) -> unsigned char { return i < n ? text_[i] : 0; };
  auto single = [&](TokenKind kind) {
    pos_ += 1;
    return Make(kind, start);
  };
  auto pair = [&](TokenKind kind) {
    pos_ += 2;
    return Make(kind, start);
  };
  switch (c) {
    case ';':
      return single(TokenKind::kSemicolon);
    case '(':
      return single(TokenKind::kLParen);
    case ')':
      return single(TokenKind::kRParen);
    case ',':
      return single(TokenKind::kComma);
    case '+':
      return single(TokenKind::kPlus);
    case '*':
      return single(TokenKind::kStar);
    case '/':
      return single(TokenKind::kSlash);
    case '%':
      return single(TokenKind::kPercent);
    case '~':
      return single(TokenKind::kBitNot);
    case '&':
      return single(TokenKind::kBitAnd);
    case '-':
      if (at(pos_ + 1) == '>') {
        if (at(pos_ + 2) == '>') {
          pos_ += 3;
          return Make(TokenKind::kArrow2, start);
        }
        return pair(TokenKind::kArrow);
      }
      return single(TokenKind::kMinus);
    case '|':
      return at(pos_ + 1) == '|' ? pair(TokenKind::kConcat) : single(TokenKind::kBitOr);
    case '=':
      return at(pos_ + 1) == '=' ? pair(TokenKind::kEqEq) : single(TokenKind::kEq);
    case '<':
      if (at(pos_ + 1) == '=') return pair(TokenKind::kLe);
      if (at(pos_ + 1) == '>') return pair(TokenKind::kLtGt);
      if (at(pos_ + 1) == '<') return pair(TokenKind::kShiftLeft);
      return single(TokenKind::kLt);
    case '>':
      if (at(pos_ + 1) == '=') return pair(TokenKind::kGe);
      if (at(pos_ + 1) == '>') return pair(TokenKind::kShiftRight);
      return single(TokenKind::kGt);
    case '!':
      return at(pos_ + 1) == '=' ? pair(TokenKind::kNe) : single(TokenKind::kIllegal);
    case '\'':
      return ScanQuoted(start, '\'', TokenKind::kString);
    case '"':
      return ScanQuoted(start, '"', TokenKind::kIdentifier);
    case '`':
      return ScanQuoted(start, '`', TokenKind::kIdentifier);
    case '[': {
      size_t close = text_.find(']', pos_ + 1);
      if (close == std::string_view::npos) {
        pos_ = n;
        return Make(TokenKind::kIllegal, start);
      }
      pos_ = static_cast<uint32_t>(close + 1);
      return Make(TokenKind::kIdentifier, start);
    }
    case '.':
      if (IsDigit(at(pos_ + 1))) return ScanNumber(start);
      return single(TokenKind::kDot);
    case '?':
    case ':':
    case '@':
    case '$':
      return ScanVariable(start);
    default:
      break;
  }
  if (IsDigit(c)) return ScanNumber(start);
  if ((c == 'x' || c == 'X') && at(pos_ + 1) == '\'') {
    pos_ += 2;
    while (pos_ < n && IsHexDigit(text_[pos_])) ++pos_;
    bool ok = pos_ < n && text_[pos_] == '\'' && (pos_ - start - 2) % 2 == 0;
    // Like SQLite, a malformed blob swallows everything up to its quote.
    while (pos_ < n && text_[pos_] != '\'') ++pos_;
    if (pos_ < n) ++pos_;
    return Make(ok ? TokenKind::kBlob : TokenKind::kIllegal, start);
  }
  if (IsIdentifierStart(c)) return ScanWord(start);
  return single(TokenKind::kIllegal);
}

Token Tokenizer::ScanQuoted(uint32_t start, char close, TokenKind kind) {
  const uint32_t n = static_cast<uint32_t>(text_.size());
  pos_ = start + 1;
  while (pos_ < n) {
    if (text_[pos_] == close) {
      if (pos_ + 1 < n && text_[pos_ + 1] == close) {
        pos_ += 2;  // doubled quote stands for itself
        continue;
      }
      ++pos_;
      return Make(kind, start);
    }
    ++pos_;
  }
  return Make(TokenKind::kIllegal, start);
}

Token Tokenizer::ScanNumber(uint32_t start) {
  const uint32_t n = static_cast<uint32_t>(text_.size());
  auto at = [&](uint32_t i) -> unsigned char { return i < n ? text_[i] : 0; };
  TokenKind kind = TokenKind::kInteger;
  if (at(pos_) == '0' && (at(pos_ + 1) == 'x' || at(pos_ + 1) == 'X') && IsHexDigit(at(pos_ + 2))) {
    pos_ += 2;
    while (IsHexDigit(at(pos_))) ++pos_;
  } else {
    while (IsDigit(at(pos_))) ++pos_;
    if (at(pos_) == '.') {
      kind = TokenKind::kFloat;
      ++pos_;
      while (IsDigit(at(pos_))) ++pos_;
    }
    if ((at(pos_) == 'e' || at(pos_) == 'E') &&
        (IsDigit(at(pos_ + 1)) ||
         ((at(pos_ + 1) == '+' || at(pos_ + 1) == '-') && IsDigit(at(pos_ + 2))))) {
      kind = TokenKind::kFloat;
      pos_ += 2;
      while (IsDigit(at(pos_))) ++pos_;
    }
  }
  // "123abc" is one unrecognised token, not a number and a name.
  if (pos_ < n && IsIdentifierChar(text_[pos_])) {
    while (pos_ < n && IsIdentifierChar(text_[pos_])) ++pos_;
    kind = TokenKind::kIllegal;
  }
  return Make(kind, start);
}

Token Tokenizer::ScanWord(uint32_t start) {
  const uint32_t n = static_cast<uint32_t>(text_.size());
  while (pos_ < n && IsIdentifierChar(text_[pos_])) ++pos_;
  return Make(LookupKeyword(text_.substr(start, pos_ - start)), start);
}

Token Tokenizer::ScanVariable(uint32_t start) {
  const uint32_t n = static_cast<uint32_t>(text_.size());
  const char sigil = text_[pos_++];
  if (sigil == '?') {
    while (pos_ < n && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
    return Make(TokenKind::kVariable, start);
  }
  uint32_t name_start = pos_;
  while (pos_ < n && IsIdentifierChar(text_[pos_])) ++pos_;
  return Make(pos_ > name_start ? TokenKind::kVariable : TokenKind::kIllegal, start);
}

std::string DecodeString(std::string_view token) {
  std::string out;
  if (token.size() < 2) return out;
  std::string_view body = token.substr(1, token.size() - 2);
  out.reserve(body.size());
  const char quote = token.front();
  for (size_t i = 0; i < body.size(); ++i) {
    out.push_back(body[i]);
    if (body[i] == quote) ++i;  // the tokenizer guarantees it is doubled
  }
  return out;
}

std::string DecodeIdentifier(std::string_view token) {
  if (token.empty()) return std::string();
  switch (token.front()) {
    case '"':
    case '`':
    case '\'':
      return DecodeString(token);
    case '[':
      return std::string(token.substr(1, token.size() - 2));
    default:
      return std::string(token);
  }
}

std::string DecodeBlob(std::string_view token) {
  std::string out;
  if (token.size() < 3) return out;
  std::string_view hex = token.substr(2, token.size() - 3);
  out.reserve(hex.size() / 2);
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(HexValue(hex[i]) * 16 + HexValue(hex[i + 1])));
  }
  return out;
}

}  // namespace engine::sql
