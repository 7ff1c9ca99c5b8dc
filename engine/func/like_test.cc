#include "engine/func/like.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "engine/func/sqlite_eval_test_util.h"

namespace engine::func {
namespace {

using testing::Describe;
using testing::SameValue;

TEST(LikeTest, LikePatterns) {
  struct Case {
    const char* text;
    const char* pattern;
    uint32_t escape;
    bool match;
  };
  const Case cases[] = {
      {"abc", "abc", 0, true},
      {"ABC", "abc", 0, true},
      {"abc", "a%", 0, true},
      {"abc", "%c", 0, true},
      {"abc", "_b_", 0, true},
      {"abc", "__", 0, false},
      {"", "%", 0, true},
      {"", "_", 0, false},
      {"a%c", "a\\%c", '\\', true},
      {"abc", "a\\%c", '\\', false},
      {"a_c", "a!_c", '!', true},
      {"abc", "a!_c", '!', false},
      {"h\xc3\xa9llo", "h_llo", 0, true},  // one UTF-8 character for _
      {"\xc3\x89", "\xc3\xa9", 0, false},  // no case folding beyond ASCII
      {"abcabc", "%bc%bc", 0, true},
      {"abc", "%%%", 0, true},
      {"abc", "a%%c", 0, true},
      {"ab", "a%b%", 0, true},
      {"a%", "a%%", '%', true},
      {"ab", "a%%", '%', false},
      {"x\xe2\x82\xacy", "x%y", 0, true},
      {"x\xe2\x82\xacy", "%\xe2\x82\xac%", 0, true},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(LikeMatch(c.pattern, c.text, c.escape), c.match)
        << "'" << c.text << "' LIKE '" << c.pattern << "'";
  }
}

TEST(LikeTest, GlobPatterns) {
  struct Case {
    const char* text;
    const char* pattern;
    bool match;
  };
  const Case cases[] = {
      {"abc", "abc", true},
      {"ABC", "abc", false},
      {"abc", "a*", true},
      {"abc", "?b?", true},
      {"abc", "[a-c]bc", true},
      {"dbc", "[a-c]bc", false},
      {"dbc", "[^a-c]bc", true},
      {"]", "[]]", true},
      {"-", "[a-]", true},
      {"abc", "*[c]", true},
      {"abc", "*[b]", false},
      {"h\xc3\xa9", "h?", true},
      {"\xc3\xa9", "[\xc3\xa0-\xc3\xbf]", true},
      {"abc", "a[", false},
      {"", "*", true},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(GlobMatch(c.pattern, c.text), c.match)
        << "'" << c.text << "' GLOB '" << c.pattern << "'";
  }
}

TEST(LikeTest, ValueLevelRulesAndErrors) {
  ValueArena arena;
  const Value x = Value::Text("x");
  const Value esc2 = Value::Text("ab");
  auto r = Like(Value::Text("abc"), Value::Text("a%"), &esc2, arena);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "ESCAPE expression must be a single character");
  const Value null = Value::Null();
  EXPECT_TRUE(Like(Value::Text("a"), Value::Text("a"), &null, arena)->is_null());
  EXPECT_TRUE(Like(null, Value::Text("a"), nullptr, arena)->is_null());
  EXPECT_TRUE(
      SameValue(*Like(Value::Integer(12), Value::Text("1_"), nullptr, arena), Value::Integer(1)));
  // Debian's sqlite3 is built with SQLITE_LIKE_DOESNT_MATCH_BLOBS.
  EXPECT_TRUE(
      SameValue(*Like(Value::Blob("a", 1), Value::Text("a"), nullptr, arena), Value::Integer(0)));
  EXPECT_TRUE(SameValue(*Glob(null, Value::Blob("a", 1), arena), Value::Integer(0)));
  const std::string huge(kMaxLikePatternLength + 1, '%');
  auto too_long = Glob(x, Value::Text(huge), arena);
  ASSERT_FALSE(too_long.ok());
  EXPECT_EQ(too_long.status().message(), "LIKE or GLOB pattern too complex");
}

// Random texts and patterns over a small alphabet (with multi-byte
// characters and every wildcard), against sqlite3's LIKE and GLOB.
TEST(LikeTest, MatchesSqliteOnRandomPatterns) {
  testing::OracleDb db;
  sqlite3_stmt* stmt = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db.get(), "SELECT ?1 LIKE ?2, ?1 GLOB ?2, ?1 LIKE ?2 ESCAPE '!'", -1,
                               &stmt, nullptr),
            SQLITE_OK);
  const char* text_pieces[] = {"a", "A", "b", "B", "\xc3\xa9", "\xc3\x89",    "%",
                               "_", "!", "-", "]", "c",        "\xe2\x82\xac"};
  const char* pattern_pieces[] = {"a", "A",  "b",     "%",        "_",
                                  "*", "?",  "[a-b]", "[^a]",     "[]]",
                                  "!", "!%", "!_",    "\xc3\xa9", "[\xc3\xa0-\xc3\xbf]",
                                  "c", "[",  "-",     "[b-a]",    "\xe2\x82\xac"};
  std::mt19937_64 rng(99);
  for (int i = 0; i < 20000; i++) {
    std::string text;
    std::string pattern;
    for (int k = static_cast<int>(rng() % 6); k > 0; k--) {
      text += text_pieces[rng() % (sizeof(text_pieces) / sizeof(text_pieces[0]))];
    }
    for (int k = static_cast<int>(rng() % 5); k > 0; k--) {
      pattern += pattern_pieces[rng() % (sizeof(pattern_pieces) / sizeof(pattern_pieces[0]))];
    }
    sqlite3_bind_text(stmt, 1, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
    sqlite3_bind_text(stmt, 2, pattern.data(), static_cast<int>(pattern.size()), SQLITE_TRANSIENT);
    ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
    ASSERT_EQ(LikeMatch(pattern, text), sqlite3_column_int(stmt, 0) == 1)
        << "'" << text << "' LIKE '" << pattern << "'";
    ASSERT_EQ(GlobMatch(pattern, text), sqlite3_column_int(stmt, 1) == 1)
        << "'" << text << "' GLOB '" << pattern << "'";
    ASSERT_EQ(LikeMatch(pattern, text, '!'), sqlite3_column_int(stmt, 2) == 1)
        << "'" << text << "' LIKE '" << pattern << "' ESCAPE '!'";
    sqlite3_reset(stmt);
  }
  sqlite3_finalize(stmt);
}

}  // namespace
}  // namespace engine::func
