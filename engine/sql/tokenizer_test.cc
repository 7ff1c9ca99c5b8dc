#include "engine/sql/tokenizer.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace engine::sql {
namespace {

std::vector<std::pair<TokenKind, std::string>> Lex(std::string_view sql) {
  Tokenizer t(sql);
  std::vector<std::pair<TokenKind, std::string>> out;
  for (;;) {
    Token tok = t.Next();
    if (tok.kind == TokenKind::kEof) return out;
    out.emplace_back(tok.kind, std::string(tok.text(sql)));
  }
}

TokenKind Single(std::string_view sql) {
  auto toks = Lex(sql);
  EXPECT_EQ(toks.size(), 1u) << sql;
  return toks.empty() ? TokenKind::kEof : toks[0].first;
}

TEST(TokenizerTest, Punctuation) {
  const std::vector<std::pair<std::string, TokenKind>> cases = {
      {";", TokenKind::kSemicolon}, {"(", TokenKind::kLParen},     {")", TokenKind::kRParen},
      {",", TokenKind::kComma},     {".", TokenKind::kDot},        {"+", TokenKind::kPlus},
      {"-", TokenKind::kMinus},     {"*", TokenKind::kStar},       {"/", TokenKind::kSlash},
      {"%", TokenKind::kPercent},   {"||", TokenKind::kConcat},    {"=", TokenKind::kEq},
      {"==", TokenKind::kEqEq},     {"!=", TokenKind::kNe},        {"<>", TokenKind::kLtGt},
      {"<", TokenKind::kLt},        {"<=", TokenKind::kLe},        {">", TokenKind::kGt},
      {">=", TokenKind::kGe},       {"&", TokenKind::kBitAnd},     {"|", TokenKind::kBitOr},
      {"~", TokenKind::kBitNot},    {"<<", TokenKind::kShiftLeft}, {">>", TokenKind::kShiftRight},
      {"->", TokenKind::kArrow},    {"->>", TokenKind::kArrow2},
  };
  for (const auto& [text, kind] : cases) {
    EXPECT_EQ(Single(text), kind) << text;
    EXPECT_EQ(TokenKindName(kind), text);
  }
}

TEST(TokenizerTest, Literals) {
  EXPECT_EQ(Single("123"), TokenKind::kInteger);
  EXPECT_EQ(Single("0x1aF"), TokenKind::kInteger);
  EXPECT_EQ(Single("99999999999999999999"), TokenKind::kInteger);
  EXPECT_EQ(Single("1.5"), TokenKind::kFloat);
  EXPECT_EQ(Single(".5"), TokenKind::kFloat);
  EXPECT_EQ(Single("5."), TokenKind::kFloat);
  EXPECT_EQ(Single("1e10"), TokenKind::kFloat);
  EXPECT_EQ(Single("1.5E-3"), TokenKind::kFloat);
  EXPECT_EQ(Single("'it''s'"), TokenKind::kString);
  EXPECT_EQ(Single("''"), TokenKind::kString);
  EXPECT_EQ(Single("X'0aFF'"), TokenKind::kBlob);
  EXPECT_EQ(Single("x''"), TokenKind::kBlob);
  EXPECT_EQ(DecodeString("'it''s'"), "it's");
  EXPECT_EQ(DecodeBlob("X'0aFF'"), std::string("\x0a\xff", 2));
}

TEST(TokenizerTest, Identifiers) {
  EXPECT_EQ(Single("abc_1$"), TokenKind::kIdentifier);
  EXPECT_EQ(Single("_x"), TokenKind::kIdentifier);
  EXPECT_EQ(Single("\"a \"\"b\"\"\""), TokenKind::kIdentifier);
  EXPECT_EQ(Single("[a b]"), TokenKind::kIdentifier);
  EXPECT_EQ(Single("`a``b`"), TokenKind::kIdentifier);
  EXPECT_EQ(Single("\xc3\xa9t\xc3\xa9"), TokenKind::kIdentifier);  // UTF-8 letters
  EXPECT_EQ(DecodeIdentifier("\"a \"\"b\"\"\""), "a \"b\"");
  EXPECT_EQ(DecodeIdentifier("[a b]"), "a b");
  EXPECT_EQ(DecodeIdentifier("`a``b`"), "a`b");
  EXPECT_EQ(DecodeIdentifier("plain"), "plain");
}

TEST(TokenizerTest, KeywordsAreCaseInsensitive) {
  EXPECT_EQ(Single("select"), TokenKind::kSelect);
  EXPECT_EQ(Single("SeLeCt"), TokenKind::kSelect);
  EXPECT_EQ(Single("AUTOINCREMENT"), TokenKind::kAutoincrement);
  EXPECT_EQ(Single("end"), TokenKind::kEnd);
  EXPECT_EQ(Single("selects"), TokenKind::kIdentifier);
  EXPECT_EQ(Single("\"select\""), TokenKind::kIdentifier);
  EXPECT_TRUE(IsFallbackKeyword(TokenKind::kReplace));
  EXPECT_TRUE(IsFallbackKeyword(TokenKind::kKey));
  EXPECT_FALSE(IsFallbackKeyword(TokenKind::kSelect));
  EXPECT_FALSE(IsFallbackKeyword(TokenKind::kIdentifier));
}

TEST(TokenizerTest, EveryKeywordRoundTrips) {
  for (int k = static_cast<int>(TokenKind::kAbort); k < static_cast<int>(TokenKind::kNumKinds);
       ++k) {
    const TokenKind kind = static_cast<TokenKind>(k);
    EXPECT_TRUE(IsKeyword(kind));
    EXPECT_EQ(LookupKeyword(TokenKindName(kind)), kind) << TokenKindName(kind);
  }
}

TEST(TokenizerTest, Variables) {
  EXPECT_EQ(Single("?"), TokenKind::kVariable);
  EXPECT_EQ(Single("?12"), TokenKind::kVariable);
  EXPECT_EQ(Single(":name"), TokenKind::kVariable);
  EXPECT_EQ(Single("@x1"), TokenKind::kVariable);
  EXPECT_EQ(Single("$v"), TokenKind::kVariable);
  EXPECT_EQ(Single(":"), TokenKind::kIllegal);
}

TEST(TokenizerTest, CommentsAndWhitespaceVanish) {
  auto toks = Lex(" -- line\n SELECT /* block */ 1\t\r\n-- tail");
  ASSERT_EQ(toks.size(), 2u);
  EXPECT_EQ(toks[0].first, TokenKind::kSelect);
  EXPECT_EQ(toks[1], std::make_pair(TokenKind::kInteger, std::string("1")));
  EXPECT_TRUE(Lex("/* never closed").empty());
  EXPECT_TRUE(Lex("-- only a comment").empty());
}

TEST(TokenizerTest, Offsets) {
  std::string_view sql = "SELECT a+1";
  Tokenizer t(sql);
  Token s = t.Next();
  EXPECT_EQ(s.offset, 0u);
  EXPECT_EQ(s.length, 6u);
  Token a = t.Next();
  EXPECT_EQ(a.offset, 7u);
  EXPECT_EQ(t.Next().kind, TokenKind::kPlus);
  EXPECT_EQ(t.Next().text(sql), "1");
  Token end = t.Next();
  EXPECT_EQ(end.kind, TokenKind::kEof);
  EXPECT_EQ(t.Next().kind, TokenKind::kEof);  // stays at the end
}

TEST(TokenizerTest, IllegalTokens) {
  EXPECT_EQ(Single("'unterminated"), TokenKind::kIllegal);
  EXPECT_EQ(Single("\"unterminated"), TokenKind::kIllegal);
  EXPECT_EQ(Single("[unterminated"), TokenKind::kIllegal);
  EXPECT_EQ(Single("`unterminated"), TokenKind::kIllegal);
  EXPECT_EQ(Single("123abc"), TokenKind::kIllegal);
  EXPECT_EQ(Single("1.5x"), TokenKind::kIllegal);
  EXPECT_EQ(Single("1e"), TokenKind::kIllegal);
  EXPECT_EQ(Single("X'abc'"), TokenKind::kIllegal);  // odd number of digits
  EXPECT_EQ(Single("X'zz'"), TokenKind::kIllegal);
  EXPECT_EQ(Single("!"), TokenKind::kIllegal);
  EXPECT_EQ(Single("#"), TokenKind::kIllegal);
  EXPECT_EQ(Single(std::string_view("\0", 1)), TokenKind::kIllegal);
  auto toks = Lex("a ! b");
  ASSERT_EQ(toks.size(), 3u);
  EXPECT_EQ(toks[1].first, TokenKind::kIllegal);
}

}  // namespace
}  // namespace engine::sql
