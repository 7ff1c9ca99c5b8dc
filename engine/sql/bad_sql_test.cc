// Bad SQL returns errors in SQLite's words and never crashes, whatever the input.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <random>
#include <string>

#include "engine/sql/parser.h"

namespace engine::sql {
namespace {

std::string ErrorOf(std::string_view sql) {
  Result<std::vector<Statement>> r = ParseScript(sql);
  return r.ok() ? std::string("ok") : r.status().message();
}

std::string SqliteErrorOf(const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open(":memory:", &db);
  sqlite3_stmt* stmt = nullptr;
  std::string out = "ok";
  if (sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()), &stmt, nullptr) !=
      SQLITE_OK) {
    out = sqlite3_errmsg(db);
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return out;
}

// Syntax errors that the real SQLite reports before it looks at the schema,
// so its message is the one to match word for word.
TEST(BadSqlTest, SyntaxErrorsMatchSqlite) {
  const char* const cases[] = {
      "SELEC 1",
      "SELECT",
      "SELECT 1 +",
      "SELECT * FROM",
      "SELECT * FROM t WHERE",
      "SELECT (1",
      "SELECT 1)",
      "SELECT 1 FROM t t2 t3",
      "SELECT 'abc",
      "SELECT \"abc",
      "SELECT [abc",
      "SELECT 1 ! 2",
      "SELECT 123abc",
      "SELECT 0x",
      "SELECT X'123'",
      "SELECT 0x10000000000000000",
      "SELECT 1 FROM t WHERE a = = 1",
      "SELECT a FROM t ORDER a",
      "SELECT a FROM t GROUP a",
      "SELECT CASE END",
      "SELECT CASE a ELSE 1 END",
      "SELECT CAST(1 AS)",
      "SELECT a NOT b",
      "SELECT a BETWEEN 1",
      "SELECT a IN 1",
      "SELECT count(*",
      "CREATE TABLE",
      "CREATE TABLE t(",
      "CREATE TABLE t(a,)",
      "CREATE TABLE t(a PRIMARY)",
      "CREATE INDEX i ON t",
      "CREATE TABLE t(a) WITHOUT x",
      "INSERT INTO t VALUES",
      "INSERT t VALUES(1)",
      "UPDATE t SET",
      "UPDATE t SET a 1",
      "DELETE t",
      "DROP t",
      "DROP TABLE IF t",
      "EXPLAIN",
      "EXPLAIN QUERY SELECT 1",
      "BEGIN garbage",
      "VALUES",
      "SELECT 1 UNION",
      "SELECT 1 UNION ALL ALL SELECT 2",
      "SELECT a FROM t LIMIT",
      "SELECT * FROM t JOIN",
      "SELECT * FROM t LEFT u",
      "SELECT * FROM t LEFT u JOIN v",
      "SELECT * FROM t INNER OUTER JOIN v",
      "SELECT * FROM t OUTER JOIN v",
      "SELECT * FROM t NATURAL OUTER JOIN v",
      "SELECT * FROM t LEFT OUTER INNER JOIN v",
      "SELECT t.* .a FROM t",
      "SELECT 1 FROM (SELECT 2",
      "SELECT 1 WHERE a IS NOT",
      "SELECT -",
      "SELECT ~",
      "SELECT 'a' COLLATE",
      "PRAGMA",
      "PRAGMA x =",
      "(SELECT 1)",
      "SELECT 1 ORDER BY 1 UNION SELECT 2",
      "SELECT 1 LIMIT 1 UNION ALL SELECT 2",
      "SELECT 1 ORDER BY 1 LIMIT 2 EXCEPT SELECT 2",
  };
  for (const char* sql : cases) {
    EXPECT_EQ(ErrorOf(sql), SqliteErrorOf(sql)) << sql;
  }
}

TEST(BadSqlTest, MessagesInSqlitesWords) {
  EXPECT_EQ(ErrorOf("SELECT * FROM"), "incomplete input");
  EXPECT_EQ(ErrorOf("SELECT * FROM t WHERE a = ;"), "near \";\": syntax error");
  EXPECT_EQ(ErrorOf("SELECT 'abc"), "unrecognized token: \"'abc\"");
  EXPECT_EQ(ErrorOf("SELECT 0x1FFFFFFFFFFFFFFFF"), "hex literal too big: 0x1FFFFFFFFFFFFFFFF");
  EXPECT_EQ(ErrorOf("VALUES(1),(2,3)"), "all VALUES must have the same number of terms");
}

std::string Nested(size_t depth, std::string_view open, std::string_view inner,
                   std::string_view close) {
  std::string s = "SELECT ";
  for (size_t i = 0; i < depth; ++i) s += open;
  s += inner;
  for (size_t i = 0; i < depth; ++i) s += close;
  return s;
}

constexpr char kTooDeep[] = "Expression tree is too large (maximum depth 1000)";

TEST(BadSqlTest, DeepNestingIsAnErrorNotACrash) {
  EXPECT_EQ(ErrorOf(Nested(100000, "(", "1", ")")), kTooDeep);
  EXPECT_EQ(ErrorOf(Nested(100000, "(", "", "")), kTooDeep);
  EXPECT_EQ(ErrorOf(Nested(100000, "- ", "1", "")), kTooDeep);
  EXPECT_EQ(ErrorOf(Nested(100000, "NOT ", "1", "")), kTooDeep);
  EXPECT_EQ(ErrorOf(Nested(100000, "abs(", "1", ")")), kTooDeep);
  EXPECT_EQ(ErrorOf(Nested(100000, "CASE WHEN 1 THEN ", "1", " END")), kTooDeep);
  EXPECT_EQ(ErrorOf(Nested(100000, "(SELECT ", "1", ")")), kTooDeep);
  EXPECT_EQ(ErrorOf(Nested(100000, "EXISTS (SELECT ", "1", ")")), kTooDeep);
  EXPECT_EQ(ErrorOf(Nested(100000, "1 IN (", "1", ")")), kTooDeep);
  // Left-deep chains do not recurse in the parser but would in every later
  // tree walk, so their height is limited as well.
  EXPECT_EQ(ErrorOf(Nested(100000, "", "1", " + 1")), kTooDeep);
  EXPECT_EQ(ErrorOf(Nested(100000, "", "1", " AND 1")), kTooDeep);
  std::string from = "SELECT * FROM ";
  for (int i = 0; i < 100000; ++i) from += "(SELECT * FROM ";
  EXPECT_EQ(ErrorOf(from), kTooDeep);
  std::string joins = "SELECT * FROM ";
  for (int i = 0; i < 100000; ++i) joins += "(";
  EXPECT_EQ(ErrorOf(joins), kTooDeep);
}

TEST(BadSqlTest, NestingBelowTheLimitParses) {
  EXPECT_EQ(ErrorOf(Nested(900, "(", "1", ")")), "ok");
  EXPECT_EQ(ErrorOf(Nested(900, "", "1", " + 1")), "ok");
  EXPECT_EQ(ErrorOf(Nested(400, "- ", "1", "")), "ok");
  EXPECT_EQ(ErrorOf(Nested(200, "(SELECT ", "1", ")")), "ok");
}

TEST(BadSqlTest, TooManyCompoundTerms) {
  std::string sql = "SELECT 1";
  for (int i = 0; i < 600; ++i) sql += " UNION SELECT 1";
  EXPECT_EQ(ErrorOf(sql), "too many terms in compound SELECT");
}

TEST(BadSqlTest, RandomBytesNeverCrash) {
  std::mt19937 rng(12345);
  std::string bytes(1 << 20, '\0');
  for (char& c : bytes) c = static_cast<char>(rng());
  EXPECT_NE(ErrorOf(bytes), "ok");
}

// Random token soup, biased towards SQL, exercises error paths deep inside
// statements; every outcome must be a clean result.
TEST(BadSqlTest, RandomTokenSoupNeverCrashes) {
  static const char* const kWords[] = {
      "SELECT", "FROM",     "WHERE", "(",       ")",      ",",       "a",      "t",
      "1",      "'s'",      "+",     "-",       "*",      "NOT",     "IN",     "AND",
      "OR",     "CASE",     "WHEN",  "THEN",    "END",    "BETWEEN", "IS",     "NULL",
      "ORDER",  "BY",       "LIMIT", "UNION",   "VALUES", "CREATE",  "TABLE",  "INDEX",
      "ON",     "INSERT",   "INTO",  "UPDATE",  "SET",    "=",       "DELETE", "JOIN",
      "LEFT",   "EXISTS",   "?",     ":x",      ";",      ".",       "AS",     "GROUP",
      "HAVING", "DISTINCT", "CAST",  "PRIMARY", "KEY",    "UNIQUE",  "DROP"};
  std::mt19937 rng(777);
  int parsed = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string sql;
    const int n = 1 + static_cast<int>(rng() % 30);
    for (int j = 0; j < n; ++j) {
      sql += kWords[rng() % std::size(kWords)];
      sql += ' ';
    }
    Result<std::vector<Statement>> r = ParseScript(sql);
    if (r.ok()) {
      ++parsed;
    } else {
      EXPECT_FALSE(r.status().message().empty()) << sql;
    }
  }
  EXPECT_GT(parsed, 0);
}

}  // namespace
}  // namespace engine::sql
