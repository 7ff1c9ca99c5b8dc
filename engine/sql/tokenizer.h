// Splits SQL text into tokens on demand, the way SQLite's tokenize.c does:
// whitespace and comments vanish, anything unrecognised comes back as a
// kIllegal token so that the parser can report it in SQLite's words only if
// the statement reaches it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/sql/token.h"

namespace engine::sql {

class Tokenizer {
 public:
  // `text` must outlive the tokenizer; inputs of 4 GiB or more are refused
  // by the parser before they get here (offsets are 32-bit).
  explicit Tokenizer(std::string_view text) : text_(text) {}

  Token Next();
  uint32_t offset() const { return pos_; }

 private:
  void SkipSpaceAndComments();
  Token ScanNumber(uint32_t start);
  Token ScanQuoted(uint32_t start, char close, TokenKind kind);
  Token ScanWord(uint32_t start);
  Token ScanVariable(uint32_t start);
  Token Make(TokenKind kind, uint32_t start) const { return Token{kind, start, pos_ - start}; }

  std::string_view text_;
  uint32_t pos_ = 0;
};

// Value of a 'string' token ('' becomes ').
std::string DecodeString(std::string_view token);
// Name of an identifier token, without its quotes ("a""b" becomes a"b).
std::string DecodeIdentifier(std::string_view token);
// Bytes of an X'..' token (the tokenizer has checked the hex digits).
std::string DecodeBlob(std::string_view token);
// True for the first byte of an identifier: letters, '_', non-ASCII.
bool IsIdentifierStart(unsigned char c);
// True for the following bytes: also digits and '$'.
bool IsIdentifierChar(unsigned char c);

}  // namespace engine::sql
