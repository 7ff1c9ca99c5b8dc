// WITH clauses in the parse tree: where they attach, what they hold, and
// their rendering (which parses back to the same tree).
#include <gtest/gtest.h>

#include "engine/sql/parser.h"
#include "engine/sql/render.h"

namespace engine::sql {
namespace {

Statement Parse(std::string_view sql) {
  Result<Statement> st = ParseStatement(sql);
  EXPECT_TRUE(st.ok()) << sql << ": " << st.status().ToString();
  if (!st.ok()) return Statement{};
  return std::move(st).value();
}

TEST(ParserWithTest, ClauseBelongsToItsSelect) {
  Statement st = Parse(
      "WITH RECURSIVE c(x, y) AS MATERIALIZED (SELECT 1, 2), d AS NOT MATERIALIZED (VALUES(3)) "
      "SELECT * FROM c UNION ALL SELECT * FROM d ORDER BY 1 LIMIT 2");
  const Select& s = st.ast.select(st.as<SelectStmt>()->select);
  ASSERT_EQ(s.with, 0);
  const WithClause& w = st.ast.withs[0];
  EXPECT_TRUE(w.recursive);
  ASSERT_EQ(w.ctes.size(), 2u);
  EXPECT_EQ(w.ctes[0].name, "c");
  EXPECT_EQ(w.ctes[0].columns, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(w.ctes[0].materialized, CommonTableExpr::Materialized::kYes);
  EXPECT_EQ(w.ctes[1].materialized, CommonTableExpr::Materialized::kNo);
  EXPECT_EQ(s.cores.size(), 2u);
  EXPECT_EQ(st.ast.statement_with, -1);
  const std::string rendered = RenderSelect(st.ast, st.as<SelectStmt>()->select);
  EXPECT_EQ(rendered,
            "WITH RECURSIVE c(x, y) AS MATERIALIZED (SELECT 1, 2), d AS NOT MATERIALIZED "
            "(VALUES (3)) SELECT * FROM c UNION ALL SELECT * FROM d ORDER BY 1 LIMIT 2");
  Statement again = Parse(rendered);
  EXPECT_EQ(RenderSelect(again.ast, again.as<SelectStmt>()->select), rendered);
}

TEST(ParserWithTest, EverySelectPositionTakesOne) {
  for (const char* sql : {
           "SELECT * FROM (WITH c AS (SELECT 1) SELECT * FROM c)",
           "SELECT (WITH c AS (SELECT 1) SELECT * FROM c)",
           "SELECT 1 IN (WITH c AS (SELECT 1) SELECT * FROM c)",
           "SELECT EXISTS (WITH c AS (SELECT 1) SELECT * FROM c)",
           "INSERT INTO t WITH c AS (SELECT 1) SELECT * FROM c",
           "CREATE VIEW v AS WITH c AS (SELECT 1) SELECT * FROM c",
       }) {
    Result<Statement> st = ParseStatement(sql);
    ASSERT_TRUE(st.ok()) << sql << ": " << st.status().ToString();
    EXPECT_EQ(st->ast.withs.size(), 1u) << sql;
  }
}

TEST(ParserWithTest, BeforeDml) {
  for (const char* sql : {"WITH c AS (SELECT 1) INSERT INTO t SELECT * FROM c",
                          "WITH c AS (SELECT 1) REPLACE INTO t SELECT * FROM c",
                          "WITH c AS (SELECT 1) UPDATE t SET a = 1 WHERE a IN c",
                          "WITH c AS (SELECT 1) DELETE FROM t WHERE a IN c"}) {
    Statement st = Parse(sql);
    EXPECT_EQ(st.ast.statement_with, 0) << sql;
  }
}

TEST(ParserWithTest, Errors) {
  struct Case {
    const char* sql;
    const char* message;
  };
  for (const Case& c : {
           Case{"WITH c AS (SELECT 1), C AS (SELECT 2) SELECT 1", "duplicate WITH table name: C"},
           Case{"WITH c AS (SELECT 1)", "incomplete input"},
           Case{"WITH c AS (SELECT 1) CREATE TABLE z(a)", "near \"CREATE\": syntax error"},
           Case{"WITH recursive AS (SELECT 1) SELECT 1", "near \"AS\": syntax error"},
           Case{"WITH c AS NOT (SELECT 1) SELECT 1", "near \"(\": syntax error"},
           Case{"SELECT 1 UNION WITH c AS (SELECT 2) SELECT 2", "near \"WITH\": syntax error"},
       }) {
    Result<Statement> st = ParseStatement(c.sql);
    ASSERT_FALSE(st.ok()) << c.sql;
    EXPECT_EQ(st.status().message(), c.message) << c.sql;
  }
}

}  // namespace
}  // namespace engine::sql
